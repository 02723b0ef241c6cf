// The queue as a state journal sees it: every edit and transition as a `Change` value, and the whole
// queue as a `Snapshot`. Replaying a queue's recorded changes, in order, onto its earlier snapshot gives
// an equal queue — ids, passes and the place of a removed current item included — which is what lets the
// daemon restore exactly what it had acknowledged. Pure: the journal's files live in StateStore.

extension PlayQueue {
    /// One edit or transition, with whatever makes its replay deterministic (an insert's resolved index,
    /// an update's resulting item).
    public enum Change: Sendable, Equatable, Codable {
        case insert([MediaItem], at: Int)
        case remove([ItemID])
        case move(ItemID, to: Int)
        case clear
        case replace([MediaItem], loops: Int?, rev: Int64?, keeping: ItemID?)
        case replaceItem(ItemID, MediaItem)
        case setLoops(Int)
        case setKnownDuration(ItemID, Double)
        case setKnownSize(ItemID, PictureSize)
        case begin(Cursor)
        case finish(Cursor, EndReason, error: String?)
    }

    /// Everything a queue holds, ready to encode. Taking one costs a few references (QueueEntries shares
    /// its storage until the queue's next edit, which then copies one chunk).
    public struct Snapshot: Sendable, Equatable, Codable {
        public var entries: QueueEntries
        public var version: UInt64
        public var loops: Int
        public var current: Cursor?
        public var nextID: Int
        public var lastPass: Int?
        var vacancy: Vacancy?
        public var leaving: ItemID?
        public var appliedRev: Int64?

        /// Where a removed current item was (its id, and the position of the entry that now follows it),
        /// for encoders outside this module.
        public var removedCurrentPlace: (id: ItemID, gap: Int)? { vacancy.map { ($0.id, $0.gap) } }
    }

    public var snapshot: Snapshot {
        Snapshot(
            entries: entries, version: version, loops: loops, current: current, nextID: nextID, lastPass: lastPass,
            vacancy: vacancy, leaving: leaving, appliedRev: appliedRev)
    }

    /// The queue a snapshot describes, or nil when it contradicts itself (duplicate ids, an id at or past
    /// `nextID`, a current item that is not queued, negative loops): a damaged state file must not become
    /// a queue that traps later.
    public init?(snapshot: Snapshot) {
        guard snapshot.loops >= 0 else { return nil }
        self.init(loops: snapshot.loops)
        entries = snapshot.entries
        version = snapshot.version
        current = snapshot.current
        nextID = snapshot.nextID
        lastPass = snapshot.lastPass
        vacancy = snapshot.vacancy
        leaving = snapshot.leaving
        appliedRev = snapshot.appliedRev
        guard invariantViolations().isEmpty else {
            return nil
        }
    }

    /// The changes recorded since the last call (none unless `recordsChanges`).
    public mutating func takeChanges() -> [Change] {
        defer { recordedChanges.removeAll(keepingCapacity: true) }
        return recordedChanges
    }

    /// Replays a recorded change. Throws what the original call would have thrown had the queue not been
    /// the one it was recorded on (a journal that does not belong to this snapshot).
    public mutating func apply(_ change: Change) throws {
        switch change {
        case .insert(let items, let index): try insert(items, at: index)
        case .remove(let ids): remove(ids)
        case .move(let id, let index): try move(id, to: index)
        case .clear: clear()
        case .replace(let items, let loops, let rev, let kept): try replace(with: items, loops: loops, rev: rev, keeping: kept)
        case .replaceItem(let id, let item): try update(id) { $0 = item }
        case .setLoops(let loops): try setLoops(loops)
        case .setKnownDuration(let id, let seconds): setKnownDuration(id, seconds)
        case .setKnownSize(let id, let size): setKnownSize(id, size)
        case .begin(let cursor): begin(cursor)
        case .finish(let cursor, let reason, let error): finish(cursor, reason: reason, error: error)
        }
    }

    mutating func record(_ change: Change) {
        if recordsChanges { recordedChanges.append(change) }
    }
}

extension PlayQueue.Snapshot {
    /// Forgets what was playing and where a removed current item stood: what is left of a damaged
    /// snapshot may no longer hold them.
    public mutating func forgetCurrent() {
        current = nil
        vacancy = nil
        leaving = nil
    }
}
