// What plays next: asked by the engine when an item ends (successor), to prefetch, and for the user's
// next/previous/jump. Pure: nothing here changes the queue; the engine reports what it actually started
// through `begin`.

extension PlayQueue {
    /// Play 1 of the first entry in pass 1; nil when the queue is empty.
    public func first() -> Cursor? {
        entries.first.map { Cursor(id: $0.id, play: 1, pass: 1) }
    }

    /// What plays after `cursor` ends naturally (eof): the same item again while it has plays left (forever
    /// when its loops is 0), then the next entry; past the last entry a new pass while the queue's loops
    /// allow, else nil.
    public func successor(of cursor: Cursor) -> Cursor? {
        switch place(of: cursor) {
        case .entry(let position):
            let itemLoops = entries[position].item.loops
            // A leaving entry (see PlayQueue+Replace) plays no more than the play under way.
            if cursor.id != leaving && (itemLoops == 0 || cursor.play < itemLoops) {
                return Cursor(id: cursor.id, play: cursor.play + 1, pass: cursor.pass)
            }
            return start(at: position + 1, pass: cursor.pass)
        case .vacated(let gap):
            return start(at: gap, pass: cursor.pass)
        case nil:
            return nil
        }
    }

    /// The user's `next`: play 1 of the next entry, whatever plays the item had left; wraps like `successor`.
    public func following(_ cursor: Cursor) -> Cursor? {
        switch place(of: cursor) {
        case .entry(let position): start(at: position + 1, pass: cursor.pass)
        case .vacated(let gap): start(at: gap, pass: cursor.pass)
        case nil: nil
        }
    }

    /// The user's `previous`: play 1 of the previous entry; at the first entry, the first entry again.
    /// Never goes back into the previous pass.
    public func preceding(_ cursor: Cursor) -> Cursor? {
        let target: Int
        switch place(of: cursor) {
        case .entry(let position): target = max(position - 1, 0)
        case .vacated(let gap): target = max(min(gap, entries.count) - 1, 0)
        case nil: return nil
        }
        guard target < entries.count else { return nil }
        return Cursor(id: entries[target].id, play: 1, pass: cursor.pass)
    }

    /// A jump to `id`: its play 1 in the current pass (pass 1 when nothing plays); nil if `id` is not queued.
    public func cursor(for id: ItemID) -> Cursor? {
        guard index(of: id) != nil else { return nil }
        return Cursor(id: id, play: 1, pass: current?.pass ?? 1)
    }

    /// Where a cursor stands: on a queued entry, or in the gap left by the removed current item.
    enum Place: Equatable {
        case entry(Int)
        case vacated(gap: Int)
    }

    func place(of cursor: Cursor) -> Place? {
        if let position = index(of: cursor.id) { return .entry(position) }
        if let vacancy, vacancy.id == cursor.id { return .vacated(gap: min(vacancy.gap, entries.count)) }
        return nil
    }

    /// Play 1 of the entry at `position` in `pass`; past the end, the first entry in the next pass if the
    /// queue's loops allow one.
    private func start(at position: Int, pass: Int) -> Cursor? {
        if position < entries.count {
            return Cursor(id: entries[position].id, play: 1, pass: pass)
        }
        guard let first = entries.first, loops == 0 || pass < loops else { return nil }
        return Cursor(id: first.id, play: 1, pass: pass + 1)
    }
}
