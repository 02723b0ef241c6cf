// One line per notification for `queuectl watch`:
//   12:00:01 itemStarted #3 play 2
//   12:00:11 itemEnded #3 play 2 eof
// The clock text is passed in (see WallClock) so the formatting is pure and testable in any time zone.

import QueueRPC

public enum EventLine {
    /// `method` as sent ("event.itemStarted"); the "event." prefix is dropped. Unknown events print their
    /// params as JSON, so a newer daemon's events still show up.
    public static func render(method: String, params: JSONValue?, clock: String) -> String {
        let name = method.hasPrefix("event.") ? String(method.dropFirst("event.".count)) : method
        let details = describe(name, params ?? .null)
        return details.isEmpty ? "\(clock) \(name)" : "\(clock) \(name) \(details)"
    }

    static func describe(_ name: String, _ params: JSONValue) -> String {
        switch name {
        case "itemStarted":
            return "\(itemRef(params)) play \(params["play"]?.intValue ?? 0)"
        case "itemEnded":
            var text =
                "\(itemRef(params)) play \(params["play"]?.intValue ?? 0) \(params["reason"]?.stringValue ?? "?")"
            if let error = params["error"]?.stringValue, !error.isEmpty { text += ": \(error)" }
            return text
        case "progress":
            return "\(itemRef(params)) \(times(params)) play \(params["play"]?.intValue ?? 0)"
        case "status":
            return status(params)
        case "queueChanged":
            return "version \(params["version"]?.intValue ?? 0)"
        case "output":
            let message = params["message"]?.stringValue.map { ": \($0)" } ?? ""
            return "\(params["output"]?.stringValue ?? "?") \(params["state"]?.stringValue ?? "?")\(message)"
        default:
            return params == .null ? "" : JSON.string(params)
        }
    }

    static func status(_ params: JSONValue) -> String {
        guard let status = PlayerStatusView(json: params) else { return JSON.string(params) }
        var parts = [status.state]
        if let id = status.currentId { parts.append("#\(id) \(times(params))") }
        parts.append("volume \(status.volume)%" + (status.muted ? " muted" : ""))
        if let error = status.error, !error.isEmpty { parts.append("error: \(error)") }
        return parts.joined(separator: " ")
    }

    static func itemRef(_ params: JSONValue) -> String {
        params["id"]?.intValue.map { "#\($0)" } ?? "#?"
    }

    /// "0:42/2:10", or "0:42" without a known duration.
    static func times(_ params: JSONValue) -> String {
        let position = DurationFormat.clock(params["position"]?.doubleValue ?? 0)
        guard let duration = params["duration"]?.doubleValue else { return position }
        return "\(position)/\(DurationFormat.clock(duration))"
    }
}
