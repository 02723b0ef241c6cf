// Dayparting decisions: what plays next when some items are outside their schedule, skipping those with
// an `itemSkipped` event, and the wait when none may play — the status says so, the presenter shows the
// fallback picture, and the decode thread's idle loop asks `resumeIfScheduleOpens` until a window opens.
// The local time comes from the state's injected `localClock` (the one clock EngineState reads).

import QueueModel

/// Why an item was passed over without playing.
public enum SkipReason: String, Sendable, Equatable {
    /// Outside its schedule's window.
    case schedule
}

extension EngineState {
    /// `candidate`, or the first play after it whose item is in its window now. Reads the clock; no events.
    func firstOpen(from candidate: Cursor?) -> ScheduledChoice {
        guard let candidate else { return ScheduledChoice(cursor: nil) }
        // The clock is read only when some item has a schedule (queue edits ask this too, thousands a second).
        var now: LocalDateTime?
        return queue.firstOpen(from: candidate) { item in
            guard let schedule = item.schedule else { return true }
            let time = now ?? localClock.localTime()
            now = time
            return schedule.isOpen(at: time)
        }
    }

    /// What plays after `cursor` ends on its own (the prefetcher asks this too, without acting on it).
    func nextPlay(after cursor: Cursor) -> ScheduledChoice {
        if cursor.isInterrupt { return ScheduledChoice(cursor: plannedAfterInterrupt(cursor)?.cursor) }
        return firstOpen(from: queue.successor(of: cursor))
    }

    /// Whether the same item plays again right after `cursor` (a loop seam, which `trackEnd: auto` ends at
    /// the shortest track).
    func playsAgain(after cursor: Cursor) -> Bool {
        nextPlay(after: cursor).cursor?.id == cursor.id
    }

    /// Announces the plays `choice` passed over; when it found none open, playback waits from `candidate`.
    mutating func noteScheduled(_ choice: ScheduledChoice, from candidate: Cursor?) {
        for skipped in choice.skipped {
            emit(.itemSkipped(id: skipped.id, play: skipped.play, reason: .schedule))
        }
        if choice.waiting, let candidate { setFeed(.waitingForSchedule(candidate)) }
    }

    /// Starts the first play from `candidate` that is in its window (after the started play ends with
    /// `endReason`); when every item is closed, waits for one to open. False when the queue has nothing
    /// to play from there (it played through).
    mutating func startOrWait(from candidate: Cursor?, endReason: EndReason?) -> Bool {
        let choice = firstOpen(from: candidate)
        cut(to: choice.cursor, endReason: endReason)
        noteScheduled(choice, from: candidate)
        if choice.waiting { showWaiting() }
        return choice.cursor != nil || choice.waiting
    }

    /// Nothing is heard any more and playback waits for a window: the status says so (no current item).
    mutating func showWaiting() {
        updateStatus {
            $0.waitingForSchedule = true
            $0.describeNoPlay()
        }
    }

    /// Decode thread, idle: while playback waits for a window and the last play before the wait has been
    /// heard, starts the first item whose window is open now. Quiet (no events) while all stay closed.
    /// Windows open on the minute: once every item was found closed, the queue is walked again only when
    /// the local minute or the queue changed — not twice a second (a million closed items is a walk of
    /// a second, under the engine's lock).
    mutating func resumeIfScheduleOpens() {
        guard var candidate = scheduleWait, phase.run?.motion == .playing, segments.isEmpty else { return }
        let now = localClock.localTime()
        if let quiet = scheduleQuiet, quiet.version == queue.version, quiet.at == now { return }
        // The item to go on from was removed while waiting: start over from the top of its pass.
        if queue.entry(candidate.id) == nil {
            guard let first = queue.first() else { return }
            candidate = Cursor(id: first.id, play: 1, pass: candidate.pass)
        }
        let choice = firstOpen(from: candidate)
        guard let cursor = choice.cursor else {
            scheduleQuiet = (queue.version, now)
            return
        }
        scheduleQuiet = nil
        cut(to: cursor, endReason: nil)
    }

    /// The wait (if any) is over: a cut started something else, stopped, or cleared the queue (the cut
    /// replaces the run's feed; this takes the wait out of the status).
    mutating func endScheduleWait() {
        if status.waitingForSchedule { updateStatus { $0.waitingForSchedule = false } }
    }
}
