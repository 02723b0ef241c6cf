// The fleet's topic names (Protocol/queued.asyncapi.yaml) in one place, below the bridge and `queuectl fleet`,
// so the document, the screen and the operator's tool spell every topic the same way. Pure: strings only.
// A player id of "+" gives the subscription pattern for every player (what `queuectl fleet ls` reads).

public struct Topics: Sendable, Equatable {
    public let prefix: String
    public let player: String
    public let groups: [String]

    public init(prefix: String = "queued/", player: String, groups: [String] = []) {
        self.prefix = prefix
        self.player = player
        self.groups = groups
    }

    /// Retained: online/offline (the Last Will).
    public var status: String { prefix + player + "/status" }
    /// Retained, written by the operator: the player's own desired state.
    public var desired: String { prefix + player + "/desired" }
    /// Retained: what the player is showing and how far it applied the desired state.
    public var reported: String { prefix + player + "/reported" }
    /// QoS 1: proof of play, one record per play.
    public var events: String { prefix + player + "/events" }
    public var rpcRequest: String { prefix + player + "/rpc/req" }
    /// Where answers go when a request names no response topic of its own.
    public var rpcResponse: String { prefix + player + "/rpc/res" }

    /// QoS 1, not retained: an output rule's message (`-> mqtt TOPIC PAYLOAD`), under this player's `output/`.
    public func output(_ topic: String) -> String { prefix + player + "/output/" + topic }

    /// A group's desired state (retained).
    public func groupDesired(_ group: String) -> String { Self.groupDesired(prefix: prefix, group) }

    public static func groupDesired(prefix: String, _ group: String) -> String { prefix + "group/" + group + "/desired" }

    /// A response topic of the requester's own under this player's `rpc/res` (a caller's private reply
    /// topic, e.g. `…/rpc/res/<token>`). Any other topic is refused: a request must not make the screen
    /// publish where the sender itself may not (the broker's ACL lets a screen write only under its own id).
    public func isOwnResponseTopic(_ topic: String) -> Bool {
        topic == rpcResponse || (topic.hasPrefix(rpcResponse + "/") && !topic.contains("+") && !topic.contains("#"))
    }

    /// What a topic under `prefix` is: a player's status, desired, reported or events topic (nil otherwise).
    public static func parse(_ topic: String, prefix: String) -> (player: String, kind: Kind)? {
        guard topic.hasPrefix(prefix) else { return nil }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2, !levels[0].isEmpty, levels[0] != "group", let kind = Kind(rawValue: String(levels[1]))
        else { return nil }
        return (String(levels[0]), kind)
    }

    /// The per-player topics `parse` recognises.
    public enum Kind: String, Sendable, CaseIterable {
        case status, desired, reported, events
    }
}
