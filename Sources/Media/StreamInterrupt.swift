// The one thing that bounds every wait inside FFmpeg's own protocols (connect, read, an HLS playlist's
// reload, RTSP's teardown): AVFormatContext's interrupt callback, which FFmpeg polls every ~100 ms in those
// loops. It answers "stop" once the deadline the reader armed has passed or the play was cancelled (skip,
// stop, shutdown). FFmpeg's error codes do not say which (our deadline surfaces as "Immediate exit
// requested", "Invalid data" or "End of file"), so `why` keeps it.
//
// Threads: armed and read by the decode thread; the callback runs on FFmpeg's threads too (UDP's receiver),
// hence the lock. `isCancelled` (it takes the engine's lock) is polled at most every 50 ms.

import CFFmpeg
import SystemClock
import SystemSupport

final class StreamInterrupt: @unchecked Sendable {
    enum Reason: Equatable { case deadline, cancelled }

    private let lock = ThreadLock()
    /// Guarded by `lock`. Monotonic seconds; past it every wait ends.
    private var deadline = Double.infinity
    /// Guarded by `lock`.
    private var reason: Reason?
    /// Guarded by `lock`. The last reason any wait was cut short, kept across `arm`s.
    private var lastCut: Reason?
    private var lastPoll = -Double.infinity
    /// Guarded by `lock`. When the current wait began, and when the engine was last told it goes on.
    private var armedAt = Double.infinity
    private var toldWaiting = -Double.infinity
    private var waiting = false
    private let isCancelled: (@Sendable () -> Bool)?
    /// Told `true` (every few tenths) once a wait lasts beyond `waitingAfter`, `false` when it ends: the
    /// engine's `buffering`, so that its stall watchdog leaves a slow stream to this deadline.
    /// Guarded by `lock`.
    private var onWaiting: (@Sendable (Bool) -> Void)?
    static let waitingAfter = 0.5

    init(isCancelled: (@Sendable () -> Bool)?) {
        self.isCancelled = isCancelled
    }

    func reportWaits(to onWaiting: (@Sendable (Bool) -> Void)?) { lock.withLock { self.onWaiting = onWaiting } }

    /// Waits from now on end `seconds` from now (a connect, a read).
    func arm(_ seconds: Double) {
        lock.withLock {
            let now = Monotonic.now()
            deadline = now + seconds
            armedAt = now
            reason = nil
        }
    }

    /// The wait is over (a packet came, or the read failed): the engine hears so if it heard of the wait.
    func endWait() {
        let told = lock.withLock { () -> (@Sendable (Bool) -> Void)? in
            defer { waiting = false }
            armedAt = .infinity
            return waiting ? onWaiting : nil
        }
        told?(false)
    }

    /// Every wait ends at once (before closing: RTSP's teardown must not wait on a dead peer).
    func expire() { lock.withLock { deadline = -.infinity } }

    /// Why the current wait was cut short (nil: FFmpeg's own error) — or an earlier one: a cut-short read
    /// leaves its error on the connection's I/O context, and the next read fails with it at once.
    var why: Reason? { lock.withLock { reason ?? lastCut } }

    /// Cancelled now (polled by the reconnect wait as well).
    func cancelledNow() -> Bool {
        guard let isCancelled, isCancelled() else { return false }
        lock.withLock {
            reason = .cancelled
            lastCut = .cancelled
        }
        return true
    }

    /// FFmpeg's question: stop waiting?
    func shouldStop() -> Bool {
        let now = Monotonic.now()
        let (expired, poll, tell) = lock.withLock { () -> (Bool, Bool, (@Sendable (Bool) -> Void)?) in
            if reason == .cancelled { return (true, false, nil) }
            if now > deadline {
                reason = reason ?? .deadline
                lastCut = reason
                return (true, false, nil)
            }
            let poll = now - lastPoll >= 0.05
            if poll { lastPoll = now }
            guard let onWaiting, now - armedAt >= Self.waitingAfter, now - toldWaiting >= 0.3 else {
                return (false, poll, nil)
            }
            toldWaiting = now
            waiting = true
            return (false, poll, onWaiting)
        }
        if expired { return true }
        tell?(true)
        return poll && cancelledNow()
    }

    /// The callback to set on a context before it opens; valid while this object lives (the demuxer keeps
    /// it beyond its context).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<StreamInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
