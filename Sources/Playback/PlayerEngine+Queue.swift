// Queue edits through the engine: each one changes the queue under the lock, raises queueChanged, and
// cuts playback when it removes what is being heard.
import QueueModel

extension PlayerEngine {
    @discardableResult
    public func add(_ items: [MediaItem]) throws -> [ItemID] {
        try edit { try $0.append(items) }
    }

    @discardableResult
    public func insert(_ items: [MediaItem], at index: Int) throws -> [ItemID] {
        try edit { try $0.insert(items, at: index) }
    }

    @discardableResult
    public func insert(_ items: [MediaItem], after id: ItemID) throws -> [ItemID] {
        try edit { try $0.insert(items, after: id) }
    }

    public func move(_ id: ItemID, to index: Int) throws {
        try edit { try $0.move(id, to: index) }
    }

    public func update(_ id: ItemID, _ change: (inout MediaItem) -> Void) throws {
        try edit { try $0.update(id, change) }
    }

    public func setQueueLoops(_ loops: Int) throws {
        try edit { try $0.setLoops(loops) }
    }

    /// Removes items; removing the item being heard ends it (`removed`) and plays the one after it.
    @discardableResult
    public func remove(_ ids: [ItemID]) -> [ItemID] {
        core.locked { shared in
            let before = shared.queue.version
            let heard = shared.startedPlay ?? shared.audibleSegment?.cursor ?? shared.startRequest?.cursor
            // The queue remembers where its current item stood; a play not yet begun needs its
            // successor found before the removal.
            let survivor = heard.flatMap { $0 == shared.queue.current ? nil : successor(of: $0, skipping: Set(ids), in: shared.queue) }
            let removed = shared.queue.remove(ids)
            shared.noteQueueChange(from: before)
            if let heard, removed.contains(heard.id) {
                cutLocked(&shared, to: survivor ?? shared.queue.successor(of: heard), endReason: .removed)
                if shared.startRequest == nil { shared.updateStatus { $0.state = .idle } }
            } else {
                refeedIfNextChangedLocked(&shared)
            }
            return removed
        }
    }

    /// Empties the queue; what is playing ends (`removed`).
    public func clear() {
        core.locked { shared in
            let before = shared.queue.version
            let playing = shared.startedPlay != nil || shared.audibleSegment != nil || shared.startRequest != nil
            shared.queue.clear()
            shared.noteQueueChange(from: before)
            if playing {
                cutLocked(&shared, to: nil, endReason: .removed)
                shared.updateStatus { $0.state = .idle }
            }
            shared.resumeCursor = nil
        }
    }

    /// The first play after `cursor` whose item is not in `removed` (at most one pass around the queue).
    private func successor(of cursor: Cursor, skipping removed: Set<ItemID>, in queue: PlayQueue) -> Cursor? {
        var next = queue.successor(of: cursor)
        var steps = 0
        while let candidate = next, removed.contains(candidate.id), steps <= queue.count {
            next = queue.following(candidate)
            steps += 1
        }
        return next.flatMap { removed.contains($0.id) ? nil : $0 }
    }

    private func edit<R>(_ body: (inout PlayQueue) throws -> R) throws -> R {
        try core.locked { shared in
            let before = shared.queue.version
            let result = try body(&shared.queue)
            shared.noteQueueChange(from: before)
            refeedIfNextChangedLocked(&shared)
            return result
        }
    }

    /// The play after the current one is decoded a little ahead (up to the audio buffer). If an edit
    /// changed what comes next, that head start is wrong: the current play is fed again from where the
    /// listener is, so the new successor follows it (at the cost of a short re-buffer).
    private func refeedIfNextChangedLocked(_ shared: inout EngineCore.Shared) {
        guard let current = shared.startedPlay,
            let ahead = shared.segments.first(where: { $0.serial == shared.serial && !$0.announcedStart && $0.cursor != current }),
            ahead.cursor != shared.queue.successor(of: current),
            let now = currentPlayLocked(shared), now.cursor == current
        else { return }
        cutLocked(&shared, to: current, position: now.position, endReason: nil, continuesPlay: true)
    }

}
