// A stalled PulseAudio server (SIGSTOP, as a hung device or a swapped-out audio daemon looks to a client)
// must not stall the control socket: commands change state and return, they never wait for the server
// under the engine lock. After SIGCONT playback goes on.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct StalledAudioServerTests {
    @Test func commandsAnswerWithinFiftyMillisecondsWhileTheAudioServerIsStopped() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let pulse = try #require(daemon.pulse)
        let control = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        let tone = try Fixtures.tone(frequency: 440, seconds: 3, format: .wav)
        let clip = try Fixtures.video(seconds: 3, fps: 25, hue: .green, withAudio: .aacMP4)
        let added = try control.call("queue.add", ["items": .array((0..<6).map { .string($0 % 2 == 0 ? tone : clip) })])
        let ids = added["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
        try #require(ids.count == 6)
        _ = try control.call("player.play")
        let first = try collectNotifications(watcher, timeout: 20) { seen in
            seen.contains { $0.method == "event.itemStarted" }
        }
        try #require(first.contains { $0.method == "event.itemStarted" }, "playback did not start")

        #expect(pulse.send(signal: SIGSTOP))
        var resumed = false
        defer { if !resumed { pulse.send(signal: SIGCONT) } }
        var slowest: [String: Double] = [:]
        func timed(_ method: String, _ params: JSONValue? = nil) throws {
            let start = MonotonicClock.seconds()
            _ = try control.call(method, params)
            slowest[method] = max(slowest[method] ?? 0, MonotonicClock.seconds() - start)
        }
        // Five seconds of commands (bounded in count too), every one of them acting on playback.
        let until = MonotonicClock.seconds() + 5
        var rounds = 0
        while MonotonicClock.seconds() < until && rounds < 200 {
            try timed("player.status")
            try timed("queue.list", [0, 10])
            try timed("player.next")
            try timed("player.pause")
            try timed("player.play")
            try timed("player.seek", ["position": 0.5])
            rounds += 1
        }
        pulse.send(signal: SIGCONT)
        resumed = true
        print(
            "stalled PulseAudio: \(rounds) rounds in 5 s; slowest replies (ms): "
                + slowest.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.1f", $0.value * 1000))" }
                .joined(separator: ", "))
        for (method, seconds) in slowest {
            #expect(seconds < 0.05, "\(method) took \(Int(seconds * 1000)) ms while PulseAudio was stopped")
        }

        // Playback goes on: a play that starts after SIGCONT is heard to its end.
        _ = try control.call("player.play", ["id": .int(ids[0])])
        let after = try collectNotifications(watcher, timeout: 30) { seen in
            seen.contains {
                $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == ids[0]
                    && $0.params?["reason"]?.stringValue == "eof"
            }
        }
        #expect(after.contains { $0.method == "event.itemStarted" && $0.params?["id"]?.intValue == ids[0] })
        #expect(
            after.contains {
                $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == ids[0]
                    && $0.params?["reason"]?.stringValue == "eof"
            },
            "the item played after SIGCONT did not play to its end")
    }
}
