// The queue the daemon plays (after MPD's src/queue/): edited by RPC requests, told by the engine what
// started and what ended, asked by the engine what comes next. Pure value type: no I/O, no threads, no
// clocks; the core that owns it serialises every call.

/// Ordered media items with stable ids, per-item and whole-queue loop counts, and the cursor of what is
/// playing. Owned by the playback core.
///
/// `version` goes up by one whenever `entries`, `loops` or `current` change, so observers can tell
/// "something changed" with one comparison. Calls that change nothing (removing unknown ids, moving an
/// item to where it already is, setting the loops it already has) leave it alone.
///
/// Sized for a million items in little memory (see QueueEntries for the layout): `index(of:)` and
/// `entry(_:)` are O(B) with B = 1024 (a scan of one chunk), an entry by position O(log(n/B)), inserting,
/// moving or removing one item anywhere O(B + n/B); a new pass O(n) over compact records.
public struct PlayQueue: Sendable {
    // The stored properties are `internal(set)` rather than `private(set)` only because the edits live in
    // the +Editing/+Transitions files; outside this module they read exactly as `private(set)`.

    /// Items in play order.
    public internal(set) var entries = QueueEntries()
    public internal(set) var version: UInt64 = 0
    /// Passes through the whole queue: 1 = once, N = N passes, 0 = forever.
    public internal(set) var loops: Int
    /// What is playing now, as the listener hears it; nil between items, when stopped, and once the
    /// current item has been removed.
    public internal(set) var current: Cursor?

    /// The next id to hand out. Ids are never reused, not even after `clear()`.
    var nextID = 1
    /// Pass of the most recent `begin`: tells a new pass apart even while `current` is nil between items.
    var lastPass: Int?
    /// Where the current item stood when it was removed, so that playback continues from its place.
    var vacancy: Vacancy?
    /// An entry kept by `replace` only until its current play ends (see PlayQueue+Replace).
    public internal(set) var leaving: ItemID?
    /// The desired-state revision the queue was last replaced with (`replace(…, rev:)`); nil: never.
    public internal(set) var appliedRev: Int64?
    /// Whether edits and transitions are kept in `recordedChanges` for a journal (see PlayQueue+Journal).
    public var recordsChanges = false
    /// Changes since the last `takeChanges()`, oldest first; only while `recordsChanges`.
    var recordedChanges: [Change] = []

    /// The place of a removed current item: `gap` is the position of the entry that now follows it
    /// (== count when it was last). Later edits move the gap with the entries around it; the next `begin`
    /// forgets it.
    struct Vacancy: Sendable, Equatable, Codable {
        let id: ItemID
        var gap: Int
    }

    /// `loops` must be >= 0 (0 = forever); user input should go through `setLoops`, which throws instead.
    public init(loops: Int = 1) {
        precondition(loops >= 0, "PlayQueue loops must be >= 0, got \(loops)")
        self.loops = loops
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// O(1).
    public func entry(_ id: ItemID) -> QueueEntry? {
        entries.entry(id)
    }

    /// O(1).
    public func index(of id: ItemID) -> Int? {
        entries.position(of: id)
    }

    /// For tests: the invariants every public call must preserve. Returns the broken ones.
    func invariantViolations() -> [String] {
        var broken: [String] = []
        broken += entries.structureViolations()
        // Over the records' ids, no entry built: a restore of a million items runs this twice.
        if Set(entries.ids).count != entries.count { broken.append("duplicate ids") }
        if let maxID = entries.ids.lazy.map(\.rawValue).max(), maxID >= nextID { broken.append("id >= nextID") }
        if entries.hasNegativeCounts { broken.append("negative loops or plays") }
        if let current, index(of: current.id) == nil { broken.append("current item is not queued") }
        if let vacancy, !(0...entries.count).contains(vacancy.gap) { broken.append("vacancy gap out of range") }
        if loops < 0 { broken.append("negative loops") }
        if let leaving, index(of: leaving) == nil { broken.append("leaving item is not queued") }
        return broken
    }
}
