// When the console tells someone: the operator's rules ("offline for more than N minutes", "refused a rev",
// "no play for N minutes while online", "disk under N %") judged against the roster, each alert raised once
// and recovered once. A decision as a value: `evaluate` returns what to send; the owner sends it (a webhook)
// and keeps the returned book. Pure: `now` is given.

import JSONText

public struct AlertRules: Sendable, Equatable {
    /// Minutes offline before an alert (nil: no such rule).
    public var offlineMinutes: Double?
    /// A refused rev is an alert (recovered when the screen applies a rev again).
    public var refusedRev = true
    /// Minutes online without a proof-of-play record before an alert.
    public var noPlayMinutes: Double?
    /// Free disk under this percentage (the bridge's `host.diskFreePercent`).
    public var diskBelowPercent: Double?

    public init(offlineMinutes: Double? = 10, refusedRev: Bool = true, noPlayMinutes: Double? = nil, diskBelowPercent: Double? = nil) {
        self.offlineMinutes = offlineMinutes
        self.refusedRev = refusedRev
        self.noPlayMinutes = noPlayMinutes
        self.diskBelowPercent = diskBelowPercent
    }
}

public struct Alert: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable, CaseIterable { case offline, refused, noPlay = "no-play", disk }
    public var kind: Kind
    public var player: String

    public init(kind: Kind, player: String) {
        self.kind = kind
        self.player = player
    }
}

/// What to send: an alert raised or recovered, with what the screen said.
public struct AlertNotice: Sendable, Equatable {
    public enum State: String, Sendable { case raised, recovered }
    public var alert: Alert
    public var state: State
    public var detail: String
    public var at: Double

    public var json: JSONValue {
        [
            "alert": .string(alert.kind.rawValue), "player": .string(alert.player), "state": .string(state.rawValue),
            "detail": .string(detail), "at": .double(at),
        ]
    }
}

/// The alerts raised and not recovered, and since when.
public struct AlertBook: Sendable, Equatable {
    public private(set) var active: [Alert: AlertNotice] = [:]
    /// When the console started watching: an offline screen counts from here at the earliest (it may have been
    /// offline for a year before anyone watched).
    public let watchingSince: Double

    public init(watchingSince: Double) { self.watchingSince = watchingSince }

    /// What changed against `rules` at `now`: the notices to send, in player order.
    public mutating func evaluate(_ roster: FleetRoster, rules: AlertRules, now: Double) -> [AlertNotice] {
        var notices: [AlertNotice] = []
        var holding: [Alert: String] = [:]
        for screen in roster.screens.values {
            for (kind, detail) in Self.conditions(screen, rules: rules, now: now, watchingSince: watchingSince) {
                holding[Alert(kind: kind, player: screen.id)] = detail
            }
        }
        for (alert, detail) in holding where active[alert] == nil {
            let notice = AlertNotice(alert: alert, state: .raised, detail: detail, at: now)
            active[alert] = notice
            notices.append(notice)
        }
        for (alert, raised) in active where holding[alert] == nil {
            active[alert] = nil
            let back = roster.screens[alert.player] == nil ? "the screen was removed" : "recovered"
            notices.append(AlertNotice(alert: alert, state: .recovered, detail: "\(back) (raised: \(raised.detail))", at: now))
        }
        return notices.sorted { ($0.alert.player, $0.alert.kind.rawValue, $0.state.rawValue) < ($1.alert.player, $1.alert.kind.rawValue, $1.state.rawValue) }
    }

    /// The conditions that hold for `screen` now, each with what to say.
    static func conditions(_ screen: ScreenState, rules: AlertRules, now: Double, watchingSince: Double) -> [(Alert.Kind, String)] {
        var held: [(Alert.Kind, String)] = []
        if let minutes = rules.offlineMinutes, screen.online == false {
            let since = max(screen.since ?? watchingSince, watchingSince)
            if now - since >= minutes * 60 {
                held.append((.offline, "offline for more than \(Self.number(minutes)) min"))
            }
        }
        // For good: "rev N (source) refused: …" or "… document refused: …" — never "not applied yet" (retried).
        if rules.refusedRev, let error = screen.reported?.error, error.contains(") refused: ") || error.contains(" document refused: ") {
            held.append((.refused, error))
        }
        if let minutes = rules.noPlayMinutes, screen.online == true {
            let last = max(screen.lastPlayAt ?? watchingSince, screen.since ?? watchingSince, watchingSince)
            if now - last >= minutes * 60 {
                held.append((.noPlay, "no play for more than \(Self.number(minutes)) min while online"))
            }
        }
        if let percent = rules.diskBelowPercent, let free = screen.reported?.host?["diskFreePercent"]?.doubleValue,
            free < percent
        {
            held.append((.disk, "disk \(Self.number(free.rounded()))% free, under \(Self.number(percent))%"))
        }
        return held
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
