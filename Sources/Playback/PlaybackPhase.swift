// What playback is doing, as one value: idle, stopped with a resume point, or a run (playing, paused or
// armed for a synchronized start) whose decode side is starting a play, feeding one, waiting for a
// schedule window or done. Each case carries only what makes sense in it, so a stopped player cannot also
// hold a start request, nor a paused one an armed instant; the status's `state` is a report of it
// (`reportedState`). Owned by EngineState (EngineCore's lock); changed only by EngineState's decisions.
// Interrupts add their return point in `Interruptions.back` (EngineState+Interrupt).

import QueueModel

enum PlaybackPhase: Equatable {
    /// Nothing plays: never started, played through, emptied, or skipped past the end.
    case idle
    /// Stopped by `stop` (`resume`: the play `play` starts again, from its start) or because every item
    /// failed (`error` says why).
    case stopped(resume: Cursor?, error: String?)
    /// A run of plays, until it is stopped or plays through.
    case running(PlaybackRun)

    /// The state clients see.
    var reportedState: PlayerState {
        switch self {
        case .idle: .idle
        case .stopped: .stopped
        case .running(let run): run.motion == .paused ? .paused : .playing
        }
    }

    var run: PlaybackRun? {
        if case .running(let run) = self { return run }
        return nil
    }
}

/// One run of plays: whether the listener hears it move, and where the decode thread stands in it.
struct PlaybackRun: Equatable {
    var motion: Motion
    var feed: Feed
    /// The play announced started and not yet ended (what a cut ends, even mid-seek, when no segment of it
    /// is left). The queue's `current` is the durable record of the queue's play, which an interrupt
    /// suspends rather than ends; this is the listener's.
    var started: Cursor?

    enum Motion: Equatable {
        case playing
        /// The audio output is corked; nothing is announced as heard.
        case paused
        /// A synchronized start: the play is prepared into the corked output and let go at the instant.
        case armed(ScheduledStart)
    }

    /// What the decode thread is doing for the run.
    enum Feed: Equatable {
        /// A command asked for this start; the decode thread has not taken it yet.
        case requested(StartRequest)
        /// The decode thread opens this play (a request it took, or the play after one it wrote) and has
        /// no segment of it yet.
        case opening(NextPlay)
        /// The decode thread writes the newest segment on the timeline.
        case feeding
        /// Every item is outside its schedule: the run goes on from this play when a window opens.
        case waitingForSchedule(Cursor)
        /// The decode thread wrote the last play (`error`: every item failed): the run ends once it is heard.
        case complete(error: String?)
    }
}
