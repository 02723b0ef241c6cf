// Image formats for Fixtures.still.

public enum StillImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg

    public var fileExtension: String { self == .png ? "png" : "jpg" }

    /// ffmpeg output options (PNG is lossless RGB; JPEG at high quality).
    public var codecArguments: [String] {
        self == .png ? ["-c:v", "png"] : ["-c:v", "mjpeg", "-q:v", "2"]
    }
}
