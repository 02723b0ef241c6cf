// Replies tell the truth: the Status returned by a command names the play the command produced — the
// item it starts (before its first picture or sample), the seek target while the seek is in flight —
// and what follows (event.itemStarted, player.status) agrees with it. Against the real daemon.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct ReplyTruthTests {
    /// The next itemStarted's id (skipping other notifications), within `timeout` seconds.
    func nextStart(_ watcher: QueueClient, timeout: Double = 20) throws -> Int64? {
        let seen = try collectNotifications(watcher, timeout: timeout) {
            $0.contains { $0.method == "event.itemStarted" }
        }
        return seen.last { $0.method == "event.itemStarted" }?.params?["id"]?.intValue
    }

    @Test func transportRepliesNameWhatTheCommandProduced() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let control = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted"]])
        let clip = try Fixtures.video(seconds: 4, fps: 25, hue: .green, withAudio: .aacMP4)
        let tone = try Fixtures.tone(frequency: 440, seconds: 4, format: .wav)
        let still = try Fixtures.still(hue: .blue, format: .png)
        let added = try control.call(
            "queue.add",
            [
                "items": [
                    ["uri": .string(clip), "title": "clip"], ["uri": .string(tone), "title": "tone", "loops": 2],
                    ["uri": .string(still), "title": "still", "duration": 4],
                    ["uri": .string(clip), "title": "clip again"],
                ]
            ])
        let ids = added["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
        try #require(ids.count == 4)
        _ = try control.call("player.play")
        #expect(try nextStart(watcher) == ids[0])

        func check(_ reply: JSONValue, id: Int64, title: String, position: Double = 0, _ what: String) throws {
            #expect(
                reply["currentId"]?.intValue == id, "\(what): reply names \(String(describing: reply["currentId"]))")
            #expect(reply["title"]?.stringValue == title, "\(what)")
            #expect(
                abs((reply["position"]?.doubleValue ?? -1) - position) < 0.05,
                "\(what): position \(String(describing: reply["position"]))")
            #expect(reply["state"]?.stringValue == "playing", "\(what)")
            let status = try control.call("player.status")
            #expect(status["currentId"]?.intValue == id, "\(what): player.status right after")
            #expect(status["title"]?.stringValue == title, "\(what): player.status right after")
        }

        let jumped = try control.call("player.play", ["id": .int(ids[2])])
        try check(jumped, id: ids[2], title: "still", "play {id}")
        #expect(try nextStart(watcher) == ids[2], "play {id}: the next start")

        let next = try control.call("player.next")
        try check(next, id: ids[3], title: "clip again", "next")
        #expect(try nextStart(watcher) == ids[3], "next: the next start")

        let previous = try control.call("player.previous")
        try check(previous, id: ids[2], title: "still", "previous")
        #expect(try nextStart(watcher) == ids[2], "previous: the next start")

        _ = try control.call("player.play", ["id": .int(ids[1])])
        #expect(try nextStart(watcher) == ids[1])
        let sought = try control.call("player.seek", ["position": 2.5])
        try check(sought, id: ids[1], title: "tone", position: 2.5, "seek")
        #expect(sought["loops"]?.intValue == 2)
        #expect(sought["uri"]?.stringValue == tone)
        let later = try control.call("player.status")
        #expect((later["position"]?.doubleValue ?? 0) >= 2.45, "a seek's target holds until the clock moves on from it")

        // Removing the item being played: the one that took its place is current at once.
        _ = try control.call("queue.remove", ["ids": [.int(ids[1])]])
        let afterRemove = try control.call("player.status")
        #expect(afterRemove["currentId"]?.intValue == ids[2], "player.status after queue.remove of the current item")
        #expect(try nextStart(watcher) == ids[2], "queue.remove: the next start")

        let got = try control.call("queue.get", ["ids": [.int(ids[3]), 999, .int(ids[0])]])
        #expect(got["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [ids[3], ids[0]])
        #expect(got["items"]?.arrayValue?.first?["title"]?.stringValue == "clip again")
    }
}
