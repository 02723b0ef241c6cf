// The box's local wall-clock time, for dayparting: an instant (seconds since the Unix epoch) read from
// `now` and shown in `timeZone`, and a local time turned back into an instant. Injectable: tests pass a
// `now` they move by hand and a fixed zone, so schedule tests need no waiting. Any thread.

import FoundationEssentials
import Glibc
import SystemSupport
import QueueModel
import SystemClock

public struct LocalClock: Sendable {
    /// Seconds since the Unix epoch, now (CLOCK_REALTIME unless injected).
    public var now: @Sendable () -> Double
    /// Gregorian, in the box's zone; built once (every schedule decision and queue row reads through it).
    private let calendar: Calendar

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Double = { Monotonic.wallClock() }) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The system's clock in the box's zone (`TZ`, else /etc/localtime).
    public static var system: LocalClock { LocalClock() }

    /// The wall clock's date and minute at `instant` (seconds dropped: schedules are to the minute).
    public func localTime(at instant: Double) -> LocalDateTime {
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: instant))
        let date =
            CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CivilDate(dayNumber: 0)
        return LocalDateTime(date: date, minute: (parts.hour ?? 0) * 60 + (parts.minute ?? 0))
    }

    public func localTime() -> LocalDateTime { localTime(at: now()) }

    /// The instant the wall clock shows `time`; in a daylight-saving gap (a time that is never shown), the
    /// first instant after it.
    public func instant(of time: LocalDateTime) -> Double {
        var parts = DateComponents()
        parts.year = time.date.year
        parts.month = time.date.month
        parts.day = time.date.day
        parts.hour = time.minute / 60
        parts.minute = time.minute % 60
        if let date = calendar.date(from: parts) { return date.timeIntervalSince1970 }
        // No such wall time (skipped by a clock change): the day's start plus the minutes, as UTC would count.
        let midnight = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(time.date.dayNumber) * 86_400))
        return midnight.timeIntervalSince1970 + Double(time.minute * 60)
    }

}
