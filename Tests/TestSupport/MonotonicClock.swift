// CLOCK_MONOTONIC readings for measuring latencies and deadlines in tests (wall-clock time can
// jump; the monotonic clock cannot).

import Glibc

public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot), never going backwards.
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The same reading in seconds.
    public static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }
}
