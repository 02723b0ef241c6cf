// Local wall-clock time as HH:MM:SS for `queuectl watch` lines (Glibc's localtime_r: the TZ rules of the
// C library, as `date` shows them); kept apart from EventLine so that formatting stays pure.

import Glibc
import SystemClock

public enum WallClock {
    /// Seconds since the Unix epoch, now.
    public static func now() -> Double { Monotonic.wallClock() }

    /// "HH:MM:SS" in the local time zone (TZ, /etc/localtime) for a Unix time.
    public static func localTime(_ unixTime: Double) -> String {
        var seconds = time_t(unixTime.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "--:--:--" }
        return [parts.tm_hour, parts.tm_min, parts.tm_sec]
            .map { $0 < 10 ? "0\($0)" : "\($0)" }
            .joined(separator: ":")
    }
}
