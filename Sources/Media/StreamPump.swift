// A stream's reader thread: it reads packets as the network delivers them (reconnecting through drops, see
// Demuxer+Stream) into a queue the decode thread takes them from. So the network never waits for the sound
// card (a UDP socket's buffer does not overflow, a TCP sender is not held back), and what arrived and is
// not played yet is in sight: the queue's depth is the stream's latency, which DriftCorrector keeps within
// its band. The queue holds at most `capacity` seconds (a paused play): then the reader waits for room,
// and the backlog is the network's again, as without the pump.
// A stream prepared ahead of its turn reads from then on (its connection drained, its first picture ready
// at the join) but keeps only its last `preroll` seconds from a keyframe: it starts that far behind its live
// edge, not as far as it waited (`trimmedTo` tells the reader where it now starts).
//
// The reader thread owns the demuxer's connection side (LiveStream, its contexts); the decode thread owns
// everything else and only takes packets here. `stop()` (decode thread) ends the reader and waits for it:
// after that the decode thread may touch the stream again (closing it).

import CFFmpeg
import DequeModule
import SystemSupport

final class StreamPump: @unchecked Sendable {
    /// A packet and whether the connection restarted before it (the decoders start again).
    struct Delivery {
        let packet: Packet
        var restarted: Bool
        /// Where it starts (seconds, the stream's timeline), when its timestamps say.
        let start: Double?
    }

    /// Seconds of packets the queue may hold before the reader waits for room (HLS starts three segments
    /// behind its live edge: up to 30 s).
    static let capacity = 30.0
    /// And bytes, whatever the timestamps say (a hostile stream's could claim no time at all).
    static let byteCapacity = 64 << 20

    private let condition = ThreadCondition()
    /// Guarded by condition: the packets read and not yet taken, with their bytes and the span they cover.
    private var queue = Deque<Delivery>()
    private var queuedBytes = 0
    /// Guarded by condition: where the packets read so far reach (seconds, the stream's timeline), and where
    /// the last one taken starts.
    private var receivedEnd: Double?
    private var takenAt: Double?
    /// Guarded by condition: how the reading ended (nil: still reading). The decode thread gets it once the
    /// queue is empty.
    private var outcome: Result<Void, MediaError>?
    /// Guarded by condition: stop() was called; the reader thread has ended.
    private var stopping = false
    private var readerEnded = false
    /// Guarded by condition: start() ran (a pump never started has no thread to wait for).
    private var started = false
    /// Guarded by condition: a stream prepared ahead keeps only this many seconds, cut at a keyframe of
    /// stream `keyStream` (nil: at any packet), until its first packet is taken.
    private var preroll: (seconds: Double, keyStream: Int?)?
    private var tookAny = false
    /// Guarded by condition: where the packets kept start after the preroll cut some (told once).
    private var trimmedTo: Double?
    /// Guarded by condition: where the play's stream begins (the first packet's start, or where the preroll
    /// cut it): what was taken since is what the play has had.
    private var firstStart: Double?
    /// Guarded by condition: the play's cancellation, given when a reader opened ahead is adopted (until then
    /// only a stop ends its waits).
    private var adoptedCancel: (@Sendable () -> Bool)?

    /// Polled by the stream's interrupt (with the play's own cancellation): a stop, or a cut of the play that
    /// adopted a reader opened ahead, ends a wait at once.
    var isStopping: Bool {
        let (stopped, adopted) = condition.withLock { (stopping, adoptedCancel) }
        return stopped || adopted?() == true
    }

    /// Gives a reader opened ahead the play's cancellation (polled outside the lock: it takes the engine's).
    func adopt(isCancelled: @escaping @Sendable () -> Bool) { condition.withLock { adoptedCancel = isCancelled } }

    /// Seconds of the stream the play has taken (what a duration counts as played), 0 before the first packet.
    var takenSeconds: Double {
        condition.withLock {
            guard let firstStart, let takenAt else { return 0 }
            return max(0, takenAt - firstStart)
        }
    }

    /// Starts the reader thread on `read` (nil: the stream is over; a throw ends it with that error) and
    /// `takeRestarted` (whether the connection restarted since the last call), both run on that thread.
    func start(
        read: @escaping @Sendable () throws(MediaError) -> Packet?, takeRestarted: @escaping @Sendable () -> Bool,
        end: @escaping @Sendable (Packet) -> (start: Double, end: Double)?,
        preroll: (seconds: Double, keyStream: Int?)? = nil
    ) {
        condition.withLock {
            started = true
            self.preroll = preroll
        }
        Threads.start(named: "stream.reader") { [self] in
            let result: Result<Void, MediaError>
            do throws(MediaError) {
                while waitForRoom() {
                    guard let packet = try read() else { break }
                    let restarted = takeRestarted()
                    let span = end(packet)
                    push(Delivery(packet: packet, restarted: restarted, start: span?.start), span: span)
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            condition.withLock {
                if outcome == nil { outcome = result }
                readerEnded = true
                condition.broadcast()
            }
        }
    }

    /// Reader thread: false once stopped; waits while the queue is full.
    private func waitForRoom() -> Bool {
        condition.withLock {
            while !stopping && isFull { condition.wait() }
            return !stopping
        }
    }

    /// Guarded by condition.
    private var isFull: Bool {
        guard !queue.isEmpty else { return false }
        if queuedBytes >= Self.byteCapacity { return true }
        guard let receivedEnd, let takenAt else { return false }
        return receivedEnd - takenAt > Self.capacity
    }

    private func push(_ delivery: Delivery, span: (start: Double, end: Double)?) {
        condition.withLock {
            queue.append(delivery)
            queuedBytes += Int(delivery.packet.pointer.pointee.size)
            if let span {
                receivedEnd = max(receivedEnd ?? span.end, span.end)
                if takenAt == nil { takenAt = span.start }
                if firstStart == nil { firstStart = span.start }
            }
            if let preroll, !tookAny { trim(keeping: preroll) }
            condition.broadcast()
        }
    }

    /// Guarded by condition: drops what lies before the latest keyframe that still leaves `seconds` queued.
    private func trim(keeping preroll: (seconds: Double, keyStream: Int?)) {
        guard let receivedEnd, queue.count > 1 else { return }
        var cut: Int?
        for index in stride(from: queue.count - 1, to: 0, by: -1) {
            let delivery = queue[index]
            guard let start = delivery.start, receivedEnd - start >= preroll.seconds else { continue }
            let key = delivery.packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
            guard key, preroll.keyStream == nil || preroll.keyStream == delivery.packet.streamIndex else { continue }
            cut = index
            break
        }
        guard let cut else { return }
        var restarted = false
        for index in 0..<cut {
            queuedBytes -= Int(queue[index].packet.pointer.pointee.size)
            restarted = restarted || queue[index].restarted
        }
        if restarted { queue[cut].restarted = true }  // the decoders still start again before it
        queue.removeFirst(cut)
        takenAt = queue[0].start
        trimmedTo = queue[0].start
        firstStart = queue[0].start
    }

    /// Decode thread: the next packet, waiting for it; nil when the stream is over. Throws the reader's
    /// error (an interrupt, a fused playlist) once the packets before it are taken, and "interrupted" at a
    /// stop or when the play that adopted a reader opened ahead was cut (polled every 0.1 s while it waits).
    func next() throws(MediaError) -> Delivery? {
        while true {
            let taken = condition.withLock { () -> Result<Delivery?, MediaError>? in
                if queue.isEmpty && outcome == nil { condition.wait(seconds: 0.1) }
                guard let delivery = queue.popFirst() else {
                    guard let outcome else { return nil }  // still reading: poll the cut, wait again
                    if case .failure(let error) = outcome { return .failure(error) }
                    return .success(nil)
                }
                tookAny = true
                queuedBytes -= Int(delivery.packet.pointer.pointee.size)
                if let at = delivery.start { takenAt = max(takenAt ?? at, at) }
                condition.broadcast()
                return .success(delivery)
            }
            if let taken { return try taken.get() }
            if isStopping {
                throw MediaError(operation: "read", message: "interrupted")
            }
        }
    }

    /// Decode thread, after its first packet: where the stream now starts when the preroll cut its
    /// beginning (nil otherwise; told once).
    func takeTrimmedStart() -> Double? {
        condition.withLock {
            defer { trimmedTo = nil }
            return trimmedTo
        }
    }

    /// Whether the decode thread has taken every packet read: only then is a wait of the reader for the
    /// network one the listener will hear (the engine's `buffering`).
    var isEmpty: Bool { condition.withLock { queue.isEmpty } }

    /// Where the packets received so far reach (the stream's timeline), nil before the first.
    var received: Double? { condition.withLock { receivedEnd } }

    /// Decode thread (or the reader's owner going away): ends the reader thread, and (`waiting`) waits until
    /// it has — its interrupt sees `isStopping` within a poll (50 ms), a backoff within a slice. Idempotent.
    func stop(waiting: Bool = true) {
        condition.withLock {
            stopping = true
            condition.broadcast()
            while waiting && !readerEnded && started { condition.wait() }
            queue.removeAll()
            queuedBytes = 0
        }
    }
}
