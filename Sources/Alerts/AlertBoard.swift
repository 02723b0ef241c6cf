// Alerts (`alert.raise`, `alert.clear`, `alert.list`): messages that take the whole screen above the queue,
// schedules, interrupts and dayparting until they are withdrawn or expire. This file is the pure part: which
// alerts stand, which one is on screen, which have expired by the wall clock. No I/O, no clock of its own.

import JSONText

/// One alert as raised, and as kept in the alert file.
public struct Alert: Sendable, Equatable {
    /// The caller's name for it; raising the same id again replaces it.
    public var id: String
    /// What plays while it is on screen, as `queue.add` takes items (kept as sent, read again at start).
    public var items: [JSONValue]
    /// A message drawn over the whole screen (above the items if there are any).
    public var text: String?
    /// Higher is shown first; equal priorities: the one raised last.
    public var priority: Int
    /// When it ends by itself, seconds since 1970 (UTC); nil: only `alert.clear` ends it.
    public var expires: Double?
    /// When it was raised, seconds since 1970.
    public var raisedAt: Double

    public init(id: String, items: [JSONValue], text: String?, priority: Int, expires: Double?, raisedAt: Double) {
        (self.id, self.items, self.text, self.priority, self.expires, self.raisedAt) = (id, items, text, priority, expires, raisedAt)
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "items": .array(items), "priority": .int(Int64(priority)), "raisedAt": .double(raisedAt),
        ]
        if let text { object["text"] = .string(text) }
        if let expires { object["expires"] = .double(expires) }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let priority = json["priority"]?.intValue,
            let raisedAt = json["raisedAt"]?.doubleValue
        else { return nil }
        self.init(
            id: id, items: json["items"]?.arrayValue ?? [], text: json["text"]?.stringValue, priority: Int(priority),
            expires: json["expires"]?.doubleValue, raisedAt: raisedAt)
    }

    func hasExpired(at now: Double) -> Bool { expires.map { $0 <= now } ?? false }
}

/// The alerts standing now. A value: the controller owns one under its lock and acts on what it returns.
public struct AlertBoard: Sendable, Equatable {
    public private(set) var alerts: [String: Alert] = [:]

    public init(_ alerts: [Alert] = []) {
        for alert in alerts { self.alerts[alert.id] = alert }
    }

    /// Adds or replaces `alert`; false when it has already expired (then nothing changes).
    public mutating func raise(_ alert: Alert, now: Double) -> Bool {
        guard !alert.hasExpired(at: now) else { return false }
        alerts[alert.id] = alert
        return true
    }

    /// Removes the alert `id`; false when there was none.
    public mutating func clear(_ id: String) -> Bool { alerts.removeValue(forKey: id) != nil }

    /// Removes and returns every alert whose time has come.
    public mutating func expire(now: Double) -> [Alert] {
        let gone = alerts.values.filter { $0.hasExpired(at: now) }
        for alert in gone { alerts[alert.id] = nil }
        return gone.sorted { $0.id < $1.id }
    }

    /// The alert on screen: the highest priority, then the latest raised, then the smallest id.
    public var active: Alert? {
        alerts.values.max { a, b in
            if a.priority != b.priority { return a.priority < b.priority }
            if a.raisedAt != b.raisedAt { return a.raisedAt < b.raisedAt }
            return a.id > b.id
        }
    }

    /// The alerts in the order they would be shown.
    public var ordered: [Alert] {
        alerts.values.sorted { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if a.raisedAt != b.raisedAt { return a.raisedAt > b.raisedAt }
            return a.id < b.id
        }
    }

    /// The soonest expiry, if any alert has one.
    public var nextExpiry: Double? { alerts.values.compactMap(\.expires).min() }
}
