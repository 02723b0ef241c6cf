// The fast decoder of big state lines (StateDecoding) against JSONDecoder: for every entry and item-list
// record the writer produces, the fast way either declines (the line then goes to JSONDecoder) or gives
// exactly what JSONDecoder gives; it declines only what it does not know (a schedule) and lines it could
// misread (a member of the wrong kind, an unknown member).

import Foundation
import QueueModel
import Testing

@testable import StateStore

@Suite struct StateDecodingTests {
    static let items: [MediaItem] = [
        MediaItem(uri: "/a.flac"),
        MediaItem(uri: "/media/ünïcode \"quoted\"\n\\ tab\t.mp4", loops: 0, start: 1.5, end: 9.25, duration: 0.1,
            title: "A \u{1} title", trackEnd: .shortest, sha256: String(repeating: "0f", count: 32)),
        MediaItem(uri: "https://127.0.0.1/v1/clip.mp4", loops: 7, title: ""),
        MediaItem(uri: "/still.jpg", duration: 3, schedule: ItemSchedule(days: [.mon, .fri])),
    ]

    static let entries: [QueueEntry] = {
        var list: [QueueEntry] = []
        for (index, item) in items.enumerated() {
            var entry = QueueEntry(id: ItemID(index + 1), item: item, playsDone: index, knownDuration: index == 1 ? 12.5 : nil)
            entry.state = [ItemState.queued, .playing, .played, .failed(message: "no \"decoder\"")][index % 4]
            if index == 2 { entry.knownSize = PictureSize(width: 1080, height: 1920) }
            list.append(entry)
        }
        return list
    }()

    @Test func entriesReadTheSameBothWays() throws {
        for entry in Self.entries {
            let bytes = StateEncoding.bytes { StateEncoding.write(entry, to: &$0) }
            let slow = try JSONDecoder().decode(QueueEntry.self, from: Data(bytes))
            let fast = StateDecoding.entry(bytes)
            #expect(slow == entry)
            if entry.item.schedule == nil {
                #expect(fast == entry, "\(String(decoding: bytes, as: UTF8.self))")
            } else {
                #expect(fast == nil, "a schedule is left to JSONDecoder")
            }
        }
    }

    /// The line scanner takes exactly the lines it can read without a parser, and reads them right.
    @Test func theLineScannerTakesPlainLinesAndLeavesTheRest() throws {
        var plain = Self.entries.filter { $0.item.schedule == nil }
        var extra = QueueEntry(id: ItemID(99), item: MediaItem(uri: "/ü/β.mp4", loops: 3, start: 2, end: 1e3, title: "Café"))
        extra.knownDuration = 0.1
        extra.knownSize = PictureSize(width: 7, height: 5)
        plain.append(extra)
        for entry in plain {
            let bytes = StateEncoding.bytes { StateEncoding.write(entry, to: &$0) }
            let slow = try JSONDecoder().decode(QueueEntry.self, from: Data(bytes))
            let scanned = EntryLineScanner.entry(bytes)
            let escaped = bytes.contains(UInt8(ascii: "\\"))
            if escaped {
                #expect(scanned == nil, "an escaped string goes to the parser")
            } else {
                #expect(scanned == slow, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(EntryLineScanner.entry(Array(#"{"id":1,"item":{"uri":"/a","loops":1},"playsDone":0,"state":{"queued":{}}} "#.utf8)) == nil)
        #expect(EntryLineScanner.entry(Array(#"{"id":1,"item":{"loops":1,"uri":"/a"},"playsDone":0,"state":{"queued":{}}}"#.utf8)) == nil)
        #expect(EntryLineScanner.entry(Array(#"{"id":1,"item":{"uri":"/a","loops":1},"playsDone":0,"state":{"queued":{}}}"#.utf8)) != nil)
    }

    /// An insert record of plain items is read by the line scanner, and reads as JSONDecoder reads it.
    @Test func theLineScannerTakesPlainInsertRecords() throws {
        let plain = [
            MediaItem(uri: "/a.flac"), MediaItem(uri: "https://127.0.0.1/v1/clip.mp4", loops: 7, title: ""),
            MediaItem(uri: "/ü/β.mp4", loops: 3, start: 2, end: 1e3, duration: 0.5, title: "Café", trackEnd: .shortest,
                sha256: String(repeating: "ab", count: 32)),
        ]
        for change in [PlayQueue.Change.insert(plain, at: 4), .insert([], at: 0), .insert([plain[0]], at: 123_456)] {
            let bytes = StateEncoding.bytes { StateEncoding.write(StateRecord.queue(change), to: &$0) }
            let slow = try JSONDecoder().decode(StateRecord.self, from: Data(bytes))
            #expect(slow == .queue(change))
            #expect(EntryLineScanner.insertion(bytes) == change, "\(String(decoding: bytes, as: UTF8.self))")
        }
        let escaped = StateEncoding.bytes {
            StateEncoding.write(StateRecord.queue(.insert([Self.items[1]], at: 0)), to: &$0)
        }
        #expect(EntryLineScanner.insertion(escaped) == nil, "an escaped string goes to the parser")
        let scheduled = StateEncoding.bytes {
            StateEncoding.write(StateRecord.queue(.insert([Self.items[3]], at: 0)), to: &$0)
        }
        #expect(EntryLineScanner.insertion(scheduled) == nil, "a schedule goes to the parser")
        #expect(EntryLineScanner.insertion(Array(#"{"queue":{"_0":{"insert":{"_0":[{"uri":"/a","loops":1}],"at":0}}}} "#.utf8)) == nil)
        #expect(EntryLineScanner.insertion(Array(#"{"queue":{"_0":{"insert":{"_0":[{"uri":"/a","loops":1}],"at":0}}}}"#.utf8)) != nil)
    }

    @Test func itemListRecordsReadTheSameBothWays() throws {
        let plain = Array(Self.items.prefix(3))
        let changes: [PlayQueue.Change] = [
            .insert(plain, at: 4), .replace(plain, loops: 0, rev: 17, keeping: ItemID(3)),
            .replace(plain, loops: nil, rev: nil, keeping: nil), .insert(Self.items, at: 0), .clear,
        ]
        for change in changes {
            let bytes = StateEncoding.bytes { StateEncoding.write(StateRecord.queue(change), to: &$0) }
            let slow = try JSONDecoder().decode(StateRecord.self, from: Data(bytes))
            #expect(slow == .queue(change))
            let fast = StateDecoding.itemListChange(bytes)
            switch change {
            case .insert(let items, _) where items.contains { $0.schedule != nil }: #expect(fast == nil)
            case .clear: #expect(fast == nil)
            default: #expect(fast == change, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test func linesItCouldMisreadAreLeftToJSONDecoder() {
        let odd = [
            #"{"id":1,"item":{"uri":"/a","loops":"2"},"playsDone":0,"state":{"queued":{}}}"#,
            #"{"id":1,"item":{"uri":"/a","colour":"red"},"playsDone":0,"state":{"queued":{}}}"#,
            #"{"id":1,"item":{"uri":"/a","trackEnd":"sideways"},"playsDone":0,"state":{"queued":{}}}"#,
            #"{"id":1,"item":{"uri":"/a"},"playsDone":0,"state":{"queued":{"x":1}}}"#,
            #"{"id":1.5,"item":{"uri":"/a"},"playsDone":0,"state":{"queued":{}}}"#,
        ]
        for line in odd { #expect(StateDecoding.entry(Array(line.utf8)) == nil, "\(line)") }
        let record = #"{"queue":{"_0":{"insert":{"_0":[{"uri":"/a"}],"at":"0"}}}}"#
        #expect(StateDecoding.itemListChange(Array(record.utf8)) == nil)
    }
}
