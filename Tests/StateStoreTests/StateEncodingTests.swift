// The hand-written state JSON against the types' own Codable: every shape the writer produces decodes
// with JSONDecoder to the value it was written from (so restores, which decode with JSONDecoder, read
// it), and what JSONEncoder wrote before the hand-written encoder existed reads back the same.

import Foundation
import Playback
import QueueModel
import QueueRPC
import Overlays
import Testing

@testable import StateStore

@Suite struct StateEncodingTests {
    private let fullItem = MediaItem(
        uri: "/media/ünïcode \"quoted\"\n\\ tab\t.mp4", loops: 0, start: 1.5, end: 9.25, duration: 0.1,
        title: "A \u{1} title", trackEnd: .shortest)
    private let bareItem = MediaItem(uri: "/a.flac")

    private func decoded<Value: Decodable>(_ type: Value.Type, _ json: [UInt8]) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json))
    }

    /// A queue that has been through every kind of edit and transition, its changes recorded.
    private func editedQueue() throws -> (PlayQueue, [PlayQueue.Change]) {
        var queue = PlayQueue(loops: 3)
        queue.recordsChanges = true
        let ids = try queue.append([
            fullItem, bareItem, MediaItem(uri: "/c.png", duration: 5),
            MediaItem(uri: "rtsp://127.0.0.1/live", duration: 600, onStall: .skip, program: 3),
            MediaItem(
                uri: "http://127.0.0.1:9/board", duration: 30,
                web: WebItem(
                    reload: .keep, zoom: 1.5, viewport: PictureSize(width: 800, height: 600), interval: 60, loadTimeout: 5)),
        ])
        _ = try queue.insert([bareItem], at: 1)
        _ = queue.begin(Cursor(id: ids[0], play: 1, pass: 1))
        queue.finish(Cursor(id: ids[0], play: 1, pass: 1), reason: .error, error: "bad \"data\"")
        _ = queue.begin(Cursor(id: ids[1], play: 1, pass: 1))
        queue.finish(Cursor(id: ids[1], play: 1, pass: 1), reason: .eof, error: nil)
        _ = queue.begin(Cursor(id: ids[2], play: 1, pass: 1))
        try queue.move(ids[1], to: 0)
        try queue.update(ids[1]) { $0.title = "renamed" }
        try queue.setLoops(0)
        queue.setKnownDuration(ids[2], 12.345678901234567)
        queue.setKnownSize(ids[0], PictureSize(width: 1080, height: 1920))
        _ = queue.remove([ids[2]])  // the current item: the queue remembers where it was
        return (queue, queue.takeChanges())
    }

    @Test func everyJournalRecordDecodesToWhatWasWritten() throws {
        let (_, changes) = try editedQueue()
        var records = changes.map(StateRecord.queue) + [.queue(.clear)]
        records.append(.queue(.replace([fullItem, bareItem], loops: 2, rev: 1 << 40, keeping: ItemID(3))))
        records.append(.queue(.replace([], loops: nil, rev: nil, keeping: nil)))
        records.append(.player(PlayerSnapshot()))
        records.append(
            .player(
                PlayerSnapshot(
                    state: .paused, current: Cursor(id: ItemID(4), play: 2, pass: 7), position: 1e-7, volume: 35,
                    muted: true, rate: 1.25, fit: .stretch, rotation: .clockwise270)))
        records.append(.player(PlayerSnapshot(overlays: Self.everyOverlayShape())))
        let kinds = Set(changes.map { "\($0)".prefix { $0 != "(" } })
        #expect(kinds.count >= 8, "the edited queue covers the change kinds: \(kinds.sorted())")
        for record in records {
            #expect(try decoded(StateRecord.self, StateEncoding.bytes { StateEncoding.write(record, to: &$0) }) == record, "\(record)")
        }
    }

    @Test func snapshotsDecodeToWhatWasWritten() throws {
        let (queue, _) = try editedQueue()
        #expect(queue.snapshot.removedCurrentPlace != nil, "the fixture has a vacancy to encode")
        var replaced = queue
        _ = try replaced.replace(with: [bareItem], loops: 2, rev: 12, keeping: replaced.entries.first?.id)
        #expect(replaced.snapshot.leaving != nil && replaced.snapshot.appliedRev == 12)
        for snapshot in [queue.snapshot, PlayQueue().snapshot, replaced.snapshot] {
            let header = SnapshotHeader(
                format: SnapshotHeader.currentFormat, generation: 1 << 40, queue: snapshot,
                entryCount: snapshot.entries.count, player: PlayerSnapshot(state: .playing, position: 3))
            #expect(try decoded(SnapshotHeader.self, StateEncoding.bytes { StateEncoding.write(header, to: &$0) }) == header)
            for entry in snapshot.entries {
                #expect(try decoded(QueueEntry.self, StateEncoding.bytes { StateEncoding.write(entry, to: &$0) }) == entry)
            }
        }
    }

    /// Files written with JSONEncoder (before this encoder) read back through the same path.
    @Test func filesWrittenByJSONEncoderStillRestore() throws {
        let (queue, changes) = try editedQueue()
        let directory = NSTemporaryDirectory() + "queued-state-encoding-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func line(_ json: Data) -> Data {
            var line = Data(String(format: "%08x ", RecordLine.checksum(json)).utf8)
            line.append(json)
            line.append(0x0A)
            return line
        }
        var start = PlayQueue(loops: 3).snapshot
        start.entries = []
        let encoder = JSONEncoder()
        let header = SnapshotHeader(
            format: SnapshotHeader.currentFormat, generation: 5, queue: start, entryCount: 0, player: PlayerSnapshot())
        try line(encoder.encode(header)).write(to: URL(fileURLWithPath: directory + "/snapshot"))
        var journal = Data()
        for change in changes { journal.append(line(try encoder.encode(StateRecord.queue(change)))) }
        try journal.write(to: URL(fileURLWithPath: directory + "/journal.5"))
        let restored = StateFiles.restore(from: directory)
        #expect(restored.problems == [])
        #expect(restored.replayedRecords == changes.count)
        #expect(restored.queue == queue.snapshot)
    }

    /// A player record written before rotation existed restores upright.
    @Test func aPlayerRecordWithoutRotationRestoresUpright() throws {
        let old = #"{"state":"paused","position":2.5,"volume":35,"muted":false,"rate":1,"fit":"fill"}"#
        let player = try JSONDecoder().decode(PlayerSnapshot.self, from: Data(old.utf8))
        #expect(player == PlayerSnapshot(state: .paused, position: 2.5, volume: 35, fit: .fill))
        #expect(player.rotation == .upright)
    }
}

extension StateEncodingTests {
    /// One overlay of each content kind, with every style, length and scope shape.
    static func everyOverlayShape() -> OverlaySet {
        var set = OverlaySet()
        _ = set.add(Overlay(content: .text("{title}"), scope: .item(4)))
        _ = set.add(
            Overlay(
                content: .image(path: "/logo.png"),
                style: OverlayStyle(font: "DejaVu Serif", size: 12, color: .black, background: OverlayColor(red: 1, green: 2, blue: 3, alpha: 4), padding: 0),
                anchor: .bottomRight, x: .percent(2.5), y: .pixels(-3), opacity: 0.5, visible: false, z: -2))
        _ = set.add(Overlay(content: .clock(format: "%H:%M")))
        _ = set.add(Overlay(content: .ticker(text: "news", speed: 120.5), anchor: .bottom))
        set.remove([1])
        return set
    }
}

