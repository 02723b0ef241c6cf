// The daemon's log as journald and an operator read it: with $JOURNAL_STREAM naming its stderr, lines carry
// a syslog priority (`<4>` for a warning) and no time; `--log-level info,ffmpeg=critical` silences FFmpeg's
// lines while queued's own stay; `--log-file` appends to a file.

import Foundation
import Glibc
import TestSupport
import Testing

@Suite struct LogOutputTests {
    /// Runs queued until its log contains `until`, then stops it; returns the log.
    private func run(
        _ arguments: [String], log: String, journal: Bool, until marker: String, logFile: String? = nil
    ) throws -> String {
        FileManager.default.createFile(atPath: log, contents: nil)
        var environment = ["QUEUED_SOCKET": ""]
        if journal {
            var info = stat()
            try #require(stat(log, &info) == 0)
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        let process = try ChildProcess(
            BuiltProduct.path("queued"), ["--no-socket", "--no-state", "--no-config", "--video", "none"] + arguments,
            environment: environment, stdoutPath: log + ".out", stderrPath: log)
        defer {
            process.terminate(signal: SIGTERM)
            _ = process.wait()
        }
        let watched = logFile ?? log
        let seen = waitUntil(timeout: 20) {
            ((try? String(contentsOfFile: watched, encoding: .utf8)) ?? "").contains(marker)
        }
        let text = (try? String(contentsOfFile: watched, encoding: .utf8)) ?? ""
        #expect(seen, "no '\(marker)' in:\n\(text)")
        return text
    }

    @Test func underJournaldLinesCarryTheirPriorityAndNoTime() throws {
        let root = try TemporaryDirectory(prefix: "queued-log")
        // No PulseAudio at that address: a warning, then the daemon plays on without sound.
        let text = try run(
            ["--audio", "auto", "--pulse-server", "unix:\(root.path)/no-pulse"], log: root.path + "/journal.log",
            journal: true, until: "started:")
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<4>queued: no usable PulseAudio server") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("<6>queued: queued ") && $0.contains(" started:") }, "\(text)")
        #expect(lines.allSatisfy { $0.hasPrefix("<") }, "every line has a priority: \(text)")
        // Not the journal (a stream of another inode): today's format, with the time first.
        let plain = try run(
            ["--audio", "null"], log: root.path + "/plain.log", journal: false, until: "started:")
        #expect(plain.split(separator: "\n").allSatisfy { $0.first?.isNumber == true }, "\(plain)")
    }

    @Test func perLabelLevelsSilenceFFmpegAndKeepQueued() throws {
        let root = try TemporaryDirectory(prefix: "queued-log")
        // An MP4 cut before its index: FFmpeg says "moov atom not found".
        let clip = try Fixtures.make(
            "log-moov-end.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=2", "-c:v", "libx264", "-preset",
                "ultrafast",
            ])
        let data = try Data(contentsOf: URL(fileURLWithPath: clip))
        let cut = root.path + "/cut.mp4"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))

        let chatty = try run(
            ["--audio", "null", "--log-level", "info", cut], log: root.path + "/all.log", journal: false,
            until: "ended item 1")
        #expect(chatty.contains("queued.ffmpeg:"), "FFmpeg's line is there by default: \(chatty)")
        let quiet = try run(
            ["--audio", "null", "--log-level", "info,ffmpeg=critical", cut], log: root.path + "/quiet.log",
            journal: false, until: "ended item 1")
        #expect(!quiet.contains("queued.ffmpeg:"), "\(quiet)")
        #expect(quiet.contains("queued.events:") && quiet.contains(" started: audio"), "queued's own lines stay")
        // To a file instead of stderr.
        let file = root.path + "/queued.log"
        let filed = try run(
            ["--audio", "null", "--log-file", file], log: root.path + "/stderr.log", journal: true,
            until: "started:", logFile: file)
        #expect(filed.contains(" started: audio") && !filed.hasPrefix("<"), "\(filed)")
    }
}
