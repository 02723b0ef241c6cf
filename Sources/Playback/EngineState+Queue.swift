// Queue edits as decisions: each changes the queue, raises queueChanged, and cuts playback when it removes
// what is being heard — or re-feeds the current play when an edit changed what follows it.

import Overlays
import QueueModel

extension EngineState {
    /// Applies a queue edit; `heard` is where the listener is (for a re-feed).
    mutating func edit<R>(heard: Int64, _ body: (inout PlayQueue) throws -> R) rethrows -> R {
        let before = queue.version
        let result = try body(&queue)
        noteQueueChange(from: before)
        refeedIfNextChanged(heard: heard)
        return result
    }

    /// Removes items; removing the play being heard (or about to start) ends it (`removed`) and plays the
    /// one that took its place.
    mutating func remove(_ ids: [ItemID], heard: Int64) -> [ItemID] {
        let before = queue.version
        let current = self.current?.cursor
        // The queue remembers where its current item stood; a play not yet begun needs its successor
        // found before the removal.
        let survivor = current.flatMap { $0 == queue.current ? nil : successor(of: $0, skipping: Set(ids)) }
        let removed = queue.remove(ids)
        noteQueueChange(from: before)
        // Layers tied to a removed item could never show again.
        if !overlays.removeScoped(to: Set(removed.map(\.rawValue))).isEmpty { wakeWaiters = true }
        // The play an interrupt suspended ends now (after the interrupt the queue goes on after it).
        if let suspended = interruptions.suspended, removed.contains(suspended.id) {
            interruptions.suspended = nil
            endPlay(suspended, reason: .removed, error: nil)
        }
        if let current, removed.contains(current.id) {
            // Its successor, or the first one after it in its window (when none is, playback waits).
            if !startOrWait(from: survivor ?? queue.successor(of: current), endReason: .removed) { enter(.idle) }
        } else {
            refeedIfNextChanged(heard: heard)
        }
        return removed
    }

    /// Swaps the whole queue for `items` in one step (see PlayQueue+Replace), refused when `ifVersion` is
    /// not the queue's version. `now`: what plays ends (`removed`) and a run goes on from the new queue's
    /// top. `itemEnd`: the queue's play under way (heard, or suspended by an interrupt) ends whole, then
    /// the new queue follows it gaplessly; with none under way it is `now`. Returns the new items' ids.
    /// `heard`/`wallClock`: where the listener is now; the plays it reached since the presenter last looked
    /// are announced first, so that "the play under way" is the one heard, not one the announcements lag on
    /// (a kept play already heard to its end would otherwise be fed again at its end and its tail written
    /// twice; a next loop already heard would play after its entry left).
    mutating func replaceQueue(
        with items: [MediaItem], loops: Int?, rev: Int64?, at moment: ReplaceMoment, ifVersion: UInt64?,
        heard: Int64, wallClock: Double
    ) throws -> [ItemID] {
        if let ifVersion, ifVersion != queue.version {
            throw PlayerError.queueChanged(expected: ifVersion, actual: queue.version)
        }
        if moment == .itemEnd { catchUp(heard: heard, wallClock: wallClock) }
        let before = queue.version
        let kept = moment == .itemEnd ? queue.current?.id : nil
        let running = phase.run != nil && (current != nil || scheduleWait != nil)
        // Layers tied to an item the swap removes could never show again (checked per layer, not per item).
        let tiedToQueued = overlays.scopedItems.filter { queue.index(of: ItemID($0)) != nil }
        let ids = try queue.replace(with: items, loops: loops, rev: rev, keeping: kept)
        noteQueueChange(from: before)
        let gone = tiedToQueued.filter { queue.index(of: ItemID($0)) == nil }
        if !overlays.removeScoped(to: gone).isEmpty { wakeWaiters = true }
        if kept != nil {
            refeedIfNextChanged(heard: heard)
            return ids
        }
        if running {
            if !startOrWait(from: queue.first(), endReason: .removed) { enter(.idle) }
        } else if case .stopped(_, let error) = phase {
            enter(.stopped(resume: nil, error: error))
        }
        return ids
    }

    /// Empties the queue; what is playing ends (`removed`).
    mutating func clear() {
        let before = queue.version
        let playing = current != nil
        let ids = overlays.scopedItems.filter { queue.index(of: ItemID($0)) != nil }
        queue.clear()
        noteQueueChange(from: before)
        if !overlays.removeScoped(to: ids).isEmpty { wakeWaiters = true }
        if playing {
            cut(to: nil, endReason: .removed)
            enter(.idle)
        }
        if case .stopped(_, let error) = phase { enter(.stopped(resume: nil, error: error)) }
    }

    /// The first play after `cursor` whose item is not in `removed` (at most one pass around the queue).
    private func successor(of cursor: Cursor, skipping removed: Set<ItemID>) -> Cursor? {
        var next = queue.successor(of: cursor)
        var steps = 0
        while let candidate = next, removed.contains(candidate.id), steps <= queue.count {
            next = queue.following(candidate)
            steps += 1
        }
        return next.flatMap { removed.contains($0.id) ? nil : $0 }
    }

    /// The play after the current one is decoded a little ahead (up to the audio buffer), or being opened
    /// by the decode thread (outside the lock, to be accepted when it is). If an edit changed what comes
    /// next, that head start is wrong: the current play is fed again from where the listener is, so the new
    /// successor follows it (at the cost of a short re-buffer). Missing the opening case once let a replaced
    /// queue's kept item play one loop more, after its entry had left, and the run then ended idle.
    private mutating func refeedIfNextChanged(heard: Int64) {
        guard let current = startedPlay, let now = self.current, now.cursor == current else { return }
        let ahead = segments.first { $0.serial == serial && $0.heard == .ahead && $0.cursor != current }?.cursor
        let opening: Cursor? = if case .opening(let play)? = phase.run?.feed, play.cursor != current { play.cursor } else { nil }
        guard let upcoming = ahead ?? opening, upcoming != nextPlay(after: current).cursor else { return }
        cut(to: current, position: position(of: now, heard: heard), endReason: nil, continuesPlay: true)
    }
}

/// When a replaced queue takes over (`queue.replace`'s `at`).
public enum ReplaceMoment: String, Sendable, CaseIterable {
    /// At once: what plays ends `removed`.
    case now
    /// Once the play under way has ended whole.
    case itemEnd
}
