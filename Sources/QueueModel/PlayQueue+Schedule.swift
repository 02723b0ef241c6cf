// Dayparting in the queue's walk: which play comes next when some items may not play now. Pure: the
// engine says which items are open (from its clock and each item's schedule) and reports what it skipped.

/// The outcome of looking for the next play among items that may be closed.
public struct ScheduledChoice: Sendable, Equatable {
    /// The play to start; nil when none may play (see `waiting`).
    public var cursor: Cursor?
    /// Plays passed over because their item was closed, in order (each item at most once).
    public var skipped: [Cursor]
    /// True when the queue would go on but every item is closed: playback waits for a window to open.
    /// False with a nil cursor: the queue has played through.
    public var waiting: Bool

    public init(cursor: Cursor?, skipped: [Cursor] = [], waiting: Bool = false) {
        self.cursor = cursor
        self.skipped = skipped
        self.waiting = waiting
    }
}

extension PlayQueue {
    /// `candidate` when its item may play (`isOpen`), else the first play after it whose item may, walking
    /// on as the user's `next` does (a closed item's remaining plays go with it), at most once around.
    public func firstOpen(from candidate: Cursor?, isOpen: (MediaItem) -> Bool) -> ScheduledChoice {
        var skipped: [Cursor] = []
        var passedOver = Set<ItemID>()
        var next = candidate
        while let cursor = next {
            guard let item = entry(cursor.id)?.item, item.schedule != nil, !isOpen(item) else {
                return ScheduledChoice(cursor: cursor, skipped: skipped)
            }
            // Back at an item already passed over: every item is closed.
            guard passedOver.insert(cursor.id).inserted else {
                return ScheduledChoice(cursor: nil, skipped: skipped, waiting: true)
            }
            skipped.append(cursor)
            next = following(cursor)
        }
        return ScheduledChoice(cursor: nil, skipped: skipped)
    }
}
