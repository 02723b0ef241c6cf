// Clocks the engine reads: the monotonic clock for timing, the wall clock for proof-of-play timestamps.
import Glibc

public enum Monotonic {
    /// Seconds on CLOCK_MONOTONIC.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds since the Unix epoch.
    public static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
