// The state directory on its own (no engine, no daemon): what the writer keeps comes back; damage at any
// byte of the journal or the snapshot gives back a prefix of the changes and never stops a restore; the
// lock keeps a second writer out and names the holder.

import Foundation
import Playback
import QueueModel
import TestSupport
import Testing

@testable import StateStore

/// An engine stand-in: a queue behind a lock whose changes go to the writer, as the engine's do.
private final class FakeEngine: StateSource, @unchecked Sendable {
    private let lock = NSLock()
    private var queue = PlayQueue()
    var player = PlayerSnapshot()
    weak var recorder: StateRecorder?
    /// Changes handed to the recorder so far.
    private(set) var recorded = 0

    init() { queue.recordsChanges = true }

    func edit(_ body: (inout PlayQueue) throws -> Void) rethrows {
        try lock.withLock {
            try body(&queue)
            let changes = queue.takeChanges()
            recorded += changes.count
            recorder?.record(queue: changes, player: nil)
        }
    }

    var snapshot: PlayQueue.Snapshot { lock.withLock { queue.snapshot } }

    func recordPlaceNow() {}
    func withConsistentState<R>(_ body: (PlayQueue.Snapshot, PlayerSnapshot) -> R) -> R {
        lock.withLock { body(queue.snapshot, player) }
    }
}

private func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "queued-state-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private func items(_ count: Int, _ tag: String) -> [MediaItem] {
    (0..<count).map { MediaItem(uri: "/media/\(tag)-\($0).mp4", title: "\(tag) \($0)") }
}

@Suite struct StateStoreTests {
    /// Writes `steps` edits through a writer; returns the directory and the queue after each journal
    /// record (index 0: before any; an edit that changes nothing writes none), each only once it is kept.
    private func journalOfEdits(steps: Int, policy: SyncPolicy = .batch) throws -> (String, [PlayQueue.Snapshot]) {
        let directory = try temporaryDirectory()
        let engine = FakeEngine()
        try engine.edit { _ = try $0.append(items(3, "start")) }
        let before = engine.recorded
        let writer = StateWriter(directory: directory, generation: 1, policy: policy, source: engine)
        engine.recorder = writer
        try writer.start()
        var states = [engine.snapshot]
        for step in 0..<steps {
            try engine.edit { queue in
                let ids = queue.entries.map(\.id)
                switch step % 6 {
                case 0: try queue.append(items(2, "s\(step)"))
                case 1: queue.remove([ids[ids.count / 2]])
                case 2: try queue.move(ids[0], to: ids.count - 1)
                case 3: try queue.update(ids[1]) { $0.title = "renamed \(step)" }
                case 4: queue.begin(Cursor(id: ids[2], play: 1, pass: 1))
                default: try queue.setLoops(step % 3)
                }
            }
            if engine.recorded - before == states.count { states.append(engine.snapshot) }
            #expect(engine.recorded - before == states.count - 1)
            let kept = DispatchSemaphore(value: 0)
            writer.whenKept(writer.lastRecorded) { kept.signal() }
            kept.wait()
        }
        writer.close()
        return (directory, states)
    }

    @Test func whatTheWriterKeptComesBack() throws {
        for policy in SyncPolicy.allCases {
            let (directory, states) = try journalOfEdits(steps: 60, policy: policy)
            let restored = StateFiles.restore(from: directory)
            #expect(restored.problems.isEmpty, "\(restored.problems)")
            #expect(restored.queue == states.last)
            #expect(restored.generation == 1)
        }
    }

    /// A restart goes on with the journal it read (no first snapshot): a record a crash cut short is cut off
    /// the file first, the changes after the restart follow the whole ones, and a second restart has them all.
    @Test func aRestartGoesOnWithTheJournalItReadPastACutShortRecord() throws {
        let (directory, states) = try journalOfEdits(steps: 12)
        let journal = directory + "/" + StateFiles.journalName(1)
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data("{\"crc\":12,\"cut short".utf8))  // a write a power cut stopped half way
        handle.closeFile()
        let first = StateFiles.restore(from: directory)
        #expect(first.problems.isEmpty && first.cutShort == [StateFiles.journalName(1)])
        #expect(first.queue == states.last)

        let engine = FakeEngine()
        let restoredQueue = try #require(first.playQueue)
        engine.edit {
            $0 = restoredQueue
            $0.recordsChanges = true
        }
        let writer = StateWriter(directory: directory, generation: first.generation + 1, policy: .batch, source: engine)
        engine.recorder = writer
        try writer.start(continuing: first.generation)
        try engine.edit { _ = try $0.append(items(2, "after the restart")) }
        let kept = DispatchSemaphore(value: 0)
        writer.whenKept(writer.lastRecorded) { kept.signal() }
        kept.wait()
        writer.close()

        let second = StateFiles.restore(from: directory)
        #expect(second.problems.isEmpty && second.cutShort.isEmpty, "\(second.problems) \(second.cutShort)")
        #expect(second.generation == first.generation)
        #expect(second.queue == engine.snapshot, "the queue after the restart's edit")
        #expect(second.queue?.entries.suffix(2).map(\.item.title) == ["after the restart 0", "after the restart 1"])
    }

    @Test func damageAnywhereGivesBackAPrefixAndNeverStopsARestore() throws {
        let (directory, states) = try journalOfEdits(steps: 40)
        let journal = try Data(contentsOf: URL(fileURLWithPath: directory + "/journal.1"))
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: directory + "/snapshot"))
        var random = SeededGenerator(seed: 0xDA3A_6E08)
        var cases = 0
        for (file, original) in [("journal.1", journal), ("snapshot", snapshot)] {
            for trial in 0..<24 {
                var damaged = original
                let offset = Int.random(in: 0..<original.count, using: &random)
                let how = trial % 3
                switch how {
                case 0: damaged = damaged.prefix(offset)
                case 1: damaged[offset] ^= UInt8.random(in: 1...255, using: &random)
                default: damaged.replaceSubrange(offset..<min(original.count, offset + 7), with: Data(count: 3))
                }
                let copy = try temporaryDirectory()
                try journal.write(to: URL(fileURLWithPath: copy + "/journal.1"))
                try snapshot.write(to: URL(fileURLWithPath: copy + "/snapshot"))
                try damaged.write(to: URL(fileURLWithPath: copy + "/" + file))
                let restored = StateFiles.restore(from: copy)
                cases += 1
                let queue = restored.queue ?? PlayQueue().snapshot
                if file == "journal.1" {
                    // A prefix of the edits: exactly the state after `replayedRecords` of them.
                    #expect(
                        states.indices.contains(restored.replayedRecords)
                            && queue == states[restored.replayedRecords],
                        "\(file) \(how) at \(offset): \(restored.replayedRecords) replayed, \(restored.problems)")
                } else {
                    // The snapshot held the first three items: some prefix of them, and no journal after damage.
                    let uris = queue.entries.map(\.item.uri)
                    #expect(
                        uris == Array(states[0].entries.map(\.item.uri).prefix(uris.count))
                            || uris == states.last?.entries.map(\.item.uri), "\(how) at \(offset)")
                }
                let intact = damaged == original
                #expect(
                    intact || !restored.problems.isEmpty || !restored.cutShort.isEmpty
                        || restored.replayedRecords == states.count - 1)
                if !restored.problems.isEmpty {
                    let names = try FileManager.default.contentsOfDirectory(atPath: copy)
                    #expect(names.contains { $0.hasPrefix(file + ".damaged-") }, "kept aside: \(names)")
                }
            }
        }
        #expect(cases >= 20)
    }

    @Test func anEmptyOrMissingDirectoryRestoresNothing() throws {
        let directory = try temporaryDirectory()
        let restored = StateFiles.restore(from: directory)
        #expect(restored.queue == nil && restored.problems.isEmpty && restored.generation == 0)
    }

    @Test func aSecondDaemonIsToldWhoHoldsTheDirectory() throws {
        let directory = try temporaryDirectory()
        let first = try StateDirectory(path: directory + "/nested")
        #expect(throws: StateStoreError.locked(directory: directory + "/nested", pid: "\(getpid())")) {
            _ = try StateDirectory(path: directory + "/nested")
        }
        withExtendedLifetime(first) {}
    }

    @Test func compactionKeepsEverythingAndStartsANewJournal() throws {
        let directory = try temporaryDirectory()
        let engine = FakeEngine()
        let writer = StateWriter(directory: directory, generation: 1, policy: .batch, source: engine)
        engine.recorder = writer
        try writer.start()
        // Long titles make the journal pass the 1 MiB compaction threshold quickly.
        let long = String(repeating: "x", count: 4000)
        for round in 0..<400 {
            try engine.edit { _ = try $0.append([MediaItem(uri: "/m/\(round).mp4", title: long)]) }
            let kept = DispatchSemaphore(value: 0)
            writer.whenKept(writer.lastRecorded) { kept.signal() }
            kept.wait()
        }
        writer.close()
        let restored = StateFiles.restore(from: directory)
        #expect(restored.problems.isEmpty)
        #expect(restored.queue == engine.snapshot)
        #expect(restored.generation > 1, "compacted at least once")
        #expect(writer.currentStatistics.snapshots >= 2)
    }

    /// A camera removed from the queue: its password leaves the `credentials` file at the next compaction,
    /// while the camera still queued keeps its own (and plays after a restart).
    @Test func compactionForgetsARemovedCamerasPassword() throws {
        let directory = try temporaryDirectory()
        let engine = FakeEngine()
        let vault = CredentialVault(directory: directory)
        let writer = StateWriter(directory: directory, generation: 1, policy: .batch, source: engine, vault: vault)
        engine.recorder = writer
        try writer.start()
        func kept() {
            let done = DispatchSemaphore(value: 0)
            writer.whenKept(writer.lastRecorded) { done.signal() }
            done.wait()
        }
        let door = "rtsp://admin:door-pw@127.0.0.1:8554/door"
        let yard = "rtsp://admin:yard-pw@127.0.0.1:8554/yard"
        var ids: [ItemID] = []
        try engine.edit { ids = try $0.append([MediaItem(uri: door), MediaItem(uri: yard)]) }
        kept()
        let credentials = directory + "/credentials"
        #expect((try? String(contentsOfFile: credentials, encoding: .utf8))?.contains("yard-pw") == true)
        engine.edit { _ = $0.remove([ids[1]]) }
        let long = String(repeating: "x", count: 4000)
        var round = 0
        while writer.currentStatistics.snapshots < 2 && round < 1000 {
            try engine.edit { _ = try $0.append([MediaItem(uri: "/m/\(round).mp4", title: long)]) }
            kept()
            round += 1
        }
        writer.close()
        #expect(writer.currentStatistics.snapshots >= 2, "compacted")
        let text = (try? String(contentsOfFile: credentials, encoding: .utf8)) ?? ""
        #expect(text.contains("door-pw") && !text.contains("yard-pw"), "\(text)")
        let restored = StateFiles.restore(from: directory)
        let restoredDoor = try #require(restored.queue?.entries.first?.item.uri)
        #expect(CredentialVault(directory: directory).resolved(restoredDoor) == door)
    }
}
