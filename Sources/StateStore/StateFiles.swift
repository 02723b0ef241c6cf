// Reading and writing the state directory's files: `snapshot` (replaced atomically: written to
// `snapshot.tmp`, fsynced — while the journal goes on being appended —, renamed, directory fsynced) and
// `journal.<generation>` (appended). Restoring reads the snapshot, then replays its journal; at the first
// damaged line (bad checksum, bad JSON, or a change that does not apply) it stops, keeps the damaged file
// aside as `<name>.damaged-<unix time>` and says what it dropped. Nothing here ever refuses to start: the
// worst case is an empty queue. Runs on the daemon's main thread at start-up, on the state writer's
// thread, and (`prepareSnapshot`) on the writer's compaction task.

import FoundationEssentials
import SystemSupport
import Glibc
import Playback
import QueueModel
import JSONText

/// What a state directory gave back.
public struct RestoredState: Sendable {
    /// The queue, checked (a million entries are not checked twice: the daemon takes this one).
    public var playQueue: PlayQueue?
    public var queue: PlayQueue.Snapshot? { playQueue?.snapshot }
    public var player: PlayerSnapshot?
    /// The generation the files had; the writer continues with the next one.
    public var generation: UInt64
    /// Journal records replayed on top of the snapshot.
    public var replayedRecords: Int
    /// What was damaged and dropped, for the log; empty when everything was read.
    public var problems: [String]
    /// Journals whose last record was cut short: a write a crash or power cut interrupted. Expected after
    /// a kill -9 (the kernel stops a long write at a fatal signal); the record was never acknowledged.
    public var cutShort: [String] = []
}

public enum StateFiles {
    static let snapshotName = "snapshot"
    static let temporarySnapshotName = "snapshot.tmp"
    static func journalName(_ generation: UInt64) -> String { "journal.\(generation)" }

    // MARK: Restoring

    public static func restore(from directory: String) -> RestoredState {
        var problems: [String] = []
        var cutShort: [String] = []
        var generation: UInt64 = 0
        var queue: PlayQueue?
        var player: PlayerSnapshot?
        var snapshotComplete = true
        let snapshotPath = directory + "/" + snapshotName
        if let reader = RecordLineReader(path: snapshotPath) {
            let read = readSnapshot(reader)
            generation = read.generation ?? highestJournalGeneration(in: directory) ?? 0
            queue = read.queue
            player = read.player
            if let problem = read.problem {
                snapshotComplete = false
                problems.append("snapshot: \(problem)")
                keepAside(snapshotPath)
            }
        }
        var replayed = 0
        let journalPath = directory + "/" + journalName(generation)
        if snapshotComplete, let reader = RecordLineReader(path: journalPath) {
            var restored = queue ?? PlayQueue()
            let outcome = replay(reader, onto: &restored, player: &player)
            queue = restored
            replayed = outcome.applied
            if let problem = outcome.problem {
                problems.append("\(journalName(generation)): \(problem)")
                keepAside(journalPath)
            } else if outcome.cutShort {
                cutShort.append(journalName(generation))
            }
        } else if !snapshotComplete, FileManager.default.fileExists(atPath: journalPath) {
            problems.append("\(journalName(generation)): not replayed, since the snapshot before it is damaged")
            keepAside(journalPath)
        }
        return RestoredState(
            playQueue: queue, player: player, generation: generation, replayedRecords: replayed,
            problems: problems, cutShort: cutShort)
    }

    /// The snapshot's queue and player, and what was wrong, if anything. A damaged entry line keeps the
    /// entries before it (the current item is forgotten if it was not among them).
    private static func readSnapshot(
        _ reader: RecordLineReader
    ) -> (
        queue: PlayQueue?, player: PlayerSnapshot?, generation: UInt64?, problem: String?
    ) {
        let decoder = JSONDecoder()
        let firstLine = reader.withNextLine { line in
            RecordLine.unframe(line).flatMap { try? decoder.decode(SnapshotHeader.self, from: Data($0)) }
        }
        guard let header = firstLine ?? nil, header.format == SnapshotHeader.currentFormat
        else { return (nil, nil, nil, "the header is damaged; the queue starts empty") }
        // Kept compact as they are read (QueueEntries), not as a million QueueEntry values.
        var entries = QueueEntries()
        var problem: String?
        // Appended in batches: whole chunks at their size, not one record at a time.
        var batch: [QueueEntry] = []
        batch.reserveCapacity(4096)
        func flush() {
            entries.append(contentsOf: batch)
            batch.removeAll(keepingCapacity: true)
        }
        for number in 0..<header.entryCount {
            // nil: the end of the file; .some(nil): a damaged line.
            let read: QueueEntry?? = reader.withNextLine { line -> QueueEntry? in
                guard let json = RecordLine.unframe(line) else { return nil }
                return StateDecoding.entry(json) ?? (try? decoder.decode(QueueEntry.self, from: Data(json)))
            }
            guard let read else { break }
            guard let entry = read else {
                problem = "entry \(number + 1) of \(header.entryCount) is damaged; the \(number) before it are kept"
                break
            }
            batch.append(entry)
            if batch.count == 4096 { flush() }
        }
        flush()
        if problem == nil, entries.count < header.entryCount {
            problem =
                "cut short after \(entries.count) of \(header.entryCount) entries\(reader.unterminated ? " (a torn line)" : "")"
        }
        var snapshot = header.queue
        snapshot.entries = entries
        if let queue = PlayQueue(snapshot: snapshot) {
            return (queue, header.player, header.generation, problem)
        }
        // Entries lost to damage can leave the current item or the bookkeeping pointing at nothing.
        snapshot.forgetCurrent()
        snapshot.nextID = max(snapshot.nextID, (entries.lazy.map(\.id.rawValue).max() ?? 0) + 1)
        guard let queue = PlayQueue(snapshot: snapshot) else {
            return (nil, nil, header.generation, problem ?? "the queue contradicts itself; it starts empty")
        }
        return (queue, header.player, header.generation, problem ?? "the current item was not kept")
    }

    /// Applies the journal's records in order until the first damaged one.
    private static func replay(
        _ reader: RecordLineReader, onto queue: inout PlayQueue, player: inout PlayerSnapshot?
    ) -> (
        applied: Int, problem: String?, cutShort: Bool
    ) {
        let decoder = JSONDecoder()
        var number = 0
        // nil: the end of the file; .some(nil): a damaged line.
        while let record = reader.withNextLine({ line -> StateRecord? in
            RecordLine.unframe(line).flatMap { json in
                StateDecoding.itemListChange(json).map(StateRecord.queue)
                    ?? (try? decoder.decode(StateRecord.self, from: Data(json)))
            }
        }) {
            defer { number += 1 }
            do {
                switch record {
                case .queue(let change)?: try queue.apply(change)
                case .player(let snapshot)?: player = snapshot
                case nil: throw DamagedRecord()
                }
            } catch {
                var after = 0
                while reader.next() != nil { after += 1 }
                return (number, "record \(number + 1) is damaged; it and the \(after) after it are dropped", false)
            }
        }
        return (number, nil, reader.unterminated)
    }

    private struct DamagedRecord: Error {}

    private static func highestJournalGeneration(in directory: String) -> UInt64? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            name.hasPrefix("journal.") ? UInt64(name.dropFirst("journal.".count)) : nil
        }.max()
    }

    /// Renames a damaged file so that nothing overwrites it (for a post-mortem).
    private static func keepAside(_ path: String) {
        let aside = "\(path).damaged-\(Int(Date().timeIntervalSince1970))"
        _ = rename(path, aside)
    }

    // MARK: Writing

    /// Writes the snapshot of `queue` and `player` to `snapshot.tmp` and makes it durable, 1 MiB at a time
    /// (a million entries are ~185 MB of lines: never held whole); the current snapshot and journal stay
    /// as they are, so this may run beside the writer appending to the journal. Returns the bytes written.
    static func prepareSnapshot(
        queue: PlayQueue.Snapshot, player: PlayerSnapshot, generation: UInt64, in directory: String,
        vault: CredentialVault? = nil
    ) throws(StateStoreError) -> Int {
        let file = try StateFile(creating: directory + "/" + temporarySnapshotName, truncate: true)
        var header = SnapshotHeader(
            format: SnapshotHeader.currentFormat, generation: generation, queue: queue,
            entryCount: queue.entries.count, player: player)
        header.queue.entries = []
        var buffer = Data()
        var written = 0
        var line = JSONWriter()
        StateEncoding.write(header, to: &line, vault: vault)
        RecordLine.append(line.bytes, to: &buffer)
        for entry in queue.entries {
            line.removeAll()
            StateEncoding.write(entry, to: &line, vault: vault)
            RecordLine.append(line.bytes, to: &buffer)
            if buffer.count >= 1 << 20 {
                try file.write(buffer)
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try file.write(buffer)
        written += buffer.count
        try file.sync()
        file.close()
        return written
    }

    /// Replaces `snapshot` atomically and durably, then starts the empty journal of `generation` and
    /// removes older journals. After a crash at any point the directory holds either the old snapshot with
    /// its journal or the new one.
    static func writeSnapshot(
        queue: PlayQueue.Snapshot, player: PlayerSnapshot, generation: UInt64, in directory: String,
        vault: CredentialVault? = nil
    ) throws(StateStoreError) -> (journal: StateFile, bytes: Int) {
        let bytes = try prepareSnapshot(
            queue: queue, player: player, generation: generation, in: directory, vault: vault)
        return (try installSnapshot(generation: generation, journalStart: Data(), in: directory), bytes)
    }

    /// Puts the prepared `snapshot.tmp` in place as the snapshot of `generation`, whose journal starts with
    /// `journalStart` (the changes made after the snapshot's state was taken); returns that journal, open
    /// for appending, and removes older journals. The journal is durable before the rename, so after a
    /// crash at any point the directory holds either the old snapshot with its whole journal or the new
    /// one with its.
    static func installSnapshot(generation: UInt64, journalStart: Data, in directory: String) throws(StateStoreError)
        -> StateFile
    {
        let journal = try StateFile(creating: directory + "/" + journalName(generation), truncate: true)
        if !journalStart.isEmpty {
            try journal.write(journalStart)
            try journal.syncData()
        }
        let temporary = directory + "/" + temporarySnapshotName
        guard rename(temporary, directory + "/" + snapshotName) == 0 else {
            throw .io("rename \(temporary)", errno)
        }
        try syncDirectory(directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names
        where name.hasPrefix("journal.") && name != journalName(generation) && !name.contains(".damaged-") {
            unlink(directory + "/" + name)
        }
        return journal
    }

    static func syncDirectory(_ directory: String) throws(StateStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("open \(directory)", errno) }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw .io("fsync \(directory)", errno) }
    }
}
