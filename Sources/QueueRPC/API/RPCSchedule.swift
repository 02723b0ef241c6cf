// An item's `schedule` (components/schemas/Schedule): the days, the daily window and the dates it may
// play in. Checked here for shape (an object of strings, known fields); whether "fri", "25:00" or
// "2026-02-30" exists is the queue model's to say (Weekday, ItemSchedule's parsers), and the server names
// the param when it does not.

public struct RPCSchedule: Sendable, Equatable {
    public static let fields: Set<String> = ["days", "from", "until", "start", "end"]

    /// Day names ("mon"…"sun"); nil = every day.
    public var days: [String]?
    /// "HH:MM", local time; nil = from midnight / until midnight.
    public var from: String?
    public var until: String?
    /// "YYYY-MM-DD", inclusive; nil = no limit.
    public var start: String?
    public var end: String?

    public init(
        days: [String]? = nil, from: String? = nil, until: String? = nil, start: String? = nil, end: String? = nil
    ) {
        self.days = days
        self.from = from
        self.until = until
        self.start = start
        self.end = end
    }

    /// Strict decoding; `name` is the param's place ("items[0].schedule").
    public init(json value: JSONValue, name: String) throws(RPCError) {
        guard let object = value.objectValue else {
            throw .invalidParams(param: name, reason: "must be an object with days, from, until, start or end")
        }
        if let unknown = object.keys.first(where: { !Self.fields.contains($0) }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        func text(_ key: String, _ form: String) throws(RPCError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.stringValue else {
                throw .invalidParams(param: "\(name).\(key)", reason: "must be \(form)")
            }
            return text
        }
        if let value = object["days"], !value.isNull {
            let names = value.arrayValue?.compactMap(\.stringValue)
            guard let names, names.count == value.arrayValue?.count else {
                throw .invalidParams(param: "\(name).days", reason: "must be a list of day names (mon … sun)")
            }
            days = names
        }
        from = try text("from", "a time \"HH:MM\"")
        until = try text("until", "a time \"HH:MM\"")
        start = try text("start", "a date \"YYYY-MM-DD\"")
        end = try text("end", "a date \"YYYY-MM-DD\"")
    }

    /// The fields that are set.
    public var json: JSONValue {
        var object = JSONObject()
        object.setIfPresent("days", days.map { .array($0.map(JSONValue.string)) })
        object.setIfPresent("from", from.map(JSONValue.string))
        object.setIfPresent("until", until.map(JSONValue.string))
        object.setIfPresent("start", start.map(JSONValue.string))
        object.setIfPresent("end", end.map(JSONValue.string))
        return .object(object)
    }

    /// Lenient decoding for clients: nil unless an object.
    public init?(lenient value: JSONValue) {
        guard let object = value.objectValue else { return nil }
        days = object["days"]?.arrayValue?.compactMap(\.stringValue)
        from = object["from"]?.stringValue
        until = object["until"]?.stringValue
        start = object["start"]?.stringValue
        end = object["end"]?.stringValue
    }
}

// A playlist's form (`#EXTQUEUED:schedule=days=mon,fri;from=09:00;until=17:00`): written by `queuectl
// save`, read by the server's playlist expansion.
extension RPCSchedule {
    /// "days=mon,fri;from=09:00;…", the fields that are set.
    public var playlistText: String {
        var parts: [String] = []
        if let days { parts.append("days=" + days.joined(separator: ",")) }
        if let from { parts.append("from=" + from) }
        if let until { parts.append("until=" + until) }
        if let start { parts.append("start=" + start) }
        if let end { parts.append("end=" + end) }
        return parts.joined(separator: ";")
    }

    /// The fields of `playlistText`; nil naming nothing it knows (the caller reports the line).
    public init?(playlistText text: String) {
        self.init()
        for part in text.split(separator: ";") {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let key = Self.trimmed(part[..<equals])
            let value = Self.trimmed(part[part.index(after: equals)...])
            switch key {
            case "days": days = value.split(separator: ",").map { Self.trimmed($0[...]) }
            case "from": from = value
            case "until": until = value
            case "start": start = value
            case "end": end = value
            default: return nil
            }
        }
    }

    /// Without spaces at either end (QueueRPC does without Foundation).
    private static func trimmed<S: StringProtocol>(_ text: S) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
