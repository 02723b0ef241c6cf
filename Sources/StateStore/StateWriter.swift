// Design note — why a journal plus snapshots, hand-written, rather than SQLite through GRDB:
// - The engine already speaks in changes: PlayQueue records each edit and transition as a value whose
//   replay is exact (PlayQueue+Journal). Appending those is one write(2) per batch, O(size of the change),
//   whatever the queue's length; a table of 100,000 rows would need its positions renumbered on every
//   insert or move, or a linked order whose repair after damage is harder than a prefix.
// - Damage has a simple, honest answer: every line carries a CRC-32, and restoring stops at the first bad
//   one, so what comes back is always a prefix of what was acknowledged. A damaged SQLite file is all or
//   nothing, and the brief asks for "every change up to the damage".
// - Group commit is ours to time: `--sync batch` answers after write(2) (the page cache survives kill -9)
//   and fdatasyncs at most every 100 ms; `--sync always` answers after the fdatasync that covers the
//   change, one fdatasync for every change that arrived meanwhile.
// - No new dependency (zlib's crc32 comes with FFmpeg's), and the files stay greppable for a post-mortem.
//
// - Compaction never holds up a reply: the snapshot (the whole queue, ~0.4 s for 100,000 items) is encoded
//   and made durable by a background task while the writer goes on appending to the old journal; the
//   changes made after the snapshot's state was taken are also kept aside and start the new journal, which
//   is durable before the new snapshot is renamed into place (StateFiles.installSnapshot).
//
// Threads: `record` is called by the engine under its lock (any engine thread) and only queues. The writer
// thread (`queued.state`) encodes, writes, syncs, installs snapshots and runs the callbacks of `whenKept`;
// a compaction task (a global dispatch queue) encodes and writes the snapshot file.
// `condition` guards the fields marked "guarded"; the rest belong to the writer thread. Lock order: the
// engine lock, then `condition`; the writer thread never holds `condition` while it calls the engine.

import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Playback
import QueueModel
import JSONText
import SystemClock

/// When a change counts as kept.
public enum SyncPolicy: String, Sendable, CaseIterable {
    /// Answer once the change is written (survives kill -9); fdatasync at most every 100 ms.
    case batch
    /// Answer once an fdatasync covers the change (survives a power cut).
    case always
}

/// What the writer needs from the engine (PlayerEngine, or a test double).
public protocol StateSource: AnyObject, Sendable {
    /// Records the player's place now if it moved (under the engine lock, through the recorder).
    func recordPlaceNow()
    /// Runs `body` under the engine lock with the queue and the player as they are.
    func withConsistentState<R>(_ body: (PlayQueue.Snapshot, PlayerSnapshot) -> R) -> R
}

extension PlayerEngine: StateSource {}

public final class StateWriter: StateRecorder, @unchecked Sendable {
    public struct Statistics: Sendable, Equatable {
        /// Batches written to the journal, and snapshots.
        public var writes = 0
        public var bytes = 0
        public var snapshots = 0
    }

    public let directory: String
    public let policy: SyncPolicy
    /// Keeps stream credentials out of the files (nil: URLs are written as they are).
    public let vault: CredentialVault?
    private let condition = ThreadCondition()
    /// Guarded. Records waiting for the writer thread, in order, with their sequence numbers.
    private var pending: [(sequence: UInt64, record: StateRecord)] = []
    /// Guarded. The sequence number of the last record queued / kept (written, or synced for `always`).
    private var enqueued: UInt64 = 0
    private var kept: UInt64 = 0
    /// Guarded. Callbacks waiting for `kept` to reach their sequence number.
    private var waiters: [(sequence: UInt64, callback: @Sendable () -> Void)] = []
    /// Guarded. While set, `record` leaves the writer thread asleep: an event loop is answering a burst
    /// of requests and wakes it once, when the burst is done (`holdWakeup`).
    private var wakeupHeld = false
    /// Guarded.
    private var stopping = false
    private var stopped = false
    private var statistics = Statistics()
    /// Guarded. The first error the writer met; later changes are no longer kept (the daemon logs it).
    public private(set) var failure: StateStoreError?
    /// Guarded. Set by the compaction task once `snapshot.tmp` is durable (its size), or failed.
    private var preparedSnapshot: Result<Int, StateStoreError>?

    /// A compaction under way: the snapshot being prepared and what its journal will start with.
    private struct Compaction {
        var generation: UInt64
        /// The last change the snapshot holds.
        var covered: UInt64
        /// The framed lines of the changes after `covered` written so far (to the old journal too).
        var journalStart = Data()
    }

    // Writer thread only.
    private weak var source: StateSource?
    private var generation: UInt64
    private var journal: StateFile?
    private var journalBytes = 0
    private var snapshotBytes = 0
    private var lastSync = Monotonic.now()
    private var unsynced = false
    private let progressInterval: Double
    private let syncInterval = 0.1
    private let finished = DispatchSemaphore(value: 0)
    private var compaction: Compaction?
    /// One record's JSON, reused from record to record.
    private var line = JSONWriter()
    /// Entered while a compaction task runs (waited for before the writer stops).
    private let compactionTask = DispatchGroup()

    /// `generation`: the first the writer writes (one past what was restored).
    public init(
        directory: String, generation: UInt64, policy: SyncPolicy, source: StateSource, progressInterval: Double = 1,
        vault: CredentialVault? = nil
    ) {
        self.directory = directory
        self.vault = vault
        self.generation = generation
        self.policy = policy
        self.source = source
        self.progressInterval = progressInterval
    }

    /// Writes the first snapshot (the state as it is now) and starts the writer thread. Throws when the
    /// directory cannot be written at all.
    public func start() throws(StateStoreError) {
        try writeFirstSnapshot()
        startThread()
    }

    /// Goes on with the journal of `generation`, whose snapshot and journal were restored whole (a cut-short
    /// last record is dropped from the file), instead of writing a first snapshot: a restart with a million
    /// items answers its first edit at once rather than after the ~1 s the snapshot takes. The snapshot is
    /// written later, as a compaction, when the journal has grown to its size. Only for a source whose
    /// queue was the restored one when recording began (every change since is in `pending`).
    public func start(continuing generation: UInt64) throws(StateStoreError) {
        let file = try StateFile(creating: directory + "/" + StateFiles.journalName(generation))
        journalBytes = try file.dropUnfinishedLine()
        journal = file
        self.generation = generation
        var info = stat()
        snapshotBytes = stat(directory + "/" + StateFiles.snapshotName, &info) == 0 ? Int(info.st_size) : 0
        unsynced = false
        startThread()
    }

    private func startThread() {
        Threads.start(named: "queued.state") { [self] in
            run()
            finished.signal()
        }
    }

    // MARK: Any thread

    public func record(queue changes: [PlayQueue.Change], player: PlayerSnapshot?) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return }
        for change in changes {
            enqueued += 1
            pending.append((enqueued, .queue(change)))
        }
        if let player {
            enqueued += 1
            pending.append((enqueued, .player(player)))
        }
        if !wakeupHeld { condition.signal() }
    }

    /// Leaves the writer thread asleep while the caller records a burst of changes; true when this call
    /// started the hold, and the caller must then `releaseWakeup()` (once its burst is done). Why: woken
    /// for each change of a pipelining client, the writer wrote 3 changes per write(2) and cost two thread
    /// wake-ups each; woken once per event-loop pass it writes them all at once.
    public func holdWakeup() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !wakeupHeld else { return false }
        wakeupHeld = true
        return true
    }

    public func releaseWakeup() {
        condition.lock()
        defer { condition.unlock() }
        wakeupHeld = false
        if !pending.isEmpty { condition.signal() }
    }

    /// The sequence number of the last change queued so far: waiting for it covers every change made
    /// before this call.
    public var lastRecorded: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return enqueued
    }

    /// Runs `callback` once every change up to `sequence` is kept — at once, on this thread, if it is
    /// already; otherwise on the writer thread. After a write error it runs too (the daemon goes on; the
    /// error is in `failure` and in the log).
    public func whenKept(_ sequence: UInt64, _ callback: @escaping @Sendable () -> Void) {
        condition.lock()
        if kept >= sequence || stopped || failure != nil {
            condition.unlock()
            callback()
            return
        }
        waiters.append((sequence, callback))
        condition.unlock()
    }

    public var currentStatistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }

    /// Saves the player's place, writes and syncs everything queued, and stops the writer thread. Later
    /// changes (the engine shutting down) are not kept.
    public func close() {
        source?.recordPlaceNow()
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    // MARK: Writer thread

    private func run() {
        var nextPlace = Monotonic.now() + progressInterval
        while true {
            condition.lock()
            while pending.isEmpty && !stopping && preparedSnapshot == nil {
                let now = Monotonic.now()
                let deadline = min(nextPlace, unsynced ? lastSync + syncInterval : .infinity)
                if now >= deadline { break }
                _ = condition.wait(seconds: deadline - now)
            }
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let stopNow = stopping
            let prepared = preparedSnapshot
            preparedSnapshot = nil
            condition.unlock()

            write(batch)
            let last = batch.last?.sequence
            // `batch`: written is kept (kill -9 cannot lose it), so replies do not wait for the sync.
            if policy == .batch, let last { markKept(through: last) }
            let now = Monotonic.now()
            if unsynced && (policy == .always || stopNow || now - lastSync >= syncInterval) { sync() }
            if policy == .always, let last { markKept(through: last) }
            if let prepared { installSnapshot(prepared) }
            if stopNow {
                finish()
                return
            }
            if now >= nextPlace {
                nextPlace = now + progressInterval
                source?.recordPlaceNow()
            }
            if compaction == nil && journalBytes > max(1 << 20, snapshotBytes) { beginCompaction() }
        }
    }

    private func write(_ batch: [(sequence: UInt64, record: StateRecord)]) {
        guard !batch.isEmpty, let journal else { return }
        var data = Data()
        var carriedFrom: Int?
        for (sequence, record) in batch {
            if let compaction, carriedFrom == nil, sequence > compaction.covered { carriedFrom = data.count }
            line.removeAll()
            StateEncoding.write(record, to: &line, vault: vault)
            RecordLine.append(line.bytes, to: &data)
        }
        if let carriedFrom { compaction?.journalStart.append(data[carriedFrom...]) }
        do {
            try journal.write(data)
            journalBytes += data.count
            unsynced = true
            count {
                $0.writes += 1
                $0.bytes += data.count
            }
        } catch {
            fail(error)
        }
    }

    private func sync() {
        guard let journal else { return }
        do {
            try journal.syncData()
        } catch {
            fail(error)
        }
        unsynced = false
        lastSync = Monotonic.now()
    }

    /// In `batch` a change is kept once written; in `always` once synced (the caller syncs first).
    private func markKept(through sequence: UInt64) {
        condition.lock()
        kept = max(kept, sequence)
        let ready = waiters.filter { $0.sequence <= kept }
        waiters.removeAll { $0.sequence <= kept }
        condition.unlock()
        for waiter in ready { waiter.callback() }
    }

    /// Replaces snapshot + journal with a snapshot of the state now, and a new, empty journal. Every
    /// change queued so far is in the snapshot, so the pending ones are dropped (and count as kept). At
    /// start-up, before the writer thread runs.
    private func writeFirstSnapshot() throws(StateStoreError) {
        guard let source else { return }
        let (queue, player, covered) = source.withConsistentState { queue, player in
            (queue, player, lastRecorded)
        }
        let (written, bytes) = try StateFiles.writeSnapshot(
            queue: queue, player: player, generation: generation, in: directory, vault: vault)
        journal = written
        journalBytes = 0
        snapshotBytes = bytes
        unsynced = false
        condition.lock()
        pending.removeAll { $0.sequence <= covered }
        statistics.snapshots += 1
        statistics.bytes += bytes
        condition.unlock()
        markKept(through: covered)
    }

    /// Takes the state now and has the compaction task write it as the next snapshot; the writer goes on
    /// appending (every change, to the old journal; those after the state, to `journalStart` too).
    private func beginCompaction() {
        guard let source else { return }
        // Before the state is read: the tokens it and every later line name are what the vault keeps.
        vault?.beginSweep()
        let (queue, player, covered) = source.withConsistentState { queue, player in
            (queue, player, lastRecorded)
        }
        let next = generation + 1
        compaction = Compaction(generation: next, covered: covered)
        let directory = self.directory, vault = self.vault
        DispatchQueue.global(qos: .utility).async(group: compactionTask) { [self] in
            let result: Result<Int, StateStoreError>
            do throws(StateStoreError) {
                result = .success(
                    try StateFiles.prepareSnapshot(
                        queue: queue, player: player, generation: next, in: directory, vault: vault))
            } catch {
                result = .failure(error)
            }
            condition.lock()
            preparedSnapshot = result
            condition.signal()
            condition.unlock()
        }
    }

    /// Puts the prepared snapshot in place with its journal and continues in that journal.
    private func installSnapshot(_ prepared: Result<Int, StateStoreError>) {
        guard let compaction else { return }
        self.compaction = nil
        do {
            let size = try prepared.get()
            let next = try StateFiles.installSnapshot(
                generation: compaction.generation, journalStart: compaction.journalStart, in: directory)
            journal?.close()
            journal = next
            generation = compaction.generation
            journalBytes = compaction.journalStart.count
            snapshotBytes = size
            // The snapshot and the start of its journal are synced: nothing written is unsynced now.
            unsynced = false
            lastSync = Monotonic.now()
            count {
                $0.snapshots += 1
                $0.bytes += size
            }
            // The state on disk names only the tokens swept since the compaction began: a removed
            // camera's password goes with it.
            vault?.finishSweep(installed: true)
        } catch {
            vault?.finishSweep(installed: false)
            fail(error)
        }
    }

    private func finish() {
        // A snapshot still being prepared is waited for and put in place (the task must be done with
        // `snapshot.tmp` before another writer may start in this directory; and a restart then reads less).
        compactionTask.wait()
        condition.lock()
        let prepared = preparedSnapshot
        preparedSnapshot = nil
        condition.unlock()
        if let prepared { installSnapshot(prepared) }
        condition.lock()
        stopped = true
        let rest = waiters
        waiters.removeAll()
        condition.unlock()
        for waiter in rest { waiter.callback() }
        journal?.close()
        journal = nil
    }

    private func fail(_ error: StateStoreError) {
        condition.lock()
        if failure == nil { failure = error }
        let rest = waiters
        waiters.removeAll()
        condition.unlock()
        for waiter in rest { waiter.callback() }
    }

    private func count(_ change: (inout Statistics) -> Void) {
        condition.lock()
        change(&statistics)
        condition.unlock()
    }
}
