// The audio server dies mid-play and comes back (PulseAudio killed with SIGKILL, then a new server on the
// same socket): playback goes on on the system clock meanwhile (positions keep moving), the daemon
// reconnects by itself, the new server's null sink hears the queue continue, and the events and
// daemon.health say what happened. No crash, no stuck state.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct AudioServerRestartTests {
    @Test func playbackOutlivesAPulseAudioRestart() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let pulse = try #require(daemon.pulse)
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded, .output]))
        let tone = try Fixtures.tone(frequency: 440, seconds: 30, format: .wav)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        let started = try collectNotifications(watcher, timeout: 20) {
            $0.contains { $0.method == "event.itemStarted" }
        }
        try #require(started.contains { $0.method == "event.itemStarted" }, "playback did not start: \(daemon.log())")

        pulse.kill()
        let lost = try collectNotifications(watcher, timeout: 10) { notes in
            notes.contains { $0.method == "event.output" && $0.params?["state"]?.stringValue == "lost" }
        }
        #expect(
            lost.contains { $0.method == "event.output" && $0.params?["output"]?.stringValue == "audio" }, "\(lost)")
        // Without a server the timeline runs on the system clock: the position keeps moving.
        let before = try client.call(API.PlayerStatus.self).position
        let moving = try waitUntil(timeout: 5, pollInterval: 0.05) {
            (try? client.call(API.PlayerStatus.self).position).map { $0 > before + 0.5 } ?? false
        }
        #expect(moving, "the position stood still at \(before) while the audio server was gone")

        try pulse.restart()
        let back = MonotonicClock.seconds()
        let recorder = try SinkRecorder(server: pulse.server)
        let restored = try collectNotifications(watcher, timeout: 10) { notes in
            notes.contains { $0.method == "event.output" && $0.params?["state"]?.stringValue == "restored" }
        }
        let reconnectedAfter = MonotonicClock.seconds() - back
        #expect(restored.contains { $0.method == "event.output" && $0.params?["state"]?.stringValue == "restored" })
        // The new server's null sink hears the queue continue: the tone, loud, not silence.
        let heard = try waitUntil(timeout: 5, pollInterval: 0.05) {
            let samples = recorder.snapshot()
            return samples.suffix(4800).contains { abs(Int($0)) > 8000 }
        }
        let heardAfter = MonotonicClock.seconds() - back
        _ = recorder.stop()
        print(
            "PulseAudio restart: reconnected \(String(format: "%.2f", reconnectedAfter)) s and heard again \(String(format: "%.2f", heardAfter)) s after the new server answered"
        )
        #expect(heard, "the new server heard no sound from queued")
        #expect(reconnectedAfter <= 2, "reconnected \(reconnectedAfter) s after the server came back")
        let health = try client.call(API.DaemonHealth.self)
        #expect(health.audioReconnects == 1, "\(health)")
        let status = try client.call(API.PlayerStatus.self)
        #expect(status.state == "playing" && status.currentId != nil, "\(status)")
        #expect(try pulse.sinkInputCount() == 1, "one playback stream on the new server")
        #expect(daemon.stop() == 0, "the daemon exits cleanly: \(daemon.log())")
    }
}
