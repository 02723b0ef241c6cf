// The damaged-media repro cases through the daemon, with the files on its command line (a unit restarting
// a crashing daemon would be a crash loop and a dark screen): no crash, every item ends exactly once and
// in order, the damaged ones with `error` and no start, and the daemon finishes — timed and untimed.

import Foundation
import TestSupport
import Testing

@Suite struct DamagedMediaDaemonTests {
    /// "started item N" / "ended item N play P: reason" lines of the daemon's event log, in order.
    static func events(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "] started item ") ?? line.range(of: "] ended item ") else { return nil }
            let event = line[line.index(after: range.lowerBound)...].dropFirst()
            let words = event.split(separator: " ")
            guard words.count >= 3 else { return nil }
            if words[0] == "started" { return "start \(words[2])" }
            let reason =
                event.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").first ?? "" } ?? ""
            return "end \(words[2]) \(reason)"
        }
    }

    @Test(arguments: [false, true])
    func reproCasesEndInOrderAndTheDaemonFinishes(untimed: Bool) throws {
        let before = try Fixtures.video(seconds: 0.5, fps: 25, width: 160, height: 120, hue: .green, withAudio: .aacMP4)
        let after = try Fixtures.video(
            seconds: 0.5, fps: 25, width: 160, height: 120, hue: .blue, codec: .mpeg4,
            container: .mkv, withAudio: .flac)
        let still = try Fixtures.still(hue: .red, width: 160, height: 120, format: .png)
        let damagedStill = try Fixtures.damagedPNG()
        let noStreamInfo = try Fixtures.unreadableStreamInfoMKV()
        let items = [before, damagedStill, after, noStreamInfo, still, noStreamInfo, damagedStill, before]
        let result = try ChildProcess.run(
            BuiltProduct.path("queued"),
            [
                "--no-socket", "--no-state", "--audio", "null", "--video", "null", "--still-duration", "0.2", "--exit-when-done",
                "--log-level", "info",
            ] + (untimed ? ["--untimed"] : []) + items,
            timeout: 60)
        #expect(result.status == 0, "queued exited with \(result.status):\n\(result.stderr.suffix(2000))")
        #expect(
            Self.events(in: result.stderr) == [
                "start 1", "end 1 eof",
                "end 2 error",
                "start 3", "end 3 eof",
                "end 4 error",
                "start 5", "end 5 eof",
                "end 6 error",
                "end 7 error",
                "start 8", "end 8 eof",
            ])
        #expect(result.stderr.contains("the image could not be decoded"))
        #expect(result.stderr.contains("find stream info"))
    }
}
