// queue.replace through the socket: at the end of the play under way the new queue follows it without a gap
// (its itemStarted comes one item length after the old play's last loop started), the old items
// never play again, a stale `ifVersion` is refused with -32005, and the applied `rev` is in the status and
// survives kill -9. Every request, reply and event is validated against the OpenRPC document.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct ReplaceDaemonTests {
    @Test func aSwapAtItemEndFollowsThePlayUnderWayAndItsRevSurvivesKillNine() throws {
        let loop = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let old = try Fixtures.tone(frequency: 550, seconds: 0.5, format: .wav)
        let new = try Fixtures.tone(frequency: 660, seconds: 0.5, format: .wav)
        let state = try TemporaryDirectory()
        let transcript = Transcript()
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path], logLevel: "warning")
        let control = RecordingClient(try daemon.client(timeout: 30), transcript)
        let watcher = RecordingClient(try daemon.client(timeout: 30), transcript)
        try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        let ids = try control.call("queue.add", ["items": [["uri": .string(loop), "loops": 0], .string(old)]])["ids"]
        let loopID = try #require(ids?[0]?.intValue)
        try control.call("player.play")
        let before = try watcher.notifications(timeout: 20) { seen in
            seen.contains { $0.method == "event.itemStarted" && $0.params?["play"]?.intValue == 2 }
        }
        let version = try #require(try control.call("player.status")["queueVersion"]?.intValue)
        let replaced = try control.call(
            "queue.replace", ["items": [.string(new)], "at": "itemEnd", "ifVersion": .int(version), "rev": 3])
        let newID = try #require(replaced["ids"]?[0]?.intValue)
        #expect(replaced["version"]?.intValue ?? 0 > version)
        let stale = control.failure("queue.replace", ["items": [], "ifVersion": .int(version)])
        #expect(stale?.code == -32005 && stale?.data?["version"]?.intValue == replaced["version"]?.intValue)

        let seen = try before + watcher.notifications(timeout: 20) { seen in
            seen.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == newID }
        }
        let loopEnds = seen.filter { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == loopID }
        let lastLoop = try #require(loopEnds.last?.params)
        #expect(loopEnds.allSatisfy { $0.params?["reason"]?.stringValue == "eof" }, "the play under way ends whole")
        let started = seen.filter { $0.method == "event.itemStarted" }.compactMap(\.params)
        let newStart = try #require(started.first { $0["id"]?.intValue == newID })
        // The new item starts where the loop's last play ended: 0.5 s (its length) after that play's start, on
        // the wall clock of what was heard (the null output's clock; the presenter looks every 10 ms).
        let lastStart = try #require(
            started.first { $0["id"]?.intValue == loopID && $0["play"]?.intValue == lastLoop["play"]?.intValue })
        let gap = (newStart["at"]?.doubleValue ?? 0) - (lastStart["at"]?.doubleValue ?? 0)
        #expect(abs(gap - 0.5) < 0.03, "\(newStart) after \(lastStart)")
        #expect(!started.contains { $0["id"]?.intValue == (ids?[1]?.intValue ?? -1) }, "the old queue never plays again")
        let status = try control.call("player.status")
        #expect(status["appliedRev"]?.intValue == 3)
        let listed = try control.call("queue.list")["items"]?.arrayValue?.compactMap { $0["id"]?.intValue }
        #expect(listed == [newID], "the kept item left the queue when its play ended")

        kill(daemon.process.pid, SIGKILL)
        _ = daemon.stop()
        let again = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path], logLevel: "warning")
        defer { again.stop() }
        let restored = RecordingClient(try again.client(timeout: 30), transcript)
        #expect(try restored.call("player.status")["appliedRev"]?.intValue == 3, "the applied rev is kept")

        let directory = try TemporaryDirectory()
        let validation = try validateTranscript(transcript, in: directory.path)
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 8)
    }
}
