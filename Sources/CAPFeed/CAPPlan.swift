// What a CAP feed's alerts ask of the screen, judged against the alerts standing: raise the current ones
// (status Actual, or Test and Exercise when asked; not yet expired), withdraw what a Cancel or an Update
// names, and withdraw this feed's alerts that it no longer carries. Pure.

import QueueRPC

public struct CAPPlan: Sendable, Equatable {
    public struct Raise: Sendable, Equatable {
        public var id: String
        public var text: String
        public var priority: Int
        public var expires: Double?
    }
    public var raise: [Raise] = []
    public var clear: [String] = []

    /// The daemon's alert ids of `feed` begin with this (a short hash of its URL).
    public static func prefix(feed: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in feed.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return "cap/" + String(repeating: "0", count: 8 - hex.count) + hex + "/"
    }

    /// The plan for `alerts` read from `feed` at `now` (seconds since 1970), given the alert ids standing.
    public static func plan(feed: String, alerts: [CAPAlert], now: Double, statuses: Set<String>, standing: [String]) -> CAPPlan {
        let prefix = prefix(feed: feed)
        func id(_ identifier: String) -> String {
            let kept = String(decoding: identifier.utf8.prefix(100), as: UTF8.self)
            return prefix + String(kept.map { $0.isNewline ? " " : $0 })
        }
        var plan = CAPPlan()
        var withdrawn = Set<String>()
        for alert in alerts where statuses.contains(alert.status) {
            switch alert.msgType {
            case "Cancel":
                withdrawn.formUnion(alert.referencedIdentifiers.map(id))
                withdrawn.insert(id(alert.identifier))
            case "Alert", "Update":
                if alert.msgType == "Update" { withdrawn.formUnion(alert.referencedIdentifiers.map(id)) }
                let expires = alert.expires.flatMap(AlertTime.seconds)
                if let expires, expires <= now { continue }
                plan.raise.append(.init(id: id(alert.identifier), text: alert.screenText, priority: alert.priority, expires: expires))
            default:
                continue
            }
        }
        plan.raise.removeAll { withdrawn.contains($0.id) }
        let raised = Set(plan.raise.map(\.id))
        plan.clear = standing.filter { $0.hasPrefix(prefix) && !raised.contains($0) }.sorted()
        return plan
    }
}
