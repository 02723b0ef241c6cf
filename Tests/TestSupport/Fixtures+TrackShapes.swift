// Valid files whose tracks differ in length, in the containers people upload: the matrix that no damage
// check may call damaged. Every picture carries its frame stamp and the clip's hue (VideoFrameStamp), the
// sound is a 440 Hz tone.

/// A container and the codecs a file of that kind usually carries.
public enum ShapeContainer: String, Sendable, CaseIterable {
    /// Matroska, H.264 + FLAC, as ffmpeg writes it to a file (per-track DURATION tags, a segment duration).
    case mkv
    /// WebM, VP9 + Opus (per-track DURATION tags).
    case webm
    /// MP4, H.264 + AAC, index first.
    case mp4
    /// QuickTime, H.264 + 16-bit PCM.
    case mov
    /// Matroska written as a live stream (`-live 1`: a recorder's or a browser's file): no duration
    /// anywhere, so where each track ends is learned only by reading it.
    case liveMKV

    var fileExtension: String {
        switch self {
        case .mkv, .liveMKV: return "mkv"
        case .webm: return "webm"
        case .mp4: return "mp4"
        case .mov: return "mov"
        }
    }

    var videoArguments: [String] {
        switch self {
        case .webm: return ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "4", "-b:v", "0"]
        default: return VideoCodec.h264.codecArguments
        }
    }

    var audioArguments: [String] {
        switch self {
        case .mkv, .liveMKV: return ["-c:a", "flac"]
        case .webm: return ["-c:a", "libopus", "-b:a", "96k"]
        case .mp4: return ["-c:a", "aac", "-b:a", "128k"]
        case .mov: return ["-c:a", "pcm_s16le"]
        }
    }

    var muxerArguments: [String] {
        switch self {
        case .mp4: return Fixtures.fastStart
        case .liveMKV: return ["-live", "1"]
        default: return []
        }
    }
}

/// How long each track of a clip is.
public enum TrackShape: String, Sendable, CaseIterable {
    case soundLonger, pictureLonger, equal, soundOnly, pictureOnly

    /// Seconds of picture and of sound (nil: no such track).
    public var lengths: (picture: Double?, sound: Double?) {
        switch self {
        case .soundLonger: return (1.0, 1.3)
        case .pictureLonger: return (1.32, 1.0)  // 33 pictures at 25 fps
        case .equal: return (1.0, 1.0)
        case .soundOnly: return (nil, 1.0)
        case .pictureOnly: return (1.0, nil)
        }
    }

    /// Where a play ends at its shortest track and at its longest.
    public var shortest: Double { [lengths.picture, lengths.sound].compactMap { $0 }.min() ?? 0 }
    public var longest: Double { [lengths.picture, lengths.sound].compactMap { $0 }.max() ?? 0 }
}

extension Fixtures {
    /// A valid clip of `shape` in `container` at 320x240, 25 fps.
    public static func shapedClip(_ container: ShapeContainer, _ shape: TrackShape, hue: VideoHue) throws -> String {
        var inputs: [String] = []
        var maps: [String] = []
        if let picture = shape.lengths.picture {
            inputs += ["-f", "lavfi", "-i", "color=c=black:s=320x240:r=25:d=\(picture)," + VideoFrameStamp.geqFilter(hue: hue)]
            maps += ["-map", "0:v"] + container.videoArguments
        }
        if let sound = shape.lengths.sound {
            let input = shape.lengths.picture == nil ? 0 : 1
            inputs += [
                "-f", "lavfi", "-i",
                toneSource(frequency: 440, seconds: sound, rate: 48000, channels: 2, amplitude: 0.5),
            ]
            maps += ["-map", "\(input):a", "-ar", "48000", "-ac", "2"] + container.audioArguments
        }
        return try make(
            "shape-\(container)-\(shape)-\(hue).\(container.fileExtension)", inputs + maps + container.muxerArguments)
    }
}
