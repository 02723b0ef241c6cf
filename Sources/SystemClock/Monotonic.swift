// The one clock helper of every module: the monotonic clock for timing and deadlines (a wall-clock step
// from NTP or a user can neither cut a wait short nor stretch it), the wall clock for timestamps.

import Glibc

public enum Monotonic {
    /// Seconds on CLOCK_MONOTONIC.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Nanoseconds on CLOCK_MONOTONIC.
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds since the Unix epoch.
    public static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
