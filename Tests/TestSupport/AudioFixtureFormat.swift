// The audio encodings Fixtures can produce, with the ffmpeg codec options and file extension.

public enum AudioFixtureFormat: String, Sendable, CaseIterable {
    /// PCM s16le in WAV: bit-exact reference material.
    case wav
    /// FLAC, 16-bit: lossless, so decoded samples equal the generated ones.
    case flac
    /// AAC-LC in MP4 (ffmpeg's native encoder, 128 kb/s): has encoder priming and padding, which
    /// FFmpeg trims via the MP4 edit list — the gapless case.
    case aacMP4
    /// MP3 via libmp3lame, 128 kb/s (LAME/Xing header carries the gapless info).
    case mp3

    /// File extension for a standalone audio file.
    public var fileExtension: String {
        switch self {
        case .wav: return "wav"
        case .flac: return "flac"
        case .aacMP4: return "mp4"
        case .mp3: return "mp3"
        }
    }

    /// ffmpeg output options selecting the codec.
    public var codecArguments: [String] {
        switch self {
        case .wav: return ["-c:a", "pcm_s16le"]
        case .flac: return ["-c:a", "flac", "-sample_fmt", "s16"]
        case .aacMP4: return ["-c:a", "aac", "-b:a", "128k"]
        case .mp3: return ["-c:a", "libmp3lame", "-b:a", "128k"]
        }
    }

    /// Whether decoding returns exactly the generated samples.
    public var isLossless: Bool { self == .wav || self == .flac }
}
