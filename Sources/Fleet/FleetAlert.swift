// Alerts through the fleet: a retained message on `queued/<player>/alert/<name>` or
// `queued/group/<group>/alert/<name>` raises an alert on the screen (the group's on every member, from one
// message), an empty retained message withdraws it. Pure: what a message asks of the daemon. The daemon's
// own alert.raise reads the fields (items, text, priority, expires) and refuses what it would refuse.

import JSONText

public enum FleetAlert {
    /// What a message asks for.
    public enum Action: Sendable, Equatable {
        /// alert.raise with these params (named), `id` being the daemon's id of this fleet alert.
        case raise(id: String, params: JSONObject)
        case clear(id: String)
    }

    /// The fields a fleet alert may carry.
    public static let fields: Set<String> = ["items", "text", "priority", "expires"]
    /// The largest alert message read.
    public static let maximumBytes = 64 * 1024
    /// The prefix of every alert raised through the fleet on the daemon: the bridge clears those of them that
    /// the broker no longer holds.
    public static let idPrefix = "fleet/"

    /// The daemon's id of the alert `name` sent to `scope` (the player's id, or `group/NAME`).
    public static func daemonID(scope: String, name: String) -> String { idPrefix + scope + "/" + name }

    /// What `payload` on the alert topic of `scope` named `name` asks for, or why it is refused.
    public static func action(scope: String, name: String, payload: [UInt8]) -> Result<Action, AlertRefusal> {
        let id = daemonID(scope: scope, name: name)
        guard !name.isEmpty, name.utf8.count <= 64, !name.unicodeScalars.contains(where: { "+#/".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F })
        else {
            return .failure(AlertRefusal("an alert's name is 1 to 64 bytes, without + # / or control characters"))
        }
        if payload.isEmpty { return .success(.clear(id: id)) }
        guard payload.count <= maximumBytes else { return .failure(AlertRefusal("an alert message is at most 64 KiB")) }
        guard let object = (try? JSON.parse(payload))?.objectValue else {
            return .failure(AlertRefusal("an alert message is a JSON object: {items, text, priority, expires}"))
        }
        if let unknown = object.keys.first(where: { !fields.contains($0) }) {
            return .failure(AlertRefusal("an alert message has no field \(unknown) (items, text, priority, expires)"))
        }
        var params = object
        params["id"] = .string(id)
        return .success(.raise(id: id, params: params))
    }

    /// The URIs an alert message names (its items' `uri`, or the item itself when it is a string): what the
    /// bridge's policy checks before anything reaches the daemon.
    public static func references(_ params: JSONObject) -> [String] {
        (params["items"]?.arrayValue ?? []).compactMap { $0.stringValue ?? $0["uri"]?.stringValue }
    }

    /// Where alerts for `player` and its `groups` arrive (subscription patterns).
    public static func patterns(_ topics: Topics) -> [String] {
        [topics.prefix + topics.player + "/alert/+"] + topics.groups.map { topics.prefix + "group/" + $0 + "/alert/+" }
    }

    /// The scope and name of an alert topic this player follows (nil: not one).
    public static func parse(_ topic: String, _ topics: Topics) -> (scope: String, name: String)? {
        let own = topics.prefix + topics.player + "/alert/"
        if topic.hasPrefix(own) {
            let name = String(topic.dropFirst(own.count))
            return name.contains("/") ? nil : (topics.player, name)
        }
        for group in topics.groups {
            let prefix = topics.prefix + "group/" + group + "/alert/"
            if topic.hasPrefix(prefix) {
                let name = String(topic.dropFirst(prefix.count))
                return name.contains("/") ? nil : ("group/" + group, name)
            }
        }
        return nil
    }
}

public struct AlertRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Triggers through the fleet: a message on `queued/<player>/trigger/<name>` or a group's fires the screen's
/// `mqtt=<name>` rules (triggers.fire). Not retained: a retained one would fire again at every connection,
/// so one that arrives retained is ignored.
public enum FleetTrigger {
    public static func patterns(_ topics: Topics) -> [String] {
        [topics.prefix + topics.player + "/trigger/+"] + topics.groups.map { topics.prefix + "group/" + $0 + "/trigger/+" }
    }

    /// The trigger's name, when `topic` is one of this player's trigger topics.
    public static func name(_ topic: String, _ topics: Topics) -> String? {
        for prefix in [topics.prefix + topics.player + "/trigger/"] + topics.groups.map({ topics.prefix + "group/" + $0 + "/trigger/" })
        where topic.hasPrefix(prefix) {
            let name = String(topic.dropFirst(prefix.count))
            return name.isEmpty || name.contains("/") ? nil : name
        }
        return nil
    }
}
