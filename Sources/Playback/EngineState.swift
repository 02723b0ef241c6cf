// The engine's state and decisions as one value type: the queue, the status, the output timeline
// (segments), the picture queue, the serial and the pending start. Mutating methods decide (what is
// current, what ends, what starts where) and record EngineActions — events, audio requests — for the
// owner to carry out; nothing here does I/O or waits, and the only clock it reads is the injected
// `localClock` (schedules), so it is tested without threads (EngineStateTests). Owned by EngineCore,
// which guards it with its lock; every engine thread goes through EngineCore.locked.
//
// One notion of "current": `current` — the play the listener is in, else the play about to start (its
// segment, or the start the decode thread owes). Every command, the status and the durable record use it.

import DequeModule
import Media
import Overlays
import QueueModel

struct EngineState {
    var queue: PlayQueue
    var status = PlayerStatus()
    /// Bumped by every cut (next, seek, stop…): work of an older serial is stale.
    var serial = 0
    /// What playback is doing (see PlaybackPhase): what the status's `state` reports, the start the decode
    /// thread owes, the play announced started, a resume point, a schedule wait, an armed start.
    var phase: PlaybackPhase = .idle
    var segments: [Segment] = []
    var frames = Deque<TimedFrame>()
    var shuttingDown = false
    /// Which decode thread is the live one: a stalled one is replaced and, once whatever held it returns,
    /// sees a newer generation and leaves.
    var decoderGeneration = 0
    /// Video settings waiting for the presenter thread, which alone may talk to the video sink.
    var pendingDisplay = DisplayChange()
    /// Timeline frame of the last progress event.
    var lastProgressFrame: Int64 = .min
    /// Plays in a row that failed without putting anything on the timeline (a full pass of them stops).
    var consecutiveFailures = 0
    /// Plays whose readers wait for network bytes, and what was last reported of it (EngineState+Buffering).
    var buffering = BufferingWaits()
    /// Items played now, outside the queue, and where the queue resumes after them (see EngineState+Interrupt).
    var interruptions = Interruptions()
    /// Layers drawn above the video; the presenter thread draws a copy (see EngineState+Overlays).
    var overlays = OverlaySet()
    /// The screen's power beyond what the status says (see EngineState+ScreenPower).
    var screenPower = ScreenPowerState()
    /// While playback waits for a window: the queue's version and the local minute at which every item was
    /// last found closed (see EngineState+Schedule).
    var scheduleQuiet: (version: UInt64, at: LocalDateTime)?
    /// What the owner must do once this batch of changes is done, in order.
    var actions: [EngineAction] = []
    /// Something a waiting thread acts on changed (a cut, pictures queued or taken, the state, video
    /// settings, shutdown): the owner wakes the waiters. Reads and plain queue edits don't, so a client
    /// polling the status costs the playback threads nothing.
    var wakeWaiters = false

    /// Fixed for the engine's life: the output timeline's frames per second, whether there is no clock
    /// (pictures shown as decoded), progress events every this many seconds (0: none).
    let sampleRate: Double
    let untimed: Bool
    let progressInterval: Double
    /// The box's local time, for items' schedules (injected by tests).
    let localClock: LocalClock
    /// When the screen is on (empty: always).
    let displaySchedule: DisplaySchedule
    /// The transition into items that have none of their own (`--transition`; nil: a cut).
    let defaultTransition: ItemTransition?
    /// What the screen shows while every item is outside its schedule (`--schedule-fallback`).
    let scheduleFallback: ScheduleFallback
    /// When the run was last paused (monotonic seconds; nil: not paused, or not told), for a live stream's
    /// resume (`returnToLiveEdge`).
    var pausedAt: Double?

    init(
        queue: PlayQueue, sampleRate: Int, untimed: Bool = false, progressInterval: Double = 1,
        localClock: LocalClock = .system, displaySchedule: DisplaySchedule = DisplaySchedule(),
        defaultTransition: ItemTransition? = nil, scheduleFallback: ScheduleFallback = .black
    ) {
        self.defaultTransition = defaultTransition
        self.scheduleFallback = scheduleFallback
        self.queue = queue
        self.localClock = localClock
        self.displaySchedule = displaySchedule
        self.sampleRate = Double(sampleRate)
        self.untimed = untimed
        self.progressInterval = progressInterval
        status.queueLoops = queue.loops
        status.queueVersion = queue.version
    }

    /// The actions recorded so far, leaving none.
    mutating func takeActions() -> [EngineAction] {
        defer { actions.removeAll() }
        return actions
    }

    mutating func emit(_ event: PlayerEvent) { actions.append(.emit(event)) }

    // MARK: Status

    /// Applies a status change and raises `statusChanged` if anything a client sees has changed.
    mutating func updateStatus(_ change: (inout PlayerStatus) -> Void) {
        var updated = status
        change(&updated)
        updated.queueLoops = queue.loops
        updated.queueVersion = queue.version
        updated.appliedRev = queue.appliedRev
        describeCurrentItem(in: &updated)
        updated.state = phase.reportedState
        guard updated != status else { return }
        if updated.state != status.state { wakeWaiters = true }
        status = updated
        emit(.statusChanged(updated))
    }

    /// Fills in the title, uri and loop count of the status's current item from the queue (or the interrupt).
    func describeCurrentItem(in status: inout PlayerStatus) {
        let interrupt = status.currentID.flatMap { interruptions.known[$0] }
        let item = interrupt?.item ?? status.currentID.flatMap { queue.entry($0)?.item }
        // The item heard now left the queue as its play ended (a replaced queue's kept item), a moment
        // before the next play's start is announced: it is still what plays, as the status said.
        if item == nil, status.currentID != nil, status.currentID == self.status.currentID { return }
        status.title = item?.title
        status.uri = item?.uri
        status.loops = interrupt?.plays ?? item?.loops
        status.interrupt = interrupt != nil
    }

    /// The item a play plays: an interrupt's, or the queue's.
    func item(for cursor: Cursor) -> MediaItem? {
        cursor.isInterrupt ? interruptions.known[cursor.id]?.item : queue.entry(cursor.id)?.item
    }

    /// Reports `cursor`'s play ended (the event) and records it in the queue (plays done, failure).
    mutating func endPlay(_ cursor: Cursor, reason: EndReason, error: String?) {
        emit(.itemEnded(id: cursor.id, play: cursor.play, reason: reason, error: error, interrupt: cursor.isInterrupt))
        if cursor.isInterrupt {
            interruptions.ended(cursor, early: reason != .eof)
            return
        }
        let before = queue.version
        queue.finish(cursor, reason: reason, error: error)
        noteQueueChange(from: before)
    }

    /// Raises `queueChanged` when the queue's version moved.
    mutating func noteQueueChange(from version: UInt64) {
        guard queue.version != version else { return }
        emit(.queueChanged(version: queue.version))
        updateStatus { _ in }
    }

    /// The status as a command leaves it: the play it produced is current at once — the item it started
    /// (before its first picture or sample), the seek target while the seek is in flight — as mpv reports.
    func status(heard: Int64) -> PlayerStatus {
        var status = self.status
        if let now = current {
            status.currentID = now.cursor.id
            status.play = now.cursor.play
            status.position = position(of: now, heard: heard)
            status.duration = now.duration ?? queue.entry(now.cursor.id)?.knownDuration
            // A stream's figures are the play's own (its segment's, as last measured): never in events.
            if status.stream != nil, let figures = now.segment?.stream {
                status.stream?.bitrate = figures.bitrate
                status.stream?.latency = figures.latency
                status.stream?.pace = figures.pace
            }
        }
        describeCurrentItem(in: &status)
        return status
    }

    // MARK: What is current

    /// The segment the listener is in now: started and not yet ended.
    var audibleSegment: Segment? {
        // In a crossfade's overlap the incoming play is the current one once it started.
        segments.last { $0.heard == .started }
    }

    /// Seconds into the segment's item when the listener is at timeline frame `heard`.
    func position(in segment: Segment, heard: Int64) -> Double {
        let end = segment.endFrame ?? Int64.max
        return segment.itemOffset + Double(min(max(heard, segment.startFrame), end) - segment.startFrame) / sampleRate
            * segment.rate
    }

    /// The play every command, report and record refers to: the one the listener is in, else the one
    /// about to start — its first segment on the timeline (not one that failed without reaching it: that
    /// one is only about to be reported), else the start the decode thread owes. Nil outside a run, and
    /// while a run waits for a schedule window or has been written to its end.
    var current: CurrentPlay? {
        if let segment = audibleSegment { return CurrentPlay(cursor: segment.cursor, segment: segment) }
        if let segment = segments.first(where: {
            $0.serial == serial && !($0.failure != nil && $0.endFrame == $0.startFrame)
        }) {
            return CurrentPlay(cursor: segment.cursor, segment: segment)
        }
        switch phase.run?.feed {
        case .requested(let request)?:
            return CurrentPlay(cursor: request.cursor, startPosition: request.position)
        case .opening(let play)?:
            return CurrentPlay(cursor: play.cursor, startPosition: play.position)
        case .feeding?, .waitingForSchedule?, .complete?, nil:
            return nil
        }
    }

    /// Where the listener is in `play` at timeline frame `heard` (where it will start, before it is on the
    /// timeline).
    func position(of play: CurrentPlay, heard: Int64) -> Double {
        guard let segment = play.segment else { return play.startPosition }
        return position(in: segment, heard: heard)
    }

    // MARK: The phase's parts

    /// The run under way, changed in place (nothing happens outside a run); the status reports a pause.
    mutating func updateRun(_ change: (inout PlaybackRun) -> Void) {
        guard case .running(var run) = phase else { return }
        change(&run)
        phase = .running(run)
        if phase.reportedState != status.state { updateStatus { _ in } }
    }

    /// The start a command asked for and the decode thread has not taken yet.
    var startRequest: StartRequest? {
        if case .requested(let request)? = phase.run?.feed { return request }
        return nil
    }

    /// The play announced started and not yet ended (see PlaybackRun.started).
    var startedPlay: Cursor? { phase.run?.started }

    /// The play a run waiting for a schedule window goes on from.
    var scheduleWait: Cursor? {
        if case .waitingForSchedule(let cursor)? = phase.run?.feed { return cursor }
        return nil
    }

    /// The instant an armed synchronized start waits for.
    var scheduledStart: ScheduledStart? {
        if case .armed(let start)? = phase.run?.motion { return start }
        return nil
    }
}

/// The play that is current (see `EngineState.current`).
struct CurrentPlay: Equatable {
    let cursor: Cursor
    /// Its segment on the timeline; nil while the decode thread has yet to open it.
    var segment: Segment?
    /// Where it starts in the item (before it is on the timeline).
    var startPosition: Double

    init(cursor: Cursor, segment: Segment) {
        self.cursor = cursor
        self.segment = segment
        startPosition = segment.itemOffset
    }

    init(cursor: Cursor, startPosition: Double) {
        self.cursor = cursor
        self.startPosition = startPosition
    }

    /// The item's length when the play knows it.
    var duration: Double? { segment?.duration }
}
