// The engine's state and decisions as one value type: the queue, the status, the output timeline
// (segments), the picture queue, the serial and the pending start. Mutating methods decide (what is
// current, what ends, what starts where) and record EngineActions — events, audio requests — for the
// owner to carry out; nothing here does I/O or waits, and the only clock it reads is the injected
// `localClock` (schedules), so it is tested without threads (EngineStateTests). Owned by EngineCore,
// which guards it with its lock; every engine thread goes through EngineCore.locked.
//
// One notion of "current": `currentPlay(heard:)` — the play the listener is in, else the play about to
// start (its segment, or the decode thread's start request). Status, seek and the commands use it.

import DequeModule
import Media
import Overlays
import QueueModel

struct EngineState {
    var queue: PlayQueue
    var status = PlayerStatus()
    /// Bumped by every cut (next, seek, stop…): work of an older serial is stale.
    var serial = 0
    var startRequest: StartRequest?
    /// The play announced started and not yet ended (what a cut ends, even mid-seek).
    var startedPlay: Cursor?
    /// The play the decode thread is about to open after finishing one (until its segment exists).
    var upcoming: Cursor?
    var segments: [Segment] = []
    var frames = Deque<TimedFrame>()
    /// The decode thread wrote the queue's last item: once heard, playback is idle.
    var timelineComplete = false
    /// Why playback stopped on its own (every item failed).
    var stopError: String?
    /// Where play resumes after `stop` (the stopped item, from its start).
    var resumeCursor: Cursor?
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
    /// Plays whose readers wait for network bytes now; the one reported buffering, and whether its
    /// outputs had run dry when last reported (see EngineState+Buffering).
    var waitingPlays: Set<Cursor> = []
    var bufferingPlay: Cursor?
    var bufferEmpty = false
    /// Every item is outside its schedule: playback waits, to go on from this play (or the first open one
    /// after it) when a window opens (see EngineState+Schedule).
    var scheduleWait: Cursor?
    /// A synchronized start waiting for its instant (see EngineState+SyncStart).
    var scheduledStart: ScheduledStart?
    /// Items played now, outside the queue, and where the queue resumes after them (see EngineState+Interrupt).
    var interruptions = Interruptions()
    /// Layers drawn above the video; the presenter thread draws a copy (see EngineState+Overlays).
    var overlays = OverlaySet()
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

    init(
        queue: PlayQueue, sampleRate: Int, untimed: Bool = false, progressInterval: Double = 1,
        localClock: LocalClock = .system
    ) {
        self.queue = queue
        self.localClock = localClock
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
        describeCurrentItem(in: &updated)
        guard updated != status else { return }
        if updated.state != status.state { wakeWaiters = true }
        status = updated
        emit(.statusChanged(updated))
    }

    /// Fills in the title, uri and loop count of the status's current item from the queue (or the interrupt).
    func describeCurrentItem(in status: inout PlayerStatus) {
        let interrupt = status.currentID.flatMap { interruptions.known[$0] }
        let item = interrupt?.item ?? status.currentID.flatMap { queue.entry($0)?.item }
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
        if let now = currentPlay(heard: heard) {
            status.currentID = now.cursor.id
            status.play = now.cursor.play
            status.position = now.position
            status.duration = now.duration ?? queue.entry(now.cursor.id)?.knownDuration
        }
        describeCurrentItem(in: &status)
        return status
    }

    // MARK: What is current

    /// The segment the listener is in now: started and not yet ended.
    var audibleSegment: Segment? {
        segments.first { $0.announcedStart && !$0.announcedEnd }
    }

    /// Seconds into the segment's item when the listener is at timeline frame `heard`.
    func position(in segment: Segment, heard: Int64) -> Double {
        let end = segment.endFrame ?? Int64.max
        return segment.itemOffset + Double(min(max(heard, segment.startFrame), end) - segment.startFrame) / sampleRate
            * segment.rate
    }

    /// The play commands act on, with its position: the one heard now, else the one about to start
    /// (right after a cut, before its first sound or picture).
    func currentPlay(heard: Int64) -> (cursor: Cursor, position: Double, duration: Double?)? {
        if let segment = audibleSegment {
            return (segment.cursor, position(in: segment, heard: heard), segment.duration)
        }
        // Not a play that failed without reaching the timeline: that one is only about to be reported.
        if let segment = segments.first(where: {
            $0.serial == serial && !($0.failure != nil && $0.endFrame == $0.startFrame)
        }) {
            return (segment.cursor, segment.itemOffset, segment.duration)
        }
        if let request = startRequest { return (request.cursor, request.position, nil) }
        return nil
    }

    /// The play that `next`/`previous`/`stop` refer to: the one heard now, else the one about to start.
    var referenceCursor: Cursor? {
        startedPlay ?? audibleSegment?.cursor ?? startRequest?.cursor ?? segments.first?.cursor ?? upcoming
    }
}
