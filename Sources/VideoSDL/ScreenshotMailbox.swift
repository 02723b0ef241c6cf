// Carries screenshot requests from any thread (the RPC side) to the presenter thread and the read-back
// pixels back. Requesters block in `request` for at most their timeout; the presenter thread answers all
// pending requests at once from `show` or `pump`. Never holds the lock while SDL or PNG work runs.

import FoundationEssentials
import Glibc
import SystemClock
import SystemSupport

/// Pixels read back from the renderer: `width * height * 4` bytes, R,G,B,A.
struct Readback: Sendable {
    var width: Int
    var height: Int
    var rgba: [UInt8]
}

final class ScreenshotMailbox: @unchecked Sendable {
    /// One waiting requester. Fields guarded by `condition`.
    private final class Ticket {
        var answered = false
        var readback: Readback?
    }

    private let condition = ThreadCondition()
    /// Guarded by `condition`.
    private var pending: [Ticket] = []
    /// Guarded by `condition`: the thread that owns the sink between `open` and `close`, else nil.
    private var owner: pthread_t?

    /// Presenter thread, at open: requests are accepted from now on.
    func open(owner thread: pthread_t) {
        condition.withLock { owner = thread }
    }

    /// Presenter thread, at close: refuses new requests and answers waiting ones with nil.
    func close() {
        condition.withLock { owner = nil }
        answer(nil)
    }

    /// True when the calling thread is the one that opened the sink.
    var callerIsOwner: Bool {
        condition.withLock { owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Cheap check for the presenter thread: does anyone wait for a picture?
    var hasPending: Bool {
        condition.withLock { !pending.isEmpty }
    }

    /// Any thread but the owner: posts a request and waits for the presenter thread's answer. Nil on
    /// timeout, when the sink is not open, or when nothing is on screen.
    func request(timeout seconds: Double) -> Readback? {
        let ticket = Ticket()
        let deadline = Monotonic.now() + seconds
        condition.lock()
        defer { condition.unlock() }
        guard owner != nil else { return nil }
        pending.append(ticket)
        while !ticket.answered {
            if !condition.wait(seconds: deadline - Monotonic.now()) { break }
        }
        if !ticket.answered { pending.removeAll { $0 === ticket } }
        return ticket.readback
    }

    /// Presenter thread: answers every waiting request with `readback`.
    func answer(_ readback: Readback?) {
        condition.withLock {
            for ticket in pending {
                ticket.answered = true
                ticket.readback = readback
            }
            pending.removeAll()
            condition.broadcast()
        }
    }
}
