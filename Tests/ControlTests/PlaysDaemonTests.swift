// The proof-of-play log through the socket: one `event.played` per play, after its `itemEnded`, with a
// record that names what played and for how long; `plays.list` keeps the records across kill -9 until
// `plays.ack`, and a seq is never reused after a restart. Validated against the OpenRPC document.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct PlaysDaemonTests {
    @Test func everyPlayIsRecordedKeptAcrossKillNineUntilAcknowledged() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .wav)
        let b = try Fixtures.tone(frequency: 550, seconds: 0.3, format: .wav)
        let state = try TemporaryDirectory()
        let transcript = Transcript()
        // On the null output's clock, so a play lasts as long as its sound.
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path], logLevel: "warning")
        let control = RecordingClient(try daemon.client(timeout: 30), transcript)
        let watcher = RecordingClient(try daemon.client(timeout: 30), transcript)
        try watcher.call("events.subscribe", ["events": ["itemEnded", "played"]])
        try control.call("queue.add", ["items": [["uri": .string(a), "title": "A"], .string(b)]])
        try control.call("player.play")
        let seen = try watcher.notifications(timeout: 30) { seen in
            seen.filter { $0.method == "event.played" }.count == 2
        }
        let order = seen.map { "\($0.method == "event.played" ? "played" : "ended") \($0.params?["id"]?.intValue ?? 0)" }
        #expect(order == ["ended 1", "played 1", "ended 2", "played 2"], "\(order)")
        let first = try #require(seen.first { $0.method == "event.played" }?.params)
        #expect(first["seq"]?.intValue == 1 && first["uri"]?.stringValue == a && first["title"]?.stringValue == "A")
        #expect(first["reason"]?.stringValue == "eof" && first["interrupt"]?.boolValue == false)
        #expect(abs((first["seconds"]?.doubleValue ?? 0) - 0.3) < 0.1, "\(first)")

        kill(daemon.process.pid, SIGKILL)
        _ = daemon.stop()
        var again = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path], logLevel: "warning")
        var client = RecordingClient(try again.client(timeout: 30), transcript)
        let kept = try client.call("plays.list")
        #expect(kept["records"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == [1, 2])
        #expect(kept["nextSeq"]?.intValue == 3)
        #expect(try client.call("plays.ack", ["through": 1])["ackedThrough"]?.intValue == 1)
        again.stop()

        again = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path], logLevel: "warning")
        defer { again.stop() }
        client = RecordingClient(try again.client(timeout: 30), transcript)
        let left = try client.call("plays.list", ["after": 0, "limit": 10])
        #expect(left["records"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == [2])
        #expect(left["ackedThrough"]?.intValue == 1 && left["nextSeq"]?.intValue == 3)
        #expect(client.failure("plays.ack", ["through": -1])?.code == -32602)

        let directory = try TemporaryDirectory()
        let validation = try validateTranscript(transcript, in: directory.path)
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 8)
    }
}
