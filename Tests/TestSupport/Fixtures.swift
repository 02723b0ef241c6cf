// Real media made with the ffmpeg CLI, cached for all tests of a run (and later runs).
//
// Files live in /tmp/queued-fixtures-<uid>/ (or $QUEUED_FIXTURE_DIR) under content-addressed
// names: a hash of the ffmpeg arguments and output name, so the same request reuses the file and
// a changed recipe makes a new one. ffmpeg writes to a unique temporary name and the result is
// rename(2)d into place, so parallel tests (or processes) never see a half-written file; two
// tests racing for the same fixture both generate it and the second rename wins harmlessly.

import Foundation
import Glibc

public enum Fixtures {
    /// Bump to invalidate every cached fixture after changing a recipe's meaning.
    static let recipeVersion = "1"

    /// The shared cache directory (created on first use).
    public static var directory: String {
        let path = ProcessInfo.processInfo.environment["QUEUED_FIXTURE_DIR"] ?? "/tmp/queued-fixtures-\(getuid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `ffmpeg -nostdin -y -loglevel error <ffmpegArgs> -fflags +bitexact <output>` unless
    /// the file exists already, and returns its path. `name` ("tone440.flac") gives a readable
    /// stem and the extension, which picks the muxer; `ffmpegArgs` exclude the output path.
    public static func make(_ name: String, _ ffmpegArgs: [String]) throws -> String {
        let key = ([recipeVersion, name] + ffmpegArgs).joined(separator: "\u{0}")
        let (stem, ext) = split(name)
        let path = "\(directory)/\(stem)-\(stableHash(key)).\(ext)"
        if FileManager.default.fileExists(atPath: path) { return path }
        try atomicallyCreate(path) { temporary in
            try ChildProcess.check(
                "ffmpeg",
                ["-nostdin", "-y", "-hide_banner", "-loglevel", "error"]
                    + ffmpegArgs + ["-fflags", "+bitexact", temporary], timeout: 300)
        }
        return path
    }

    /// A sine tone, written with an exact amplitude: aevalsrc `A*sin(2*PI*F*t)` on every channel.
    /// Lossless formats decode to exactly the generated samples (0.5 → ±16384 peak in s16).
    public static func tone(
        frequency: Double, seconds: Double, format: AudioFixtureFormat = .flac,
        rate: Int = 48000, channels: Int = 2, amplitude: Double = 0.5
    ) throws -> String {
        let name = "tone\(number(frequency))Hz-\(number(seconds))s-\(rate)-\(channels)ch-a\(number(amplitude))"
        return try make(
            "\(name).\(format.fileExtension)",
            [
                "-f", "lavfi", "-i",
                toneSource(
                    frequency: frequency, seconds: seconds, rate: rate,
                    channels: channels, amplitude: amplitude),
            ]
                + ["-ar", "\(rate)", "-ac", "\(channels)"] + format.codecArguments
                + ["-flags:a", "+bitexact"] + (format == .aacMP4 ? fastStart : []))
    }

    /// MP4 fixtures put the index (moov) first, as streamed/web files do, so a truncated copy
    /// still opens and fails mid-stream; with moov at the end truncation loses the whole index.
    static let fastStart = ["-movflags", "+faststart"]

    /// The lavfi aevalsrc source for a tone (also used for video soundtracks).
    static func toneSource(
        frequency: Double, seconds: Double, rate: Int, channels: Int,
        amplitude: Double
    ) -> String {
        let expression = "\(amplitude)*sin(2*PI*\(frequency)*t)"
        let perChannel = Array(repeating: expression, count: channels).joined(separator: "|")
        return "aevalsrc=exprs=\(perChannel):s=\(rate):d=\(seconds)"
    }

    /// Decodes the first audio stream with the ffmpeg CLI to interleaved s16 at `rate`/`channels`:
    /// the independent reference for what our decoder should produce.
    /// With `trimToDeclaredDuration`, the samples are cut to round(duration × rate) frames, where
    /// duration is the audio stream's declared duration (ffprobe). For AAC in MP4 that is the
    /// gapless reference: FFmpeg's edit-list handling drops the encoder priming, and the trim drops
    /// the encoder padding at the end. (MP3 is trimmed by FFmpeg itself via the LAME header.)
    public static func decodePCM(
        _ path: String, rate: Int = 48000, channels: Int = 2,
        trimToDeclaredDuration: Bool = false
    ) throws -> [Int16] {
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-i", path, "-map", "0:a:0",
            "-f", "s16le", "-c:a", "pcm_s16le", "-ac", "\(channels)", "-ar", "\(rate)", "pipe:1",
        ]
        let result = try ChildProcess.runCapturingData("ffmpeg", arguments, timeout: 300)
        guard result.status == 0 else {
            throw TestSupportError.commandFailed(
                command: "ffmpeg " + arguments.joined(separator: " "),
                status: result.status,
                stderr: String(decoding: result.stderr, as: UTF8.self))
        }
        var samples = RawPCM.samples(from: result.stdout, channels: channels)
        if trimToDeclaredDuration {
            guard let duration = try ProbedStream.probe(path).first(where: { $0.codecType == "audio" })?.duration
            else { throw TestSupportError.io("no declared audio stream duration in \(path)") }
            let frames = Int((duration * Double(rate)).rounded())
            if samples.count > frames * channels { samples.removeLast(samples.count - frames * channels) }
        }
        return samples
    }

    // MARK: - Helpers shared by the fixture files

    /// Creates `path` by letting `body` write a unique temporary sibling (same extension, so
    /// ffmpeg picks the same muxer), then renaming it into place. The temporary is removed on error.
    static func atomicallyCreate(_ path: String, _ body: (_ temporary: String) throws -> Void) throws {
        let (stem, ext) = split((path as NSString).lastPathComponent)
        let temporary = "\(directory)/.tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(stem).\(ext)"
        do {
            try body(temporary)
            guard rename(temporary, path) == 0 else {
                throw TestSupportError.io("rename \(temporary) → \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `data` to `path` atomically (for fixtures made without ffmpeg).
    static func atomicallyWrite(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        try atomicallyCreate(path) { temporary in
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw TestSupportError.io("cannot write \(temporary)")
            }
            chmod(temporary, mode)
        }
    }

    /// "name.ext" → ("name", "ext").
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "bin") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// A number for file names: "440", "1.5".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// 64-bit FNV-1a as 16 hex digits: stable across runs and processes (unlike Hasher).
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
