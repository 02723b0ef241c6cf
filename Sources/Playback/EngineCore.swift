// The state every engine thread shares — queue, status, timeline, picture queue — behind one lock, and
// the ordered delivery of events. Commands (any thread), the decode thread and the presenter thread all
// go through `locked`; events raised inside are delivered after the lock is released but before any
// later event, so observers see them in the order they happened.
//
// The lock (`condition`) protects `shared` and nothing else. Rules:
// - Nothing under it waits for a device or a server: no PulseAudio round trip, no SDL call, no file I/O.
//   Sinks are only asked things that return at once (`requestFlush`, `setPaused`, `playedFrames`,
//   `setVolume`); the waiting halves (`flush`, `write`, `drain`) run on the decode thread, unlocked.
// - Lock order: the engine lock, then libpulse's mainloop lock (taken inside those sink calls). Nothing
//   that holds the mainloop lock ever takes the engine lock (libpulse's callbacks never call the engine).
// - Functions named `…Locked` expect the lock held (they take `inout Shared`); the rest take it themselves.
import DequeModule
import Foundation
import Logging
import QueueModel

final class EngineCore: @unchecked Sendable {
    struct Shared {
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
        /// Video settings waiting for the presenter thread, which alone may talk to the video sink.
        var pendingFit: VideoFit?
        var pendingFullscreen: Bool?
        var events: [PlayerEvent] = []
        /// Something a waiting thread acts on changed (a cut, pictures queued or taken, the state, video
        /// settings, shutdown): wake the waiters at unlock. Reads and plain queue edits don't, so a
        /// client polling the status costs the playback threads nothing.
        var wakeWaiters = false
    }

    let condition = NSCondition()
    /// Guarded by `condition`.
    var shared: Shared
    private let deliveryLock = NSLock()
    private let observer: @Sendable (PlayerEvent) -> Void
    let logger: Logger

    init(queue: PlayQueue, logger: Logger, observer: @escaping @Sendable (PlayerEvent) -> Void) {
        shared = Shared(queue: queue)
        shared.status.queueLoops = queue.loops
        shared.status.queueVersion = queue.version
        self.logger = logger
        self.observer = observer
    }

    /// Runs `body` under the lock, wakes waiting threads, then delivers the events it raised in order.
    @discardableResult
    func locked<R>(_ body: (inout Shared) throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body(&shared)
    }

    func lock() { condition.lock() }

    /// Wakes waiting threads if asked to, releases the lock, then delivers the events raised while it
    /// was held. The delivery lock is taken before the state lock is released, so a later batch can
    /// never overtake this one.
    func unlock() {
        if shared.wakeWaiters {
            shared.wakeWaiters = false
            condition.broadcast()
        }
        let events = shared.events
        guard !events.isEmpty else {
            condition.unlock()
            return
        }
        shared.events.removeAll()
        deliveryLock.lock()
        condition.unlock()
        for event in events { observer(event) }
        deliveryLock.unlock()
    }

    /// Waits for a change (the caller holds the lock), at most `timeout` seconds.
    func wait(timeout: Double) {
        _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
    }
}

extension EngineCore.Shared {
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
        events.append(.statusChanged(updated))
    }

    /// Fills in the title, uri and loop count of the status's current item from the queue.
    func describeCurrentItem(in status: inout PlayerStatus) {
        let entry = status.currentID.flatMap { queue.entry($0) }
        status.title = entry?.item.title
        status.uri = entry?.item.uri
        status.loops = entry?.item.loops
    }

    /// Raises `queueChanged` when the queue's version moved.
    mutating func noteQueueChange(from version: UInt64) {
        guard queue.version != version else { return }
        events.append(.queueChanged(version: queue.version))
        updateStatus { _ in }
    }
}
