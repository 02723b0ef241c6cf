// Video and still-image fixtures. Every picture carries its frame number and its clip's hue
// (layout in VideoFrameStamp), so tests can identify any decoded or displayed frame.

import Foundation

extension Fixtures {
    /// A video of `seconds` at `fps` (frames 0, 1, 2… stamped into the picture), optionally with a
    /// stereo 48 kHz tone track of `audioSeconds` (default: `seconds`; may be longer or shorter —
    /// no -shortest, so each stream keeps its own length).
    /// - container: default MP4 for h264/mpeg4, Matroska for ffv1 or for lossless (wav/flac)
    ///   audio, which MP4 cannot carry (PCM) or only experimentally (FLAC).
    /// - keyframeInterval: GOP length in frames (encoder default when nil; x264: 250).
    public static func video(
        seconds: Double, fps: Int = 25, width: Int = 320, height: Int = 240,
        hue: VideoHue, codec: VideoCodec = .h264, container: VideoContainer? = nil,
        withAudio audio: AudioFixtureFormat? = nil, audioFrequency: Double = 440,
        audioSeconds: Double? = nil, keyframeInterval: Int? = nil
    ) throws -> String {
        let lossless = audio.map { $0 == .wav || $0 == .flac } ?? false
        let chosen = container ?? (lossless ? .mkv : codec.defaultContainer)
        if chosen == .mp4 && (codec == .ffv1 || lossless) {
            throw TestSupportError.io("MP4 cannot hold \(codec) video / \(String(describing: audio)) audio; use .mkv")
        }
        var name = "video-\(hue)-\(codec)-\(width)x\(height)-\(fps)fps-\(number(seconds))s"
        let video =
            "color=c=black:s=\(width)x\(height):r=\(fps):d=\(seconds),"
            + VideoFrameStamp.geqFilter(hue: hue)
        var arguments = ["-f", "lavfi", "-i", video]
        var outputOptions = ["-map", "0:v"] + codec.codecArguments + ["-flags:v", "+bitexact"]
        if let keyframeInterval {
            outputOptions += ["-g", "\(keyframeInterval)"]
            name += "-g\(keyframeInterval)"
        }
        if let audio {
            let length = audioSeconds ?? seconds
            arguments += [
                "-f", "lavfi", "-i",
                toneSource(
                    frequency: audioFrequency, seconds: length,
                    rate: 48000, channels: 2, amplitude: 0.5),
            ]
            outputOptions +=
                ["-map", "1:a", "-ar", "48000", "-ac", "2"] + audio.codecArguments
                + ["-flags:a", "+bitexact"]
            name += "-\(audio)\(number(audioFrequency))Hz-\(number(length))s"
        }
        if chosen == .mp4 { outputOptions += fastStart }
        return try make("\(name).\(chosen.fileExtension)", arguments + outputOptions)
    }

    /// A single picture in the fixture layout (frame number 0: the top half is all black) with
    /// the lower half in `hue`. PNG is lossless RGB; JPEG is near (±a few levels).
    public static func still(
        hue: VideoHue, width: Int = 320, height: Int = 240,
        format: StillImageFormat = .png
    ) throws -> String {
        let source = "color=c=black:s=\(width)x\(height):r=1:d=1," + VideoFrameStamp.geqFilter(hue: hue)
        return try make(
            "still-\(hue)-\(width)x\(height).\(format.fileExtension)",
            ["-f", "lavfi", "-i", source, "-frames:v", "1"] + format.codecArguments
                + ["-update", "1", "-flags:v", "+bitexact"])
    }

    /// Decodes video frames with the ffmpeg CLI to planar YUV 4:2:0 and reads each frame's stamp:
    /// the reference sequence of (frame number mod 256, hue) in presentation order.
    public static func decodeStamps(
        _ path: String, width: Int = 320, height: Int = 240
    ) throws
        -> [(frame: Int, hue: VideoHue)]
    {
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-i", path, "-map", "0:v:0",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-fps_mode", "passthrough", "pipe:1",
        ]
        let result = try ChildProcess.runCapturingData("ffmpeg", arguments, timeout: 300)
        guard result.status == 0 else {
            throw TestSupportError.commandFailed(
                command: "ffmpeg " + arguments.joined(separator: " "),
                status: result.status,
                stderr: String(decoding: result.stderr, as: UTF8.self))
        }
        let lumaSize = width * height, chromaSize = (width / 2) * (height / 2)
        let frameSize = lumaSize + 2 * chromaSize
        return result.stdout.withUnsafeBytes { raw -> [(frame: Int, hue: VideoHue)] in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
            return stride(from: 0, to: raw.count - frameSize + 1, by: frameSize).map { offset in
                VideoFrameStamp.read(
                    width: width, height: height,
                    y: base + offset, yStride: width,
                    cb: base + offset + lumaSize, cbStride: width / 2,
                    cr: base + offset + lumaSize + chromaSize, crStride: width / 2)
            }
        }
    }
}
