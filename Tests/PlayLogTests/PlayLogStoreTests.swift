// The proof-of-play log on disk: records listed after a seq, forgotten once acknowledged, kept across a
// reopen (a crash: nothing is closed), a seq never handed out twice — not after every record was
// acknowledged and the file compacted away, nor after a torn last line — and the cap dropping the oldest
// with a count. Plus the ledger's pairing and the record's UTC times.

import Foundation
import JSONText
import TestSupport
import Testing

@testable import PlayLog

@Suite struct PlayLogStoreTests {
    private func record(_ seq: Int64, id: Int64 = 1) -> JSONValue {
        ["seq": .int(seq), "id": .int(id), "play": 1, "reason": "eof"]
    }

    private func seqs(_ records: [JSONValue]) -> [Int64] { records.compactMap { $0["seq"]?.intValue } }

    @Test func recordsAreListedAfterASeqAndForgottenOnceAcknowledged() throws {
        let directory = try TemporaryDirectory()
        let store = PlayLogStore(directory: directory.path)
        for _ in 0..<5 { _ = store.append { self.record($0) } }
        #expect(seqs(store.list(after: 0, limit: 100)) == [1, 2, 3, 4, 5])
        #expect(seqs(store.list(after: 2, limit: 2)) == [3, 4])
        #expect(store.ack(through: 3) == 3)
        #expect(store.ack(through: 1) == 3, "acknowledging less changes nothing")
        #expect(seqs(store.list(after: 0, limit: 100)) == [4, 5])
        #expect(store.ack(through: 99) == 5, "not past the newest record")
        #expect(store.summary() == .init(nextSeq: 6, ackedThrough: 5, dropped: 0, count: 0))
    }

    @Test func unacknowledgedRecordsSurviveAReopenAndSeqsAreNeverReused() throws {
        let directory = try TemporaryDirectory()
        var store = PlayLogStore(directory: directory.path)
        for _ in 0..<4 { _ = store.append { self.record($0) } }
        _ = store.ack(through: 2)
        store.tidy()
        // A crash: the store is just dropped and opened again.
        store = PlayLogStore(directory: directory.path)
        #expect(seqs(store.list(after: 0, limit: 100)) == [3, 4])
        _ = store.ack(through: 4)
        store.tidy(force: true)  // compacted: the file holds no record any more
        store = PlayLogStore(directory: directory.path)
        #expect(store.list(after: 0, limit: 100).isEmpty)
        #expect(seqs([store.append { self.record($0) }]) == [5], "the counter outlives its records")
    }

    @Test func aTornLastLineIsSkippedAndItsSeqNotReused() throws {
        let directory = try TemporaryDirectory()
        let store = PlayLogStore(directory: directory.path)
        for _ in 0..<2 { _ = store.append { self.record($0) } }
        let handle = try #require(FileHandle(forWritingAtPath: directory.path + "/plays.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":3,"id":1,"pla"#.utf8))
        try handle.close()
        let reopened = PlayLogStore(directory: directory.path)
        #expect(seqs(reopened.list(after: 0, limit: 100)) == [1, 2])
        #expect(seqs([reopened.append { self.record($0) }]) == [3])
        let again = PlayLogStore(directory: directory.path)
        #expect(seqs(again.list(after: 0, limit: 100)) == [1, 2, 3], "the torn line does not hide what follows")
    }

    @Test func recordsReadBackFromTheFileAfterCompactionAndTheCap() throws {
        let directory = try TemporaryDirectory()
        var limits = PlayLogStore.Limits()
        limits.records = 1_150
        let store = PlayLogStore(directory: directory.path, limits: limits)
        for index in 0..<1_200 { _ = store.append { self.record($0, id: Int64(index)) } }
        #expect(store.summary().dropped == 50)
        _ = store.ack(through: 1_100)
        store.tidy()  // 1,200 lines in the file, 100 kept: compacted
        let size = try FileManager.default.attributesOfItem(atPath: directory.path + "/plays.jsonl")[.size] as? Int
        #expect((size ?? 0) < 100 * 60, "the file holds only the kept records")
        var listed = store.list(after: 0, limit: 1_000)
        #expect(seqs(listed) == Array(1_101...1_200))
        #expect(listed.map { $0["id"]?.intValue } == (1_100..<1_200).map { Int64($0) }, "each record its own text")
        _ = store.append { self.record($0, id: 9_999) }
        listed = store.list(after: 1_199, limit: 10)
        #expect(seqs(listed) == [1_200, 1_201] && listed.last?["id"]?.intValue == 9_999)
        let reopened = PlayLogStore(directory: directory.path, limits: limits)
        #expect(seqs(reopened.list(after: 1_150, limit: 1_000)) == Array(1_151...1_201))
    }

    @Test func overTheCapTheOldestFallOffAndAreCounted() throws {
        var limits = PlayLogStore.Limits()
        limits.records = 3
        let store = PlayLogStore(directory: nil, limits: limits)
        for _ in 0..<5 { _ = store.append { self.record($0) } }
        #expect(seqs(store.list(after: 0, limit: 100)) == [3, 4, 5])
        #expect(store.summary().dropped == 2 && store.summary().ackedThrough == 2)
    }

    @Test func theLedgerPairsStartsWithEndsAndTimesAreUTCWithMilliseconds() {
        var ledger = PlayLedger()
        let item = PlayedItem(uri: "/srv/a.mp4", title: "A", sha256: String(repeating: "a", count: 64))
        ledger.started(id: 7, play: 2, interrupt: false, atMs: 1_795_640_759_917, item: item)
        let record = ledger.ended(
            id: 7, play: 2, interrupt: false, reason: "eof", error: nil, nowMs: 1_795_640_789_918, item: nil, seq: 12)
        #expect(record.item == item && abs(record.seconds - 30.001) < 1e-9)
        let json = record.json
        #expect(json["start"]?.stringValue == "2026-11-25T21:05:59.917Z")
        #expect(json["end"]?.stringValue == "2026-11-25T21:06:29.918Z")
        #expect(json["sha256"]?.stringValue == item.sha256 && json["seq"]?.intValue == 12)
        // Ended without a start (it failed first): no start, 0 s.
        let failed = ledger.ended(
            id: 8, play: 1, interrupt: false, reason: "error", error: "bad", nowMs: 0, item: nil, seq: 13)
        #expect(failed.json["start"] == .null && failed.seconds == 0 && failed.json["end"]?.stringValue == "1970-01-01T00:00:00.000Z")
        #expect(ledger.open == 0)
    }
}
