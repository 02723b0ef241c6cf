// Queue edits from any thread: each is one EngineState decision under the lock (see EngineState+Queue).

import QueueModel
import SystemClock

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

    /// `ifVersion`: refused (`queueChanged`) unless the queue is at that version — a page that dragged an
    /// item in the list it had does not move it in a list that changed meanwhile.
    public func move(_ id: ItemID, to index: Int, ifVersion: UInt64? = nil) throws {
        try edit { queue throws in
            if let ifVersion, ifVersion != queue.version {
                throw PlayerError.queueChanged(expected: ifVersion, actual: queue.version)
            }
            try queue.move(id, to: index)
        }
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
        core.locked { $0.remove(ids, heard: audio.playedFrames()) }
    }

    /// Plays `item` now, outside the queue, `plays` times (at least once; never forever), then resumes the
    /// interrupted play where it was; during another interrupt it plays after that one. Returns its id.
    @discardableResult
    /// `reserved` learns the interrupt's id before any of its events can be delivered (under the engine lock:
    /// it must only note it, never wait).
    public func interrupt(_ item: MediaItem, plays: Int, reserved: (ItemID) -> Void = { _ in }) throws -> ItemID {
        try item.validate()
        precondition(plays >= 1, "an interrupt plays at least once")
        return core.locked { state in
            let id = state.queue.reserveID()
            reserved(id)
            state.interrupt(Interrupt(id: id, item: item, plays: plays))
            return id
        }
    }

    /// Takes back interrupts not yet over (see EngineState.withdrawInterrupts); unknown ids are ignored.
    public func withdrawInterrupts(_ ids: Set<ItemID>) {
        guard !ids.isEmpty else { return }
        core.locked { $0.withdrawInterrupts(ids, heardFrame: audio.playedFrames()) }
    }

    /// Swaps the whole queue in one step (see EngineState.replaceQueue); returns the new ids and version.
    public func replace(
        with items: [MediaItem], loops: Int? = nil, rev: Int64? = nil, at moment: ReplaceMoment = .now,
        ifVersion: UInt64? = nil
    ) throws -> (ids: [ItemID], version: UInt64) {
        try core.locked { (state: inout EngineState) throws -> ([ItemID], UInt64) in
            let ids = try state.replaceQueue(
                with: items, loops: loops, rev: rev, at: moment, ifVersion: ifVersion, heard: audio.playedFrames(),
                wallClock: Monotonic.wallClock())
            return (ids, state.queue.version)
        }
    }

    /// Empties the queue; what is playing ends (`removed`).
    public func clear() {
        core.locked { $0.clear() }
    }

    private func edit<R>(_ body: (inout PlayQueue) throws -> R) throws -> R {
        try core.locked { (state: inout EngineState) throws -> R in
            try state.edit(heard: audio.playedFrames(), body)
        }
    }
}
