// Inputs that must fail cleanly (an error for that item, playback moves on, no crash or hang).
// Each is a distinct failure point: open, probe, find a decodable stream, or read mid-file.

import Foundation
import Glibc

extension Fixtures {
    /// The first `keepBytes` bytes of `path`, same extension: a file cut off mid-stream (or, with
    /// few bytes, mid-header). Rewritten atomically on every call; cheap.
    /// MP4 fixtures are "faststart" (index first), so a cut copy opens and then ends early; an
    /// MP4 with its index at the end would instead fail to open ("moov atom not found").
    public static func truncated(of path: String, keepBytes: Int) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestSupportError.io("cannot read \(path)")
        }
        let (stem, ext) = split((path as NSString).lastPathComponent)
        let output = "\(directory)/truncated-\(stem)-\(keepBytes).\(ext)"
        try atomicallyWrite(data.prefix(keepBytes), to: output)
        return output
    }

    /// `bytes` of pseudo-random data named .mp4 (fixed seed, so the same bytes every run). 0xFF
    /// bytes are avoided so no MPEG audio sync word can make a prober guess "mp3".
    public static func garbage(bytes: Int = 64 * 1024) throws -> String {
        let path = "\(directory)/garbage-\(bytes).mp4"
        if FileManager.default.fileExists(atPath: path) { return path }
        var random = SeededGenerator(seed: 0x5EED_0F_0DDBA11)
        var data = Data(capacity: bytes)
        for _ in 0..<bytes {
            data.append(UInt8(truncatingIfNeeded: random.next() % 255))
        }
        try atomicallyWrite(data, to: path)
        return path
    }

    /// A 0-byte .mp4.
    public static func empty() throws -> String {
        let path = "\(directory)/empty.mp4"
        if !FileManager.default.fileExists(atPath: path) { try atomicallyWrite(Data(), to: path) }
        return path
    }

    /// A valid 1 s WAV tone with mode 000. NOTE: root ignores file modes, and the tests run as
    /// root here, so this file is perfectly readable to them; check `permissionsAreEnforced`
    /// before expecting a failure, and use `directoryPath()` / `missing()` for an open error
    /// that root also gets.
    public static func unreadable() throws -> String {
        let path = "\(directory)/unreadable.wav"
        if FileManager.default.fileExists(atPath: path) { return path }
        let source = try tone(frequency: 440, seconds: 1, format: .wav)
        guard let data = FileManager.default.contents(atPath: source) else {
            throw TestSupportError.io("cannot read \(source)")
        }
        try atomicallyWrite(data, to: path, mode: 0)
        return path
    }

    /// Whether a mode-000 file really cannot be opened by this process (false for root).
    public static var permissionsAreEnforced: Bool {
        guard let path = try? unreadable() else { return false }
        let fd = open(path, O_RDONLY)
        if fd >= 0 { close(fd) }
        return fd < 0
    }

    /// A directory named like a media file ("directory.mp4"): open() succeeds, read() fails
    /// with EISDIR — an I/O error even for root.
    public static func directoryPath() throws -> String {
        let path = "\(directory)/directory.mp4"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A path that does not exist (ENOENT).
    public static func missing() -> String {
        "\(directory)/missing-does-not-exist.mp4"
    }

    /// A well-formed WAV whose only stream uses a codec FFmpeg does not know (format tag 0x4242):
    /// the container opens and probes, the stream is "audio", but codec_id is NONE, so there is
    /// no decoder (`ffmpeg` says "Unsupported codec with id 0"). 1 s of 48 kHz stereo 16-bit data.
    public static func unsupported() throws -> String {
        let path = "\(directory)/unsupported-codec.wav"
        if FileManager.default.fileExists(atPath: path) { return path }
        let rate: UInt32 = 48000, channels: UInt16 = 2, bits: UInt16 = 16
        let payload = Data(repeating: 0x11, count: Int(rate) * Int(channels) * Int(bits / 8))
        var header = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) }
        }
        header.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + payload.count))
        header.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(0x4242))  // wFormatTag: unassigned, no FFmpeg codec
        append(channels)
        append(rate)
        append(rate * UInt32(channels) * UInt32(bits / 8))
        append(channels * bits / 8)
        append(bits)
        header.append(contentsOf: Array("data".utf8))
        append(UInt32(payload.count))
        try atomicallyWrite(header + payload, to: path)
        return path
    }

    /// A valid Matroska file whose only stream is a subtitle (SRT): it opens and probes fine but
    /// has no audio or video stream to play.
    public static func noMediaStreams() throws -> String {
        let subtitles = "\(directory)/subtitle-source.srt"
        if !FileManager.default.fileExists(atPath: subtitles) {
            try atomicallyWrite(
                Data("1\n00:00:00,000 --> 00:00:01,000\nno audio, no video\n\n".utf8),
                to: subtitles)
        }
        return try make("subtitle-only.mkv", ["-i", subtitles, "-map", "0:s", "-c:s", "srt"])
    }
}
