// A video wall's synchronized start through two real daemons (each with its own private PulseAudio and an
// SDL offscreen output): both are given the same `player.play {at}`, prepare their item, report
// `startsAt` while they wait, and show their first pictures within 5 ms of the instant and of each other
// (their own `itemStarted.at`, taken when the picture was presented). A bad `at` is refused, and a pause
// before the instant calls the start off.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct SyncStartDaemonTests {
    @Test func twoDaemonsShowTheirFirstPicturesAtTheSameInstant() throws {
        let clip = try Fixtures.video(seconds: 4, fps: 25, hue: .green, withAudio: .aacMP4)
        let wall = try (0..<2).map { _ in try RunningDaemon() }
        defer { for daemon in wall { daemon.stop() } }
        var watchers: [QueueClient] = []
        var controls: [QueueClient] = []
        for daemon in wall {
            let control = try daemon.client()
            let watcher = try daemon.client()
            _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted]))
            _ = try control.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: clip)]))
            controls.append(control)
            watchers.append(watcher)
        }
        // Refused: not a number, or years ahead (milliseconds given for seconds).
        let far = Date().timeIntervalSince1970 * 1000
        for bad: JSONValue in ["soon", .double(far)] {
            #expect(throws: ClientError.self) { try controls[0].call("player.play", ["at": bad]) }
        }

        let at = (Date().timeIntervalSince1970 + 3).rounded(.down) + 0.25
        for control in controls {
            let status = try control.call(API.PlayerPlay.self, .init(at: at))
            #expect(status.state == "playing" && status.startsAt == at)
        }
        var shown: [Double] = []
        for (daemon, watcher) in zip(wall, watchers) {
            let started = try collectNotifications(watcher, timeout: 15) { notes in
                notes.contains { $0.method == "event.itemStarted" }
            }
            let instant = started.first { $0.method == "event.itemStarted" }?.params?["at"]?.doubleValue
            try #require(instant != nil, "\(daemon.log())")
            shown.append(instant!)
        }
        let offsets = shown.map { ($0 - at) * 1000 }
        print("synchronized start: first pictures at \(offsets.map { String(format: "%+.2f", $0) }) ms from at")
        #expect(offsets.allSatisfy { abs($0) <= 5 }, "\(offsets) ms")
        #expect(abs(shown[0] - shown[1]) * 1000 <= 5)
        for control in controls { #expect(try control.call(API.PlayerStatus.self).startsAt == nil) }

        // A pause before the instant calls it off: nothing starts at it, and the status says so.
        let later = Date().timeIntervalSince1970 + 1.5
        _ = try controls[0].call(API.PlayerPlay.self, .init(at: later))
        let paused = try controls[0].call(API.PlayerPause.self)
        #expect(paused.state == "paused" && paused.startsAt == nil)
        let none = try collectNotifications(watchers[0], timeout: 2.5) { notes in
            notes.contains { $0.method == "event.itemStarted" }
        }
        #expect(!none.contains { $0.method == "event.itemStarted" })
    }
}
