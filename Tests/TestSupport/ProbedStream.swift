// What ffprobe reports about one stream of a file: lets tests check fixtures and compare our
// decoder's view (durations, frame counts, codec) with FFmpeg's own tools.

import Foundation

public struct ProbedStream: Sendable, Equatable {
    public let index: Int
    /// "audio", "video", "subtitle", "data".
    public let codecType: String
    /// e.g. "h264", "aac", "flac"; "none" when FFmpeg knows no codec for the stream.
    public let codecName: String
    /// Declared stream duration in seconds (nil when the container does not declare one,
    /// e.g. Matroska, which only has the format duration).
    public let duration: Double?
    /// Declared frame/packet count (nil when not declared).
    public let frameCount: Int?
    public let sampleRate: Int?
    public let channels: Int?
    public let width: Int?
    public let height: Int?

    /// Runs `ffprobe -show_streams -of json` on `path`.
    public static func probe(_ path: String) throws -> [ProbedStream] {
        let output = try ChildProcess.check(
            "ffprobe", ["-v", "error", "-show_streams", "-of", "json", path], timeout: 60)
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let streams = json["streams"] as? [[String: Any]]
        else {
            throw TestSupportError.io("unexpected ffprobe output for \(path): \(output)")
        }
        return streams.map { stream in
            func int(_ key: String) -> Int? {
                (stream[key] as? Int) ?? (stream[key] as? String).flatMap { Int($0) }
            }
            return ProbedStream(
                index: int("index") ?? -1,
                codecType: stream["codec_type"] as? String ?? "unknown",
                codecName: stream["codec_name"] as? String ?? "none",
                duration: (stream["duration"] as? String).flatMap { Double($0) },
                frameCount: int("nb_frames"),
                sampleRate: int("sample_rate"),
                channels: int("channels"),
                width: int("width"),
                height: int("height"))
        }
    }

    /// The container's overall duration (ffprobe format=duration), in seconds.
    public static func formatDuration(_ path: String) throws -> Double? {
        let output = try ChildProcess.check(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", path],
            timeout: 60)
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
