// A synchronized start (video walls): `play(…, at:)` cuts to the play, corks the audio output and leaves
// the play to be prepared — opened, its first picture decoded, its sound written ahead into the corked
// output — and the presenter thread lets it go at the instant: uncorks the sound and shows the first
// picture. The wall-clock instant is turned into the monotonic timeline once, here, so a wall-clock step
// afterwards (NTP) does not move it; `itemStarted.at` reports when the picture was actually shown.

import QueueModel

/// When a synchronized start lets the play go: the same instant on both clocks.
struct ScheduledStart: Equatable {
    /// Monotonic seconds (what the presenter waits on).
    var monotonic: Double
    /// Unix seconds (what the client asked for, reported in the status).
    var wall: Double
}

extension EngineState {
    /// Prepares `id`'s first play (nil: the current play from its start, else what `play` would start) to
    /// start at `start`. An instant already past starts it as soon as it is ready.
    /// With `play` and `position` (a sync group's re-alignment): that play of `id`, heard from `position`;
    /// when it is the play under way it goes on as the same play (no ended or started event).
    mutating func play(id: ItemID?, at start: ScheduledStart, play: Int? = nil, position: Double = 0) throws(PlayerError) {
        var cursor: Cursor
        if let id {
            guard let found = queue.cursor(for: id) else { throw .itemNotFound(id) }
            cursor = found
            if let play { cursor.play = max(1, play) }
        } else if let now = current {
            cursor = now.cursor
        } else {
            guard let open = firstOpen(from: startingPlay).cursor else { throw .queueEmpty }
            cursor = open
        }
        let same = play != nil && current.map { $0.cursor.id == cursor.id && $0.cursor.play == cursor.play } == true
        if same, let now = current { cursor = now.cursor }
        cut(
            to: cursor, position: max(0, position), endReason: same || startedPlay == nil ? nil : .skipped,
            continuesPlay: same)
        actions.append(.setAudioPaused(true))
        updateRun { $0.motion = .armed(start) }
        wakeWaiters = true
        updateStatus {
            $0.error = nil
            $0.startsAt = start.wall
        }
    }

    /// Presenter thread, at the instant: the sound goes on and the first picture may be shown.
    mutating func releaseScheduledStart() {
        guard scheduledStart != nil else { return }
        updateRun { $0.motion = .playing }
        uncorkIfShown()
        updateStatus { $0.startsAt = nil }
    }

    /// A cut or an interrupt before the instant calls the synchronized start off. The output was corked
    /// for the instant: the play that goes on (a cut to another item, an interrupt, a stop that corks
    /// nothing itself) needs it going again now.
    mutating func cancelScheduledStart() {
        guard scheduledStart != nil else { return }
        updateRun { $0.motion = .playing }
        uncorkIfShown()
        updateStatus { $0.startsAt = nil }
    }
}
