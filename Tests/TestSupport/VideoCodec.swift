// Video encodings for Fixtures.video. Debian's ffmpeg 5.1 has libx264, mpeg4 and ffv1 encoders.

public enum VideoCodec: String, Sendable, CaseIterable {
    /// H.264 via libx264 (yuv420p, B-frames on: decode order ≠ presentation order, as in real files).
    case h264
    /// MPEG-4 part 2 at -q:v 2.
    case mpeg4
    /// FFV1, lossless: frames decode to exactly the generated pixels.
    case ffv1

    /// ffmpeg output options selecting the encoder.
    public var codecArguments: [String] {
        switch self {
        case .h264: return ["-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-pix_fmt", "yuv420p"]
        case .mpeg4: return ["-c:v", "mpeg4", "-q:v", "2", "-pix_fmt", "yuv420p"]
        case .ffv1: return ["-c:v", "ffv1", "-pix_fmt", "yuv420p"]
        }
    }

    /// The natural container: MP4 for the MPEG codecs, Matroska for FFV1 (MP4 cannot hold it).
    public var defaultContainer: VideoContainer {
        self == .ffv1 ? .mkv : .mp4
    }
}
