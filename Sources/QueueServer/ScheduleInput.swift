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
