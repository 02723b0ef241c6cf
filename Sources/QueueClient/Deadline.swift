// A point on the monotonic clock that a blocking client call must finish by. Monotonic so that a wall
// clock step (NTP, a user setting the date) can neither cut a wait short nor stretch it.

import SystemClock

struct Deadline {
    /// CLOCK_MONOTONIC seconds at which the wait ends; nil waits forever.
    let instant: Double?
    /// The timeout this deadline was made from, reported in ClientError.timeout.
    let seconds: Double?

    init(timeout: Double?) {
        seconds = timeout
        instant = timeout.map { Deadline.now() + max(0, $0) }
    }

    static func now() -> Double { Monotonic.now() }

    /// Milliseconds left for poll(2): -1 (forever) without a deadline, 0 once it has passed.
    var pollMilliseconds: Int32 {
        guard let instant else { return -1 }
        let left = (instant - Deadline.now()) * 1000
        if left <= 0 { return 0 }
        // Round up so a 0.4 ms remainder still waits instead of spinning with 0.
        return Int32(min(left.rounded(.up), Double(Int32.max)))
    }

    var hasPassed: Bool {
        guard let instant else { return false }
        return Deadline.now() >= instant
    }
}
