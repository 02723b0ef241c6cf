// An item's schedule from the wire or a playlist into the queue model's ItemSchedule, with the param named
// when a time, date or day does not exist ("items[0].schedule.from: must be a time 00:00…24:00").

import QueueModel
import QueueRPC

enum ScheduleInput {
    static func itemSchedule(_ input: RPCSchedule, param: String) throws(RPCError) -> ItemSchedule {
        func parsed<T>(_ text: String?, _ key: String, _ form: String, _ parse: (String) -> T?) throws(RPCError) -> T? {
            guard let text else { return nil }
            guard let value = parse(text) else {
                throw .invalidParams(param: "\(param).\(key)", reason: "must be \(form) (got \(text))")
            }
            return value
        }
        var days: Set<Weekday>?
        if let names = input.days {
            var set = Set<Weekday>()
            for name in names {
                guard let day = Weekday(rawValue: name) else {
                    let all = Weekday.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidParams(param: "\(param).days", reason: "must be a list of \(all) (got \(name))")
                }
                set.insert(day)
            }
            days = set
        }
        let schedule = ItemSchedule(
            days: days,
            from: try parsed(input.from, "from", "a time HH:MM from 00:00 to 24:00", TimeOfDay.init(parsing:)),
            until: try parsed(input.until, "until", "a time HH:MM from 00:00 to 24:00", TimeOfDay.init(parsing:)),
            start: try parsed(input.start, "start", "an existing date YYYY-MM-DD", CivilDate.init(parsing:)),
            end: try parsed(input.end, "end", "an existing date YYYY-MM-DD", CivilDate.init(parsing:)))
        if let start = schedule.start, let end = schedule.end, end < start {
            throw .invalidParams(param: "\(param).end", reason: "must not be before start (\(start))")
        }
        return schedule
    }

    /// The wire form of a stored schedule (queue.list, queue.get).
    static func wire(_ schedule: ItemSchedule) -> RPCSchedule {
        RPCSchedule(
            days: schedule.sortedDays?.map(\.rawValue), from: schedule.from?.description,
            until: schedule.until?.description, start: schedule.start?.description, end: schedule.end?.description)
    }
}

/// `--display-schedule` (issue 28): the windows when the screen is on, each in a playlist's schedule form,
/// separated by "|": "days=mon,tue,wed,thu,fri;from=07:00;until=22:00 | days=sat;from=09:00;until=18:00".
/// One value, not a repeated option, so that the command line replaces a config file's as every option does.
public enum DisplayScheduleInput {
    /// The schedule; an error names the window ("display-schedule[2].from") and says what is wrong.
    public static func parse(_ text: String) throws(RPCError) -> DisplaySchedule {
        var windows: [ItemSchedule] = []
        for (index, part) in text.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            let param = "display-schedule[\(index + 1)]"
            let words = String(part).trimmingSpacesForSchedule()
            guard !words.isEmpty, let input = RPCSchedule(playlistText: words) else {
                throw .invalidParams(
                    param: param, reason: "must be fields such as days=mon,tue;from=07:00;until=22:00 (got \"\(words)\")")
            }
            windows.append(try ScheduleInput.itemSchedule(input, param: param))
        }
        return DisplaySchedule(windows: windows)
    }
}

extension String {
    fileprivate func trimmingSpacesForSchedule() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
