// Every screen of a fleet as the broker tells it: online or offline and since when, its groups and bridge
// version (the retained `status`), what it applied, what is pending and why a rev was refused, what plays and
// its health (the retained `reported`), and when it last sent a proof-of-play record. Built only from broker
// messages, so several consoles on one broker agree; the desired documents of players and groups are kept too
// (the current rev of each target). Pure: topics and payloads in, a changed screen out; `now` is given.

import Fleet
import JSONText

public struct ScreenState: Sendable, Equatable {
    public var id: String
    /// nil until a status message arrived.
    public var online: Bool?
    /// Seconds since 1970 of the last change of `online` (the bridge's own `since` when it says it).
    public var since: Double?
    public var groups: [String] = []
    public var version: String?
    public var reported: ReportedDocument?
    /// When the last `reported` arrived.
    public var reportedAt: Double?
    /// When the last proof-of-play record arrived.
    public var lastPlayAt: Double?
    /// Bumped on every change: what a page that asks "what changed since N" compares.
    public var changeNumber: Int64 = 0

    public init(id: String) { self.id = id }

    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id),
            "online": online.map(JSONValue.bool) ?? .null,
            "since": since.map(JSONValue.double) ?? .null,
            "groups": .array(groups.map(JSONValue.string)),
            "version": version.map(JSONValue.string) ?? .null,
            "lastPlayAt": lastPlayAt.map(JSONValue.double) ?? .null,
            "reportedAt": reportedAt.map(JSONValue.double) ?? .null,
        ]
        if let reported { object["reported"] = reported.json }
        return .object(object)
    }
}

public struct FleetRoster: Sendable {
    public let prefix: String
    public private(set) var screens: [String: ScreenState] = [:]
    /// The current desired document of each target (`group/NAME` or a player id): its rev, or nil when cleared.
    public private(set) var desired: [String: Int64] = [:]
    /// The last change number handed out.
    public private(set) var changeNumber: Int64 = 0
    /// Screens at most: a flood of made-up player ids cannot grow the console without bound.
    public static let maxScreens = 100_000

    public init(prefix: String) { self.prefix = prefix }

    /// What a message meant.
    public enum Change: Sendable, Equatable {
        case screen(String)
        case play(player: String, record: JSONValue)
        case desired(target: String, rev: Int64?)
        case none
    }

    /// Desired documents' targets at most, and a screen's groups at most.
    public static let maxTargets = 10_000
    public static let maxGroups = 32

    /// One message from the broker (`now`: seconds since 1970).
    public mutating func take(topic: String, payload: [UInt8], now: Double) -> Change {
        take(topic: topic, value: payload.isEmpty ? nil : try? JSON.parse(payload), isEmpty: payload.isEmpty, now: now)
    }

    /// One message, its payload already parsed (`value` nil: empty or not JSON; `isEmpty`: empty).
    public mutating func take(topic: String, value: JSONValue?, isEmpty: Bool, now: Double) -> Change {
        if topic.hasPrefix(prefix + "group/") {
            let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            guard levels.count == 3, levels[2] == "desired", !levels[1].isEmpty else { return .none }
            return desiredChanged(target: "group/" + levels[1], value: value)
        }
        guard let (player, kind) = Topics.parse(topic, prefix: prefix), Self.isPlayerID(player) else { return .none }
        switch kind {
        case .desired:
            return desiredChanged(target: player, value: value)
        case .events:
            // Stored whatever the roster holds: proof of play is never dropped for a full roster.
            guard let record = value, record.objectValue != nil, record["seq"]?.intValue != nil else { return .none }
            if screens[player] != nil || screens.count < Self.maxScreens { update(player) { $0.lastPlayAt = now } }
            return .play(player: player, record: record)
        case .status:
            if isEmpty {
                // A cleared status: the screen was removed from the broker.
                guard screens.removeValue(forKey: player) != nil else { return .none }
                return .screen(player)
            }
            guard let status = value, let state = status["state"]?.stringValue,
                screens[player] != nil || screens.count < Self.maxScreens
            else { return .none }
            let online = state == "online"
            update(player) { screen in
                if screen.online != online || screen.since == nil {
                    screen.since = (online ? status["since"]?.doubleValue : nil) ?? now
                }
                screen.online = online
                if online {
                    screen.version = status["version"]?.stringValue
                    if let groups = status["groups"]?.arrayValue {
                        screen.groups = Array(
                            groups.compactMap(\.stringValue).filter { Self.isPlayerID($0) && $0.utf8.count <= 64 }.prefix(Self.maxGroups))
                    }
                }
            }
            return .screen(player)
        case .reported:
            guard let value, let reported = ReportedDocument(json: value),
                screens[player] != nil || screens.count < Self.maxScreens
            else { return .none }
            update(player) {
                $0.reported = reported
                $0.reportedAt = now
            }
            return .screen(player)
        }
    }

    private mutating func desiredChanged(target: String, value: JSONValue?) -> Change {
        let rev = value?["rev"]?.intValue
        guard desired[target] != nil || desired.count < Self.maxTargets else { return .none }
        desired[target] = rev
        return .desired(target: target, rev: rev)
    }

    private mutating func update(_ player: String, _ change: (inout ScreenState) -> Void) {
        var screen = screens[player] ?? ScreenState(id: player)
        change(&screen)
        changeNumber += 1
        screen.changeNumber = changeNumber
        screens[player] = screen
    }

    /// The screens a target names: a player id, `group/NAME` (every screen in that group), or `all`.
    public func members(of target: String) -> [ScreenState] {
        if target == "all" { return screens.values.sorted { $0.id < $1.id } }
        if target.hasPrefix("group/") {
            let group = String(target.dropFirst(6))
            return screens.values.filter { $0.groups.contains(group) }.sorted { $0.id < $1.id }
        }
        return screens[target].map { [$0] } ?? []
    }

    /// Every group some screen says it is in, and every group with a document.
    public var groups: [String] {
        var names = Set(screens.values.flatMap(\.groups))
        for target in desired.keys where target.hasPrefix("group/") { names.insert(String(target.dropFirst(6))) }
        return names.sorted()
    }

    /// A player id as the bridge allows it (a topic level without `/ + #`, not `group`; not `all`, which the
    /// console's commands take for every screen), at most 128 bytes and with no control characters.
    public static func isPlayerID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && text != "group" && text != "all"
            && !text.utf8.contains {
                $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "/")
            }
    }
}
