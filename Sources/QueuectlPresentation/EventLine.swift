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

    /// Known events are read through their typed Params (QueueRPC's `Events`); one whose params do not
    /// decode, or a kind this queuectl does not know, prints its params as JSON.
    static func describe(_ name: String, _ params: JSONValue) -> String {
        let raw = params == .null ? "" : JSON.string(params)
        switch EventName(rawValue: name) {
        case .itemStarted:
            guard let event = Events.ItemStarted.Params(json: params) else { return raw }
            var text = "#\(event.id) play \(event.play)"
            if let width = event.width, let height = event.height { text += " \(width)x\(height)" }
            return text
        case .itemEnded:
            guard let event = Events.ItemEnded.Params(json: params) else { return raw }
            var text = "#\(event.id) play \(event.play) \(event.reason)"
            if let error = event.error, !error.isEmpty { text += ": \(error)" }
            return text
        case .progress:
            guard let event = Events.Progress.Params(json: params) else { return raw }
            return "#\(event.id) \(times(position: event.position, duration: event.duration)) play \(event.play)"
        case .status:
            return status(params)
        case .queueChanged:
            return Events.QueueChanged.Params(json: params).map { "version \($0.version)" } ?? raw
        case .itemStalled:
            guard let event = Events.ItemStalled.Params(json: params) else { return raw }
            return "#\(event.id) play \(event.play): \(event.reason)"
        case .itemResumed:
            guard let event = Events.ItemResumed.Params(json: params) else { return raw }
            return "#\(event.id) play \(event.play) back after \(DurationFormat.decimal(event.after, maxFractionDigits: 1)) s"
        case .output:
            guard let event = Events.Output.Params(json: params) else { return raw }
            return "\(event.output) \(event.state)" + (event.message.map { ": \($0)" } ?? "")
        default:
            return raw
        }
    }

    static func status(_ params: JSONValue) -> String {
        guard let status = PlayerStatusView(json: params) else { return JSON.string(params) }
        var parts = [status.state]
        if let id = status.currentId {
            parts.append("#\(id) \(times(position: status.position, duration: status.duration))")
        }
        parts.append("volume \(status.volume)%" + (status.muted ? " muted" : ""))
        if let error = status.error, !error.isEmpty { parts.append("error: \(error)") }
        return parts.joined(separator: " ")
    }

    /// "0:42/2:10", or "0:42" without a known duration.
    static func times(position: Double, duration: Double?) -> String {
        guard let duration else { return DurationFormat.clock(position) }
        return "\(DurationFormat.clock(position))/\(DurationFormat.clock(duration))"
    }
}
