// Edits requested by users over RPC. Each either validates everything first and then applies all of it,
// or throws and changes nothing.

extension PlayQueue {
    /// Adds `items` at the end; returns their new ids, in order.
    @discardableResult
    public mutating func append(_ items: [MediaItem]) throws -> [ItemID] {
        let ids = try insertValidated(items, at: entries.count)
        if !ids.isEmpty { record(.insert(items, at: entries.count - ids.count)) }
        return ids
    }

    /// Adds `items` so that the first of them lands at `index` (0...count).
    @discardableResult
    public mutating func insert(_ items: [MediaItem], at index: Int) throws -> [ItemID] {
        guard (0...entries.count).contains(index) else {
            throw QueueError.indexOutOfRange(index: index, count: entries.count)
        }
        let ids = try insertValidated(items, at: index)
        if !ids.isEmpty { record(.insert(items, at: index)) }
        return ids
    }

    /// Adds `items` right after the item `id` ("play next" is `insert(items, after: current.id)`).
    @discardableResult
    public mutating func insert(_ items: [MediaItem], after id: ItemID) throws -> [ItemID] {
        guard let position = index(of: id) else { throw QueueError.itemNotFound(id) }
        let ids = try insertValidated(items, at: position + 1)
        if !ids.isEmpty { record(.insert(items, at: position + 1)) }
        return ids
    }

    /// Removes the items with these ids; unknown ids are ignored. Returns the ids actually removed, in queue
    /// order. Removing the current item sets `current` to nil: the engine ends it with `.removed` and
    /// continues with `successor(of:)` its old cursor, which is the item that took its place.
    @discardableResult
    public mutating func remove(_ ids: [ItemID]) -> [ItemID] {
        let doomed = Set(ids.compactMap { index(of: $0) }).sorted()
        guard !doomed.isEmpty else { return [] }
        let removedIDs = doomed.map { entries.id(at: $0) }

        if let current, let position = index(of: current.id), binarySearch(doomed, for: position) {
            vacancy = Vacancy(id: current.id, gap: position - countBelow(position, in: doomed))
            self.current = nil
        } else if let old = vacancy {
            vacancy?.gap = old.gap - countBelow(old.gap, in: doomed)
        }
        entries.remove(atAscending: doomed)
        if let leaving, removedIDs.contains(leaving) { self.leaving = nil }
        version += 1
        record(.remove(removedIDs))
        return removedIDs
    }

    /// Moves the item `id` so that it ends up at `index` (0..<count), the others keeping their order.
    public mutating func move(_ id: ItemID, to index: Int) throws {
        guard let source = self.index(of: id) else { throw QueueError.itemNotFound(id) }
        guard (0..<entries.count).contains(index) else {
            throw QueueError.indexOutOfRange(index: index, count: entries.count)
        }
        guard source != index else { return }
        entries.move(from: source, to: index)
        // A move is a removal then an insertion; an insertion exactly at the gap lands in front of it.
        if var moved = vacancy {
            if source < moved.gap { moved.gap -= 1 }
            if index < moved.gap { moved.gap += 1 }
            vacancy = moved
        }
        version += 1
        record(.move(id, to: index))
    }

    /// Removes every item. Ids keep counting up. The current item, if any, is removed like any other.
    public mutating func clear() {
        guard !entries.isEmpty else { return }
        if let current {
            vacancy = Vacancy(id: current.id, gap: 0)
            self.current = nil
        } else {
            vacancy?.gap = 0
        }
        entries.removeAll()
        leaving = nil
        version += 1
        record(.clear)
    }

    /// Edits the item `id` in place; the result is validated like a new item, and on error nothing changes.
    public mutating func update(_ id: ItemID, _ change: (inout MediaItem) -> Void) throws {
        guard let position = index(of: id) else { throw QueueError.itemNotFound(id) }
        var item = entries[position].item
        change(&item)
        try item.validate()
        guard item != entries[position].item else { return }
        entries[position].item = item
        version += 1
        record(.replaceItem(id, item))
    }

    /// Passes through the whole queue: 1 = once, N = N passes, 0 = forever.
    public mutating func setLoops(_ loops: Int) throws {
        guard loops >= 0 else { throw QueueError.invalidLoops(loops) }
        guard loops != self.loops else { return }
        self.loops = loops
        version += 1
        record(.setLoops(loops))
    }

    /// Records the probed duration of `id`. Unknown ids (removed meanwhile) and values that are not finite
    /// and >= 0 are ignored: this is a report from the engine, not a request that could be refused.
    public mutating func setKnownDuration(_ id: ItemID, _ seconds: Double) {
        guard let position = index(of: id), seconds.isFinite, seconds >= 0,
            entries[position].knownDuration != seconds
        else { return }
        entries[position].knownDuration = seconds
        version += 1
        record(.setKnownDuration(id, seconds))
    }

    /// Records the size `id`'s picture is seen at (a report from the engine, like its duration).
    public mutating func setKnownSize(_ id: ItemID, _ size: PictureSize) {
        guard let position = index(of: id), size.width > 0, size.height > 0, entries[position].knownSize != size
        else { return }
        entries[position].knownSize = size
        version += 1
        record(.setKnownSize(id, size))
    }

    /// An id for something played outside the queue (an interrupt), never given to a queued item. Not
    /// journaled: after a restart a queued item may get an id an interrupt had before it.
    public mutating func reserveID() -> ItemID {
        defer { nextID += 1 }
        return ItemID(nextID)
    }

    private mutating func insertValidated(_ items: [MediaItem], at position: Int) throws -> [ItemID] {
        for item in items { try item.validate() }
        guard !items.isEmpty else { return [] }
        let ids = (nextID..<(nextID + items.count)).map(ItemID.init)
        nextID += items.count
        entries.insert(contentsOf: zip(ids, items).lazy.map { QueueEntry(id: $0, item: $1) }, at: position)
        // Items inserted exactly at the gap left by a removed current item are what plays next.
        if let old = vacancy, position < old.gap {
            vacancy?.gap = old.gap + items.count
        }
        version += 1
        return ids
    }
}

/// Number of elements of the ascending array `sorted` that are below `value`.
private func countBelow(_ value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
        let mid = (low + high) / 2
        if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}

private func binarySearch(_ sorted: [Int], for value: Int) -> Bool {
    let index = countBelow(value, in: sorted)
    return index < sorted.count && sorted[index] == value
}
