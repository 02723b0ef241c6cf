// The size a picture is seen at, through the socket: `event.itemStarted` and `queue.list` report width and
// height after the file's own turn and its pixels' aspect (a phone's portrait clip, a photo with EXIF
// orientation 6, an anamorphic PAL clip), so a fleet or a page can draw a thumbnail the right way up;
// sound-only items report none.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite struct PictureSizeDaemonTests {
    @Test func startedPlaysAndTheQueueReportThePictureAsSeen() throws {
        let portrait = try Fixtures.turnedClip(clockwise: 90)
        let photo = try Fixtures.orientedJPEG(exif: 6)
        let anamorphic = try Fixtures.anamorphicClip(sar: (64, 45))
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .flac)
        let daemon = try RunningDaemon(outputs: .null(untimed: true), ["--still-duration", "0.2"], logLevel: "warning")
        defer { daemon.stop() }
        let control = try daemon.client(timeout: 30)
        let watcher = try daemon.client(timeout: 30)
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        _ = try control.call("queue.add", ["items": [.string(portrait), .string(photo), .string(anamorphic), .string(tone)]])
        _ = try control.call("player.play")
        var started: [Int64: JSONValue] = [:]
        var ended = 0
        while ended < 4, let note = try watcher.nextNotification(timeout: 30) {
            if note.method == "event.itemStarted", let params = note.params, let id = params["id"]?.intValue {
                started[id] = params
            }
            if note.method == "event.itemEnded" { ended += 1 }
        }
        #expect(ended == 4)
        func size(_ json: JSONValue?) -> [Int64?] { [json?["width"]?.intValue, json?["height"]?.intValue] }
        #expect(size(started[1]) == [180, 320], "portrait clip: \(String(describing: started[1]))")
        #expect(size(started[2]) == [180, 320], "EXIF 6 photo: \(String(describing: started[2]))")
        #expect(size(started[3]) == [1024, 576], "PAL 16:9: \(String(describing: started[3]))")
        #expect(started[4]?["width"] == nil && started[4] != nil, "sound only: \(String(describing: started[4]))")

        let items = try control.call("queue.list")["items"]?.arrayValue ?? []
        #expect(items.map { size($0) } == [[180, 320], [180, 320], [1024, 576], [nil, nil]])
        #expect(items.allSatisfy { $0["width"] != nil }, "every item has the key (null for sound)")
    }
}
