// A proof-of-play record as the fleet sees it (`queued/<player>/events`, QoS 1; Protocol/queued.asyncapi.yaml,
// PlayRecord): the daemon's record with the player's id added by the bridge. The record travels as the daemon
// wrote it (fields this version does not know pass through); the typed fields are what the bridge and
// `queuectl fleet events` read. Pure.

import JSONText

public struct PlayRecord: Sendable, Equatable {
    /// The record as sent, `player` included.
    public private(set) var object: JSONObject

    /// Per player, increasing, never reused: what consumers de-duplicate by.
    public var seq: Int64? { object["seq"]?.intValue }
    public var player: String? { object["player"]?.stringValue }
    public var uri: String? { object["uri"]?.stringValue }
    public var start: String? { object["start"]?.stringValue }
    public var end: String? { object["end"]?.stringValue }
    public var seconds: Double? { object["seconds"]?.doubleValue }
    public var reason: String? { object["reason"]?.stringValue }

    /// A record as it comes from the broker (nil unless an object with a seq).
    public init?(json: JSONValue) {
        guard let object = json.objectValue, object["seq"]?.intValue != nil else { return nil }
        self.object = object
    }

    /// The daemon's record (event.played, plays.list) stamped with the player that made it.
    public init?(daemonRecord: JSONValue, player: String) {
        guard var object = daemonRecord.objectValue, object["seq"]?.intValue != nil else { return nil }
        object["player"] = .string(player)
        self.object = object
    }

    public var json: JSONValue { .object(object) }
}
