// Local wall-clock time as HH:MM:SS for `queuectl watch` lines. Glibc's localtime_r instead of Foundation
// (queuectl links no Foundation); kept apart from EventLine so that formatting stays pure.

import Glibc

public enum WallClock {
    /// Seconds since the Unix epoch, now.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

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
