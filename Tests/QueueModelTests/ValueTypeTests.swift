import Foundation
import Testing

@testable import QueueModel

@Suite struct ValueTypeTests {
    @Test func itemIDDescriptionAndOrder() {
        #expect(ItemID(42).description == "42")
        #expect(ItemID(1) < ItemID(2))
        #expect([ItemID(3), ItemID(1), ItemID(2)].sorted() == [ItemID(1), ItemID(2), ItemID(3)])
    }

    @Test func itemIDCodesAsPlainInt() throws {
        let data = try JSONEncoder().encode([ItemID(7), ItemID(8)])
        #expect(String(decoding: data, as: UTF8.self) == "[7,8]")
        #expect(try JSONDecoder().decode(ItemID.self, from: Data("12".utf8)) == ItemID(12))
    }

    @Test func mediaItemDefaults() {
        let item = MediaItem(uri: "/a.flac")
        #expect(item.loops == 1)
        #expect(item.start == nil && item.end == nil && item.duration == nil)
        #expect(item.title == nil && item.trackEnd == nil)
    }

    @Test func mediaItemDecodesWithoutLoopsAsOnce() throws {
        let item = try JSONDecoder().decode(MediaItem.self, from: Data(#"{"uri":"/a.flac","start":1.5}"#.utf8))
        #expect(item == MediaItem(uri: "/a.flac", loops: 1, start: 1.5))
    }

    @Test func mediaItemRoundTrips() throws {
        let item = MediaItem(
            uri: "/v.mkv", loops: 0, start: 1, end: 2.5, duration: 3, title: "T", trackEnd: .shortest)
        let decoded = try JSONDecoder().decode(MediaItem.self, from: JSONEncoder().encode(item))
        #expect(decoded == item)
    }

    @Test func endReasonWireNames() {
        #expect(EndReason.allCases.map(\.rawValue) == ["eof", "skipped", "removed", "stopped", "error"])
    }

    @Test func errorMessagesAreReadable() {
        #expect(QueueError.itemNotFound(ItemID(5)).description == "no item with id 5 in the queue")
        #expect(
            QueueError.indexOutOfRange(index: 9, count: 3).description
                == "index 9 is out of range for a queue of 3 items")
        #expect(
            QueueError.indexOutOfRange(index: 2, count: 1).description
                == "index 2 is out of range for a queue of 1 item")
        #expect(QueueError.invalidLoops(-2).description == "loops must be 0 (forever) or a positive count (got -2)")
        #expect(
            QueueError.invalidWindow("end (1.0) must be after start (2.0)").description
                == "end (1.0) must be after start (2.0)")
    }

    @Test(arguments: [
        (MediaItem(uri: "/a", loops: -1), QueueError.invalidLoops(-1)),
        (MediaItem(uri: "/a", start: -1), .invalidWindow("start must be a finite number of seconds >= 0 (got -1.0)")),
        (MediaItem(uri: "/a", start: .nan), .invalidWindow("start must be a finite number of seconds >= 0 (got nan)")),
        (MediaItem(uri: "/a", start: 2, end: 2), .invalidWindow("end (2.0) must be after start (2.0)")),
        (MediaItem(uri: "/a", start: 3, end: 1), .invalidWindow("end (1.0) must be after start (3.0)")),
        (MediaItem(uri: "/a", end: 0), .invalidWindow("end must be a finite number of seconds > 0 (got 0.0)")),
        (MediaItem(uri: "/a", end: .infinity), .invalidWindow("end must be a finite number of seconds > 0 (got inf)")),
        (
            MediaItem(uri: "/a", duration: 0),
            .invalidWindow("duration must be a finite number of seconds > 0 (got 0.0)")
        ),
        (
            MediaItem(uri: "/a", duration: -3),
            .invalidWindow("duration must be a finite number of seconds > 0 (got -3.0)")
        ),
    ])
    func invalidItemsAreRejected(item: MediaItem, expected: QueueError) {
        #expect(throws: expected) { try item.validate() }
    }

    @Test(arguments: [
        MediaItem(uri: "/a"),
        MediaItem(uri: "/a", loops: 0),
        MediaItem(uri: "/a", loops: 5, start: 0),
        MediaItem(uri: "/a", start: 0, end: 0.001),
        MediaItem(uri: "/a", end: 10),
        MediaItem(uri: "/a", start: 10),
        MediaItem(uri: "/a", duration: 0.5),
    ])
    func validItemsPass(item: MediaItem) throws {
        try item.validate()
    }

    @Test func cursorDescription() {
        #expect(Cursor(id: ItemID(3), play: 2, pass: 1).description == "item 3 play 2 pass 1")
    }
}
