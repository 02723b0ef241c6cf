// One definition per notification of Protocol/queued.openrpc.json (`x-notifications`), typed the way methods
// are (RPCMethodDefinition; LSP's NotificationType is the model): an event is a type that names itself and
// its Params. The server builds the Params and sends `json`; clients decode them leniently (`init?(json:)`:
// nil only when a field every such event has is missing; a field a newer daemon adds never breaks them).
// `Events.all` lists every event, so tests can hold them to the document and its examples.

/// A notification queued sends to the connections subscribed to it.
public protocol RPCEventDefinition {
    associatedtype Params: RPCEventParams
    /// The event's name; its method on the wire is `name.method` ("event.itemStarted").
    static var name: EventName { get }
}

/// An event's params.
public protocol RPCEventParams: Sendable, Equatable {
    /// The params as the server sends them: every key the document requires, optional ones when present.
    var json: JSONValue { get }
    /// Lenient decoding on the client.
    init?(json: JSONValue)
}

extension RPCStatus: RPCEventParams {}

public enum Events {
    /// Every event the daemon sends, in the document's order.
    public static let all: [any RPCEventDefinition.Type] = [
        Status.self, Progress.self, ItemStarted.self, ItemEnded.self, ItemSkipped.self, QueueChanged.self,
        Output.self, ItemLoading.self, Buffering.self, CacheProgress.self, CacheComplete.self, CacheError.self,
        Played.self, ItemStalled.self, ItemResumed.self, OutputMessage.self,
    ]

    /// An output rule's MQTT message, for the fleet bridge to publish under the player's `output/` topics.
    public enum OutputMessage: RPCEventDefinition {
        public static let name = EventName.outputMessage
        public struct Params: RPCEventParams {
            public var topic: String
            public var payload: String
            public init(topic: String, payload: String) { (self.topic, self.payload) = (topic, payload) }
            public init?(json: JSONValue) {
                guard let topic = json["topic"]?.stringValue else { return nil }
                self.init(topic: topic, payload: json["payload"]?.stringValue ?? "")
            }
            public var json: JSONValue { ["topic": .string(topic), "payload": .string(payload)] }
        }
    }

    /// A play's proof-of-play record was kept (the record as plays.list gives it).
    public enum Played: RPCEventDefinition {
        public static let name = EventName.played
        public struct Params: RPCEventParams {
            public var record: JSONValue
            public init(record: JSONValue) { self.record = record }
            public init?(json: JSONValue) {
                guard json["seq"]?.intValue != nil else { return nil }
                record = json
            }
            public var json: JSONValue { record }
        }
    }

    /// The player's status changed (the same shape as player.status).
    public enum Status: RPCEventDefinition {
        public typealias Params = RPCStatus
        public static let name = EventName.status
    }

    /// Where the playing item is, every progress interval.
    public enum Progress: RPCEventDefinition {
        public static let name = EventName.progress
        public struct Params: RPCEventParams {
            public var id: Int64
            public var position: Double
            public var duration: Double?
            public var play: Int64
            public var interrupt: Bool
            public init(id: Int64, position: Double, duration: Double?, play: Int64, interrupt: Bool = false) {
                (self.id, self.position, self.duration, self.play, self.interrupt) = (
                    id, position, duration, play, interrupt
                )
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, position: json["position"]?.doubleValue ?? 0, duration: json["duration"]?.doubleValue,
                    play: json["play"]?.intValue ?? 1, interrupt: json["interrupt"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                Events.marked(
                    [
                        "id": .int(id), "position": .double(position), "duration": duration.map(JSONValue.double) ?? .null,
                        "play": .int(play),
                    ], interrupt: interrupt)
            }
        }
    }

    /// A play began: its first picture was shown (or, without pictures, its first sample heard).
    public enum ItemStarted: RPCEventDefinition {
        public static let name = EventName.itemStarted
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            /// Unix time of that instant.
            public var at: Double
            public var interrupt: Bool
            /// The picture's size as seen (after the file's turn and its pixels' aspect); nil without one.
            public var width: Int64?
            public var height: Int64?
            /// The play's video decoder; nil without decoded pictures.
            public var decoder: RPCDecoder?
            /// A web item's page as the play shows it; nil for everything else.
            public var web: RPCWebStatus?
            public init(
                id: Int64, play: Int64, at: Double, interrupt: Bool = false, width: Int64? = nil, height: Int64? = nil,
                decoder: RPCDecoder? = nil, web: RPCWebStatus? = nil
            ) {
                (self.id, self.play, self.at, self.interrupt, self.width, self.height, self.decoder, self.web) = (
                    id, play, at, interrupt, width, height, decoder, web
                )
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, play: json["play"]?.intValue ?? 1, at: json["at"]?.doubleValue ?? 0,
                    interrupt: json["interrupt"]?.boolValue ?? false, width: json["width"]?.intValue,
                    height: json["height"]?.intValue, decoder: json["decoder"].flatMap(RPCDecoder.init(json:)),
                    web: json["web"].flatMap(RPCWebStatus.init(json:)))
            }
            public var json: JSONValue {
                var members: JSONObject = ["id": .int(id), "play": .int(play), "at": .double(at)]
                if let width, let height {
                    members["width"] = .int(width)
                    members["height"] = .int(height)
                }
                if let decoder { members["decoder"] = decoder.json }
                if let web { members["web"] = web.json }
                return Events.marked(members, interrupt: interrupt)
            }
        }
    }

    /// A play ended: `reason` eof, error, skipped, stopped…; `error` says why for `error`.
    public enum ItemEnded: RPCEventDefinition {
        public static let name = EventName.itemEnded
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            public var reason: String
            public var error: String?
            public var interrupt: Bool
            public init(id: Int64, play: Int64, reason: String, error: String? = nil, interrupt: Bool = false) {
                (self.id, self.play, self.reason, self.error, self.interrupt) = (id, play, reason, error, interrupt)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, play: json["play"]?.intValue ?? 1, reason: json["reason"]?.stringValue ?? "?",
                    error: json["error"]?.stringValue, interrupt: json["interrupt"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                Events.marked(
                    [
                        "id": .int(id), "play": .int(play), "reason": .string(reason),
                        "error": error.map(JSONValue.string) ?? .null,
                    ], interrupt: interrupt)
            }
        }
    }

    /// A play was passed over without starting (outside its schedule…).
    public enum ItemSkipped: RPCEventDefinition {
        public static let name = EventName.itemSkipped
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            public var reason: String
            public init(id: Int64, play: Int64, reason: String) {
                (self.id, self.play, self.reason) = (id, play, reason)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(id: id, play: json["play"]?.intValue ?? 1, reason: json["reason"]?.stringValue ?? "?")
            }
            public var json: JSONValue { ["id": .int(id), "play": .int(play), "reason": .string(reason)] }
        }
    }

    /// The queue changed; `version` is the new queue version.
    public enum QueueChanged: RPCEventDefinition {
        public static let name = EventName.queueChanged
        public struct Params: RPCEventParams {
            public var version: Int64
            public init(version: Int64) { self.version = version }
            public init?(json: JSONValue) {
                guard let version = json["version"]?.intValue else { return nil }
                self.init(version: version)
            }
            public var json: JSONValue { ["version": .int(version)] }
        }
    }

    /// An output (audio, video) was lost or restored.
    public enum Output: RPCEventDefinition {
        public static let name = EventName.output
        public struct Params: RPCEventParams {
            public var output: String
            public var state: String
            public var message: String?
            public init(output: String, state: String, message: String? = nil) {
                (self.output, self.state, self.message) = (output, state, message)
            }
            public init?(json: JSONValue) {
                guard let output = json["output"]?.stringValue, let state = json["state"]?.stringValue else {
                    return nil
                }
                self.init(output: output, state: state, message: json["message"]?.stringValue)
            }
            public var json: JSONValue {
                ["output": .string(output), "state": .string(state), "message": message.map(JSONValue.string) ?? .null]
            }
        }
    }

    /// A play is being opened, is ready, or could not be opened.
    public enum ItemLoading: RPCEventDefinition {
        public static let name = EventName.itemLoading
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            public var status: String
            public var error: String?
            public var interrupt: Bool
            public init(id: Int64, play: Int64, status: String, error: String? = nil, interrupt: Bool = false) {
                (self.id, self.play, self.status, self.error, self.interrupt) = (id, play, status, error, interrupt)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, play: json["play"]?.intValue ?? 1, status: json["status"]?.stringValue ?? "?",
                    error: json["error"]?.stringValue, interrupt: json["interrupt"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                Events.marked(
                    [
                        "id": .int(id), "play": .int(play), "status": .string(status),
                        "error": error.map(JSONValue.string) ?? .null,
                    ], interrupt: interrupt)
            }
        }
    }

    /// A stream item dropped or stalled; it reconnects within its time (the screen holds, the sound is silent).
    public enum ItemStalled: RPCEventDefinition {
        public static let name = EventName.itemStalled
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            public var reason: String
            public var interrupt: Bool
            public init(id: Int64, play: Int64, reason: String, interrupt: Bool = false) {
                (self.id, self.play, self.reason, self.interrupt) = (id, play, reason, interrupt)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue, let reason = json["reason"]?.stringValue else { return nil }
                self.init(
                    id: id, play: json["play"]?.intValue ?? 1, reason: reason,
                    interrupt: json["interrupt"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                Events.marked(["id": .int(id), "play": .int(play), "reason": .string(reason)], interrupt: interrupt)
            }
        }
    }

    /// A stream item plays again, `after` seconds after it stalled, in the same play.
    public enum ItemResumed: RPCEventDefinition {
        public static let name = EventName.itemResumed
        public struct Params: RPCEventParams {
            public var id: Int64
            public var play: Int64
            public var after: Double
            public var interrupt: Bool
            public init(id: Int64, play: Int64, after: Double, interrupt: Bool = false) {
                (self.id, self.play, self.after, self.interrupt) = (id, play, after, interrupt)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue, let after = json["after"]?.doubleValue else { return nil }
                self.init(
                    id: id, play: json["play"]?.intValue ?? 1, after: after,
                    interrupt: json["interrupt"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                Events.marked(["id": .int(id), "play": .int(play), "after": .double(after)], interrupt: interrupt)
            }
        }
    }

    /// A network item's bytes are running short (or keep up again).
    public enum Buffering: RPCEventDefinition {
        public static let name = EventName.buffering
        public struct Params: RPCEventParams {
            public var id: Int64
            public var bufferedAhead: Double
            public var likelyToKeepUp: Bool
            public var bufferEmpty: Bool
            public init(id: Int64, bufferedAhead: Double, likelyToKeepUp: Bool, bufferEmpty: Bool) {
                (self.id, self.bufferedAhead, self.likelyToKeepUp, self.bufferEmpty) = (
                    id, bufferedAhead, likelyToKeepUp, bufferEmpty
                )
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, bufferedAhead: json["bufferedAhead"]?.doubleValue ?? 0,
                    likelyToKeepUp: json["likelyToKeepUp"]?.boolValue ?? true,
                    bufferEmpty: json["bufferEmpty"]?.boolValue ?? false)
            }
            public var json: JSONValue {
                [
                    "id": .int(id), "bufferedAhead": .double(bufferedAhead), "likelyToKeepUp": .bool(likelyToKeepUp),
                    "bufferEmpty": .bool(bufferEmpty),
                ]
            }
        }
    }

    /// A network item's download moved on.
    public enum CacheProgress: RPCEventDefinition {
        public static let name = EventName.cacheProgress
        public struct Params: RPCEventParams {
            public var id: Int64
            public var bytes: Int64
            public var length: Int64?
            /// Bytes per second.
            public var rate: Double
            public init(id: Int64, bytes: Int64, length: Int64?, rate: Double) {
                (self.id, self.bytes, self.length, self.rate) = (id, bytes, length, rate)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(
                    id: id, bytes: json["bytes"]?.intValue ?? 0, length: json["length"]?.intValue,
                    rate: json["rate"]?.doubleValue ?? 0)
            }
            public var json: JSONValue {
                [
                    "id": .int(id), "bytes": .int(bytes), "length": length.map(JSONValue.int) ?? .null,
                    "rate": .double(rate),
                ]
            }
        }
    }

    /// A network item's file is wholly on disk.
    public enum CacheComplete: RPCEventDefinition {
        public static let name = EventName.cacheComplete
        public struct Params: RPCEventParams {
            public var id: Int64
            public init(id: Int64) { self.id = id }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(id: id)
            }
            public var json: JSONValue { ["id": .int(id)] }
        }
    }

    /// A network item's transfer failed; `retryIn`: seconds until it is tried again (nil: not on its own).
    public enum CacheError: RPCEventDefinition {
        public static let name = EventName.cacheError
        public struct Params: RPCEventParams {
            public var id: Int64
            public var reason: String
            public var retryIn: Double?
            public init(id: Int64, reason: String, retryIn: Double?) {
                (self.id, self.reason, self.retryIn) = (id, reason, retryIn)
            }
            public init?(json: JSONValue) {
                guard let id = json["id"]?.intValue else { return nil }
                self.init(id: id, reason: json["reason"]?.stringValue ?? "?", retryIn: json["retryIn"]?.doubleValue)
            }
            public var json: JSONValue {
                ["id": .int(id), "reason": .string(reason), "retryIn": retryIn.map(JSONValue.double) ?? .null]
            }
        }
    }

    /// An event of an interrupt's play says so (`"interrupt": true`); a queue play's leaves the member out.
    static func marked(_ members: JSONObject, interrupt: Bool) -> JSONValue {
        var members = members
        if interrupt { members["interrupt"] = .bool(true) }
        return .object(members)
    }
}
