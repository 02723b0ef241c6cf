// What the engine reports: a play began (the listener hears it now) or ended, and why. These keep
// `current`, the entries' states and play counts, and the pass bookkeeping in step with what was heard.

extension PlayQueue {
    /// `cursor` is now playing: it becomes `current` and its entry `.playing`. When its pass differs from
    /// the pass of the previous `begin`, a new queue pass has started: every entry's `playsDone` goes back
    /// to 0 and every `.played`/`.failed` entry back to `.queued` first.
    ///
    /// Returns false, changing nothing, when the item is no longer queued (removed after the engine chose
    /// it): the engine should not play it.
    @discardableResult
    public mutating func begin(_ cursor: Cursor) -> Bool {
        guard let position = index(of: cursor.id) else { return false }
        var changed = false
        // "Differs" rather than "is greater": a lower pass means playback restarted from the top (a jump or
        // `first()` after the queue ended), which is just as much a fresh pass.
        if let lastPass, cursor.pass != lastPass {
            changed = resetForNewPass()
        }
        lastPass = cursor.pass
        vacancy = nil
        if current != cursor {
            current = cursor
            changed = true
        }
        if entries[position].state != .playing {
            entries[position].state = .playing
            changed = true
        }
        if changed { version += 1 }
        // Recorded even when `version` stays: the pass bookkeeping (lastPass, vacancy) may have moved.
        record(.begin(cursor))
        return true
    }

    /// A play of `cursor` ended. `.error` marks the entry `.failed` with `error` (or a generic message); any
    /// other reason counts a finished play and marks it `.played`. If `cursor` was current, nothing is now.
    /// A removed item only clears `current` (removing it already did).
    public mutating func finish(_ cursor: Cursor, reason: EndReason, error: String?) {
        var changed = false
        if let position = index(of: cursor.id) {
            if reason == .error {
                entries[position].state = .failed(message: error ?? "playback failed")
            } else {
                entries[position].playsDone += 1
                entries[position].state = .played
            }
            changed = true
        }
        if current == cursor {
            current = nil
            changed = true
        }
        removeLeaving(after: cursor)
        if changed {
            version += 1
            record(.finish(cursor, reason, error: error))
        }
    }

    /// Returns whether any entry changed. O(n) over compact records, no entry built.
    private mutating func resetForNewPass() -> Bool {
        entries.resetForNewPass()
    }
}
