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

    // MARK: The request fuse (HLS, DASH)

    /// FFmpeg's own `io_open`, called by ours for every playlist and segment request.
    var originalOpen: (@convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
        UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32)?
    /// Guarded by `lock`. When the recent requests were made (monotonic seconds), oldest first.
    private var requestTimes: [Double] = []
    /// Guarded by `lock`. Set once the fuse blew: every later request is refused.
    private(set) var fused = false
    /// More requests than this within `fuseWindow` is a loop, not playback: FFmpeg's DASH reader, with no
    /// SegmentTimeline, walks segment numbers on 404s by the thousand a second, and a hostile playlist can
    /// name thousands of segments; a real player's opening (a master playlist, a playlist and a segment per
    /// variant) makes a few dozen.
    static let fuseRequests = 60
    static let fuseWindow = 2.0

    /// Counts one request; false once the fuse blew (the request is refused and the read ends).
    func admitRequest() -> Bool {
        let now = Monotonic.now()
        return lock.withLock {
            guard !fused else { return false }
            requestTimes.append(now)
            requestTimes.removeAll { $0 < now - Self.fuseWindow }
            if requestTimes.count > Self.fuseRequests {
                fused = true
                return false
            }
            return true
        }
    }

    /// Our `io_open` for HLS and DASH: every request a playlist makes goes through the fuse first.
    /// `context.opaque` is this object (set with the callback).
    static let fusedOpen: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
        UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { context, pb, url, flags, options in
        guard let context, let opaque = context.pointee.opaque else { return -EPERM }
        let interrupt = Unmanaged<StreamInterrupt>.fromOpaque(opaque).takeUnretainedValue()
        guard interrupt.admitRequest(), let original = interrupt.originalOpen else { return AVCodes.exit }
        return original(context, pb, url, flags, options)
    }

    /// Puts `context`'s requests through the fuse (before the open; valid while this object lives).
    func guardRequests(of context: UnsafeMutablePointer<AVFormatContext>) {
        originalOpen = context.pointee.io_open
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = Self.fusedOpen
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
