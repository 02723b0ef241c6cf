// Containers for Fixtures.video.

public enum VideoContainer: String, Sendable, CaseIterable {
    /// ISO MP4 (h264/mpeg4 video; AAC, MP3 or FLAC audio — not PCM).
    case mp4
    /// Matroska (any of our video and audio codecs, including PCM and FFV1).
    case mkv

    public var fileExtension: String { rawValue }
}
