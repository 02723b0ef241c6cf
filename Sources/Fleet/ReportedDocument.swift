// The `reported` document (`queued/<player>/reported`, retained; Protocol/queued.asyncapi.yaml, Reported) as
// one typed value: written by the bridge, read by `queuectl fleet ls` and by anything else that watches a
// fleet. Encoding writes every key the schema requires; decoding is lenient (a field a newer bridge adds, or
// leaves out, never breaks a reader). Pure.

import JSONText

public struct ReportedDocument: Sendable, Equatable {
    /// What the daemon is doing, or that the bridge cannot reach it.
    public enum State: String, Sendable, CaseIterable {
        case idle, playing, paused, stopped, unreachable
    }

    /// The item on screen.
    public struct Current: Sendable, Equatable {
        public var id: Int64
        public var uri: String?
        public var title: String?
        public var position: Double

        public init(id: Int64, uri: String?, title: String?, position: Double) {
            self.id = id
            self.uri = uri
            self.title = title
            self.position = position
        }
    }

    /// The job applying `pendingRev`: how far it has got.
    public struct Applying: Sendable, Equatable {
        public var rev: Int64
        public var progress: ApplyProgress

        public init(rev: Int64, progress: ApplyProgress) {
            self.rev = rev
            self.progress = progress
        }
    }

    /// Something the broker refused this bridge (a subscription, a publish): never silent.
    public struct BrokerRefusal: Sendable, Equatable {
        /// `subscribe` or `publish`.
        public var operation: String
        public var topic: String
        /// The broker's reason, as libmosquitto words it (e.g. "Not authorized (135)").
        public var reason: String

        public init(operation: String, topic: String, reason: String) {
            self.operation = operation
            self.topic = topic
            self.reason = reason
        }
    }

    public var appliedRev: Int64?
    public var pendingRev: Int64?
    public var error: String?
    public var applying: Applying?
    public var brokerRefusals: [BrokerRefusal]
    public var state: State
    public var queueVersion: Int64?
    public var current: Current?
    /// The daemon's daemon.health result, as it sent it.
    public var health: JSONValue?
    /// The cache's http(s) items: complete, partial, bytes.
    public var cache: (complete: Int64, partial: Int64, bytes: Int64)?
    /// The box itself, where it can tell: `diskFreeBytes`, `diskFreePercent`, `temperature` (°C, the hottest
    /// thermal zone), `undervoltage` (now or since boot, where the board reports it).
    public var host: JSONValue?

    public init(
        appliedRev: Int64? = nil, pendingRev: Int64? = nil, error: String? = nil, applying: Applying? = nil,
        brokerRefusals: [BrokerRefusal] = [], state: State = .unreachable, queueVersion: Int64? = nil,
        current: Current? = nil, health: JSONValue? = nil, cache: (complete: Int64, partial: Int64, bytes: Int64)? = nil
    ) {
        self.appliedRev = appliedRev
        self.pendingRev = pendingRev
        self.error = error
        self.applying = applying
        self.brokerRefusals = brokerRefusals
        self.state = state
        self.queueVersion = queueVersion
        self.current = current
        self.health = health
        self.cache = cache
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }

    public var json: JSONValue {
        var object: JSONObject = [
            "appliedRev": appliedRev.map(JSONValue.int) ?? .null,
            "pendingRev": pendingRev.map(JSONValue.int) ?? .null,
            "error": error.map(JSONValue.string) ?? .null,
            "state": .string(state.rawValue),
            "queueVersion": queueVersion.map(JSONValue.int) ?? .null,
            "current": current.map { current in
                [
                    "id": .int(current.id), "uri": current.uri.map(JSONValue.string) ?? .null,
                    "title": current.title.map(JSONValue.string) ?? .null, "position": .double(current.position),
                ]
            } ?? .null,
        ]
        if let applying {
            object["applying"] = [
                "rev": .int(applying.rev), "state": .string(applying.progress.stage.rawValue),
                "complete": .int(Int64(applying.progress.complete)), "total": .int(Int64(applying.progress.total)),
            ]
        }
        if !brokerRefusals.isEmpty {
            object["brokerRefusals"] = .array(
                brokerRefusals.map {
                    ["operation": .string($0.operation), "topic": .string($0.topic), "reason": .string($0.reason)]
                })
        }
        if let health { object["health"] = health }
        if let cache {
            object["cache"] = ["complete": .int(cache.complete), "partial": .int(cache.partial), "bytes": .int(cache.bytes)]
        }
        if let host { object["host"] = host }
        return .object(object)
    }

    /// Lenient: nil only when `json` is not an object.
    public init?(json: JSONValue) {
        guard json.objectValue != nil else { return nil }
        self.init(
            appliedRev: json["appliedRev"]?.intValue, pendingRev: json["pendingRev"]?.intValue,
            error: json["error"]?.stringValue,
            state: json["state"]?.stringValue.flatMap(State.init(rawValue:)) ?? .unreachable,
            queueVersion: json["queueVersion"]?.intValue)
        if let applying = json["applying"], let rev = applying["rev"]?.intValue,
            let stage = applying["state"]?.stringValue.flatMap(ApplyProgress.Stage.init(rawValue:))
        {
            let progress = ApplyProgress(
                stage: stage, complete: Int(applying["complete"]?.intValue ?? 0), total: Int(applying["total"]?.intValue ?? 0))
            self.applying = Applying(rev: rev, progress: progress)
        }
        brokerRefusals = (json["brokerRefusals"]?.arrayValue ?? []).compactMap { entry in
            guard let operation = entry["operation"]?.stringValue, let topic = entry["topic"]?.stringValue else { return nil }
            return BrokerRefusal(operation: operation, topic: topic, reason: entry["reason"]?.stringValue ?? "")
        }
        if let current = json["current"], let id = current["id"]?.intValue {
            self.current = Current(
                id: id, uri: current["uri"]?.stringValue, title: current["title"]?.stringValue,
                position: current["position"]?.doubleValue ?? 0)
        }
        health = json["health"].flatMap { $0.objectValue != nil ? $0 : nil }
        if let cache = json["cache"] {
            self.cache = (cache["complete"]?.intValue ?? 0, cache["partial"]?.intValue ?? 0, cache["bytes"]?.intValue ?? 0)
        }
        host = json["host"].flatMap { $0.objectValue != nil ? $0 : nil }
    }

    /// The document without what moves all the time (health, position, queue version): what decides whether
    /// a change is worth sending at once.
    public var significant: ReportedDocument {
        var copy = self
        copy.health = nil
        copy.host = nil
        copy.queueVersion = nil
        copy.current?.position = 0
        return copy
    }
}
