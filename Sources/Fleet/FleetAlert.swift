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
    public static func patterns(_ topics: Topics) -> [String] { topics.namedPatterns("alert") }

    /// The scope and name of an alert topic this player follows (nil: not one).
    public static func parse(_ topic: String, _ topics: Topics) -> (scope: String, name: String)? {
        topics.named("alert", in: topic)
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
    public static func patterns(_ topics: Topics) -> [String] { topics.namedPatterns("trigger") }

    /// The trigger's name, when `topic` is one of this player's trigger topics.
    public static func name(_ topic: String, _ topics: Topics) -> String? { topics.named("trigger", in: topic)?.name }
}

extension Topics {
    /// The scopes a player hears messages of a kind on — its own (`<player>/KIND/<name>`) and each of its
    /// groups' (`group/<g>/KIND/<name>`) — with the topic prefix before each.
    private func scopes(_ kind: String) -> [(scope: String, topicPrefix: String)] {
        [(player, prefix + player + "/" + kind + "/")] + groups.map { ("group/" + $0, prefix + "group/" + $0 + "/" + kind + "/") }
    }

    /// Subscription patterns for every `<name>` of `kind` this player hears.
    func namedPatterns(_ kind: String) -> [String] { scopes(kind).map { $0.topicPrefix + "+" } }

    /// The scope and name of `topic` when it is one of this player's `kind` topics (one level of name).
    func named(_ kind: String, in topic: String) -> (scope: String, name: String)? {
        for (scope, topicPrefix) in scopes(kind) where topic.hasPrefix(topicPrefix) {
            let name = String(topic.dropFirst(topicPrefix.count))
            return name.isEmpty || name.contains("/") ? nil : (scope, name)
        }
        return nil
    }
}
