// Dayparting: when an item may play, in the box's local wall-clock time. Pure values and integer calendar
// arithmetic (proleptic Gregorian), no Foundation and no clock: the caller turns an instant into a
// `LocalDateTime` with the box's time zone and turns the answers back into instants (which is where
// daylight-saving gaps are the caller's to resolve). Any thread.

/// A day of the week, named as the protocol names them.
public enum Weekday: String, Sendable, Codable, CaseIterable {
    case mon, tue, wed, thu, fri, sat, sun
}

/// A calendar date (year, month 1...12, day 1...31), comparable and countable in days.
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Nil unless the date exists (no 31 April, 29 February only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// "YYYY-MM-DD".
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((dayNumber % 7) + 7 + 3) % 7
        return Weekday.allCases[index]
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A wall-clock time of day as minutes after midnight, 0...1440 ("24:00" ends a day).
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var minutes: Int

    public init?(minutes: Int) {
        guard (0...1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// "HH:MM", 00:00 to 24:00.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
            let minutes = Int(parts[1]), (0...24).contains(hours), (0...59).contains(minutes)
        else { return nil }
        self.init(minutes: hours * 60 + minutes)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }

    public var description: String {
        let (hours, minutes) = (self.minutes / 60, self.minutes % 60)
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}

/// A local date and minute of the day (0..<1440): what a wall clock in the box's time zone shows.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: CivilDate
    public var minute: Int

    public init(date: CivilDate, minute: Int) {
        // Normalised so that 24:00 is the next day's 00:00.
        let carried = minute.quotientAndRemainder(dividingBy: 1440)
        let borrow = carried.remainder < 0 ? 1 : 0
        self.date = date.adding(days: carried.quotient - borrow)
        self.minute = carried.remainder + borrow * 1440
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date.dayNumber, lhs.minute) < (rhs.date.dayNumber, rhs.minute)
    }

    public var description: String { "\(date) \(TimeOfDay(minutes: minute)!)" }
}

/// When an item may play: on `days` (all when nil), from `from` until `until` (the whole day when both are
/// nil; a window whose `until` is not after its `from` runs past midnight into the next day), on dates from
/// `start` to `end` inclusive. Days and dates are those on which a window opens: `fri` 22:00–02:00 plays
/// from Friday 22:00 to Saturday 02:00.
public struct ItemSchedule: Sendable, Hashable {
    public var days: Set<Weekday>?
    public var from: TimeOfDay?
    public var until: TimeOfDay?
    public var start: CivilDate?
    public var end: CivilDate?

    public init(
        days: Set<Weekday>? = nil, from: TimeOfDay? = nil, until: TimeOfDay? = nil, start: CivilDate? = nil,
        end: CivilDate? = nil
    ) {
        self.days = days
        self.from = from
        self.until = until
        self.start = start
        self.end = end
    }

    /// How far `nextOpening` and `closing` look: a little over a year covers every weekly and dated window.
    public static let searchDays = 400

    private var opensAt: Int { from?.minutes ?? 0 }
    private var closesAt: Int { until?.minutes ?? 1440 }
    /// Whether a window runs past midnight (`until` not after `from`).
    private var crossesMidnight: Bool { closesAt <= opensAt }

    /// Whether a window opens on `date`.
    public func opens(on date: CivilDate) -> Bool {
        (days?.contains(date.weekday) ?? true) && (start.map { date >= $0 } ?? true) && (end.map { date <= $0 } ?? true)
    }

    /// Whether the item may play at `time`.
    public func isOpen(at time: LocalDateTime) -> Bool {
        if !crossesMidnight {
            return opens(on: time.date) && time.minute >= opensAt && time.minute < closesAt
        }
        return (opens(on: time.date) && time.minute >= opensAt)
            || (opens(on: time.date.adding(days: -1)) && time.minute < closesAt)
    }

    /// `time` itself when open then, else the next time a window opens; nil when none opens within
    /// `searchDays` (an `end` date passed, or no day named can ever match).
    public func nextOpening(after time: LocalDateTime) -> LocalDateTime? {
        if isOpen(at: time) { return time }
        for offset in 0...Self.searchDays {
            let day = time.date.adding(days: offset)
            guard opens(on: day) else { continue }
            let opening = LocalDateTime(date: day, minute: opensAt)
            if opening > time { return opening }
        }
        return nil
    }

    /// When the window open at `time` closes, windows that follow without a gap counted as one (every day
    /// all day closes only at `end`); nil when closed at `time`, or open for all of `searchDays`.
    public func closing(after time: LocalDateTime) -> LocalDateTime? {
        guard isOpen(at: time) else { return nil }
        var day =
            crossesMidnight && !(opens(on: time.date) && time.minute >= opensAt)
            ? time.date.adding(days: -1) : time.date
        for _ in 0...Self.searchDays {
            let close = LocalDateTime(date: day, minute: crossesMidnight ? 1440 + closesAt : closesAt)
            if !isOpen(at: close) { return close }
            day = day.adding(days: 1)
        }
        return nil
    }
}

// The protocol's shape, also the state files' (days as names, "HH:MM", "YYYY-MM-DD"; absent fields unset),
// so a schedule reads the same on the wire, in playlists and on disk.
extension ItemSchedule: Codable {
    private enum CodingKeys: String, CodingKey { case days, from, until, start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func parsed<T>(_ key: CodingKeys, _ parse: (String) -> T?) throws -> T? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let value = parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "bad \(key): \(text)")
            }
            return value
        }
        days = try container.decodeIfPresent([Weekday].self, forKey: .days).map(Set.init)
        from = try parsed(.from, TimeOfDay.init(parsing:))
        until = try parsed(.until, TimeOfDay.init(parsing:))
        start = try parsed(.start, CivilDate.init(parsing:))
        end = try parsed(.end, CivilDate.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(sortedDays, forKey: .days)
        try container.encodeIfPresent(from?.description, forKey: .from)
        try container.encodeIfPresent(until?.description, forKey: .until)
        try container.encodeIfPresent(start?.description, forKey: .start)
        try container.encodeIfPresent(end?.description, forKey: .end)
    }

    /// `days` in week order (Monday first), for output.
    public var sortedDays: [Weekday]? {
        days.map { days in Weekday.allCases.filter { days.contains($0) } }
    }
}
