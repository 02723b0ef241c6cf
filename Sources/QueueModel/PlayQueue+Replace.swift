// Swapping the whole queue in one step (`queue.replace`, a fleet's desired state): one version, one
// journal record, so a power cut leaves either the old queue or the new one, never half of each. The
// play heard now may stay until it ends (`keeping`): its entry is kept in front of the new items and
// leaves the queue when that play ends, whatever ended it — the new queue follows it gaplessly.

extension PlayQueue {
    /// Replaces every entry with `items` (validated first: on error nothing changes). `keeping`: the id of
    /// the play heard now, whose entry stays in front of the new items until that play ends (it plays no
    /// more of its loops); nil, or an id not queued: every entry goes (a current item's place is the
    /// front). `loops`: the new whole-queue loops (nil: unchanged). `rev`: the desired-state revision this
    /// applies, kept with the queue (nil: unchanged). Returns the new items' ids.
    @discardableResult
    public mutating func replace(
        with items: [MediaItem], loops newLoops: Int? = nil, rev: Int64? = nil, keeping kept: ItemID? = nil
    ) throws -> [ItemID] {
        for item in items { try item.validate() }
        if let newLoops, newLoops < 0 { throw QueueError.invalidLoops(newLoops) }
        let keptEntry = kept.flatMap { entry($0) }
        if keptEntry == nil {
            if let current {
                vacancy = Vacancy(id: current.id, gap: 0)
                self.current = nil
            } else {
                vacancy?.gap = 0
            }
        }
        let ids = (nextID..<(nextID + items.count)).map(ItemID.init)
        nextID += items.count
        var replaced = QueueEntries(keptEntry.map { [$0] } ?? [])
        replaced.append(contentsOf: zip(ids, items).lazy.map { QueueEntry(id: $0, item: $1) })
        entries = replaced
        leaving = keptEntry?.id
        if let newLoops { loops = newLoops }
        if let rev { appliedRev = rev }
        version += 1
        record(.replace(items, loops: newLoops, rev: rev, keeping: keptEntry?.id))
        return ids
    }

    /// The leaving entry's play ended: the entry goes (no change of its own in the journal: replaying the
    /// play's `finish` does this again).
    mutating func removeLeaving(after cursor: Cursor) {
        guard let leaving, leaving == cursor.id, let position = index(of: leaving) else { return }
        self.leaving = nil
        entries.remove(atAscending: [position])
        if let old = vacancy, position < old.gap { vacancy?.gap = old.gap - 1 }
    }
}
