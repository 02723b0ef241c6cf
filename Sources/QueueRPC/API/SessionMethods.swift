// The methods about the connection and the daemon: event subscriptions, daemon.info and rpc.discover
// (Protocol/queued.openrpc.json).

extension API {
    public enum EventsSubscribe: RPCMethodDefinition {
        public static let name = "events.subscribe"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["events", "progressInterval", "zones"]
            public static let shortestProgressInterval = 0.05
            /// nil: every kind.
            public var events: [EventName]?
            /// Seconds between progress events; nil keeps the connection's (1 s at first).
            public var progressInterval: Double?
            /// The zones whose engine events the connection gets from now on (`"*"`: every zone); nil keeps
            /// the connection's (main only at first, so that a client that knows nothing of zones sees nothing
            /// of them).
            public var zones: [String]?

            public init(events: [EventName]? = nil, progressInterval: Double? = nil, zones: [String]? = nil) {
                self.events = events
                self.progressInterval = progressInterval
                self.zones = zones
            }
            public init(reading params: ParamReader) throws(RPCError) {
                events = try API.eventNames(params)
                progressInterval = try params.double("progressInterval")
                if let progressInterval, progressInterval < Self.shortestProgressInterval {
                    throw .invalidParams(param: "progressInterval", reason: "must be >= 0.05 seconds")
                }
                zones = try params.stringArray("zones")
                if let zones, zones.count > 17 || zones.contains(where: { $0 != "*" && !RPCZone.isValidName($0) }) {
                    throw .invalidParams(param: "zones", reason: "at most 17 zone names (or \"*\"), each 1 to 32 letters, digits, '-' or '_'")
                }
            }
            public var json: JSONValue? {
                var object = JSONObject()
                object.setIfPresent("events", events.map { .array($0.map { .string($0.rawValue) }) })
                object.setIfPresent("progressInterval", progressInterval.map(JSONValue.double))
                object.setIfPresent("zones", zones.map { .array($0.map(JSONValue.string)) })
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// Every kind the connection is now subscribed to.
            public var events: [String]
            public var progressInterval: Double

            public init(events: [String], progressInterval: Double) {
                self.events = events
                self.progressInterval = progressInterval
            }
            public init?(json: JSONValue) {
                guard let events = json["events"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
                self.init(events: events, progressInterval: json["progressInterval"]?.doubleValue ?? 1)
            }
            public var json: JSONValue {
                ["events": .array(events.map(JSONValue.string)), "progressInterval": .double(progressInterval)]
            }
        }
    }

    public enum EventsUnsubscribe: RPCMethodDefinition {
        public static let name = "events.unsubscribe"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["events"]
            /// nil: every kind.
            public var events: [EventName]?

            public init(events: [EventName]? = nil) { self.events = events }
            public init(reading params: ParamReader) throws(RPCError) {
                events = try API.eventNames(params)
            }
            public var json: JSONValue? { events.map { ["events": .array($0.map { .string($0.rawValue) })] } }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// Every kind the connection is still subscribed to.
            public var events: [String]

            public init(events: [String]) { self.events = events }
            public init?(json: JSONValue) {
                guard let events = json["events"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
                self.events = events
            }
            public var json: JSONValue { ["events": .array(events.map(JSONValue.string))] }
        }
    }

    public enum DaemonInfo: RPCMethodDefinition {
        public static let name = "daemon.info"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            public var version: String
            public var pid: Int64
            public var socket: String
            /// The audio and video outputs in use, e.g. "pulse", "sdl", "null".
            public var audio: String
            public var video: String
            /// Seconds since the daemon started.
            public var uptime: Double
            /// Hardware video decoding: the setting (`--hwdec`), its codecs, and the methods this FFmpeg build
            /// offers for them (whether a device exists is found when an item is opened).
            public var hwdec: HWDecodeInfo
            /// How the screen is put to sleep and woken, and why that way.
            public var display: DisplayInfo

            public struct DisplayInfo: Sendable, Equatable {
                /// "x11-dpms" | "drm-dpms" | "command" | "none".
                public var method: String
                public var why: String
                /// `--display-schedule` as given (nil: always on).
                public var schedule: String?
                public var offCommand: [String]?
                public var onCommand: [String]?
                public var commandTimeout: Double
                public init(
                    method: String = "none", why: String = "", schedule: String? = nil, offCommand: [String]? = nil,
                    onCommand: [String]? = nil, commandTimeout: Double = 10
                ) {
                    (self.method, self.why, self.schedule) = (method, why, schedule)
                    (self.offCommand, self.onCommand, self.commandTimeout) = (offCommand, onCommand, commandTimeout)
                }
                init(json: JSONValue?) {
                    self.init(
                        method: json?["method"]?.stringValue ?? "none", why: json?["why"]?.stringValue ?? "",
                        schedule: json?["schedule"]?.stringValue,
                        offCommand: json?["offCommand"]?.arrayValue?.compactMap(\.stringValue),
                        onCommand: json?["onCommand"]?.arrayValue?.compactMap(\.stringValue),
                        commandTimeout: json?["commandTimeout"]?.doubleValue ?? 10)
                }
                var json: JSONValue {
                    [
                        "method": .string(method), "why": .string(why),
                        "schedule": schedule.map(JSONValue.string) ?? .null,
                        "offCommand": offCommand.map { .array($0.map(JSONValue.string)) } ?? .null,
                        "onCommand": onCommand.map { .array($0.map(JSONValue.string)) } ?? .null,
                        "commandTimeout": .double(commandTimeout),
                    ]
                }
            }

            public struct HWDecodeInfo: Sendable, Equatable {
                public var setting: String
                public var codecs: [String]
                public var offered: [String]
                public init(setting: String = "no", codecs: [String] = [], offered: [String] = []) {
                    (self.setting, self.codecs, self.offered) = (setting, codecs, offered)
                }
                init(json: JSONValue?) {
                    self.init(
                        setting: json?["setting"]?.stringValue ?? "no",
                        codecs: json?["codecs"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                        offered: json?["offered"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                }
                var json: JSONValue {
                    [
                        "setting": .string(setting), "codecs": .array(codecs.map(JSONValue.string)),
                        "offered": .array(offered.map(JSONValue.string)),
                    ]
                }
            }

            public init(
                version: String, pid: Int64, socket: String, audio: String, video: String, uptime: Double,
                hwdec: HWDecodeInfo = HWDecodeInfo(), display: DisplayInfo = DisplayInfo()
            ) {
                self.version = version
                self.pid = pid
                self.socket = socket
                self.audio = audio
                self.video = video
                self.uptime = uptime
                self.hwdec = hwdec
                self.display = display
            }
            public init?(json: JSONValue) {
                guard let version = json["version"]?.stringValue else { return nil }
                self.init(
                    version: version, pid: json["pid"]?.intValue ?? 0, socket: json["socket"]?.stringValue ?? "",
                    audio: json["audio"]?.stringValue ?? "", video: json["video"]?.stringValue ?? "",
                    uptime: json["uptime"]?.doubleValue ?? 0, hwdec: HWDecodeInfo(json: json["hwdec"]),
                    display: DisplayInfo(json: json["display"]))
            }
            public var json: JSONValue {
                [
                    "version": .string(version), "pid": .int(pid), "socket": .string(socket), "audio": .string(audio),
                    "video": .string(video), "uptime": .double(uptime), "hwdec": hwdec.json,
                    "display": display.json,
                ]
            }
        }
    }

    public enum DaemonRestart: RPCMethodDefinition {
        public static let name = "daemon.restart"
        public typealias Params = NoParams

        /// The daemon answers, then shuts down in order and starts again in the same process.
        public struct Result: RPCMethodResult, Equatable {
            public var restarting: Bool
            /// The process id, which the restarted daemon keeps.
            public var pid: Int64

            public init(restarting: Bool = true, pid: Int64) { (self.restarting, self.pid) = (restarting, pid) }
            public init?(json: JSONValue) {
                guard let restarting = json["restarting"]?.boolValue, let pid = json["pid"]?.intValue else { return nil }
                (self.restarting, self.pid) = (restarting, pid)
            }
            public var json: JSONValue { ["restarting": .bool(restarting), "pid": .int(pid)] }
        }
    }

    public enum DaemonHealth: RPCMethodDefinition {
        public static let name = "daemon.health"
        public typealias Params = NoParams

        /// The figures a supervisor watches (components/schemas/Health).
        public struct Result: RPCMethodResult, Equatable {
            public var rss: Int64 = 0
            public var fds: Int64 = 0
            public var threads: Int64 = 0
            public var uptime: Double = 0
            public var framesShown: Int64 = 0
            public var framesDropped: Int64 = 0
            public var audioUnderruns: Int64 = 0
            /// nil before the first picture.
            public var lastPictureAge: Double?
            public var lastProgressAge: Double = 0
            public var stalls: Int64 = 0
            public var audioReconnects: Int64 = 0
            public var itemsFailed: Int64 = 0
            public var stateWrites: Int64 = 0
            public var stateBytes: Int64 = 0
            /// "on" | "off"; changes of the screen's power since the start, and failures telling the screen.
            public var display = "on"
            public var displayChanges: Int64 = 0
            public var displayFailures: Int64 = 0

            public init() {}

            /// The integer fields by name, in the document's order (the metrics file writes them all).
            public var counters: [(name: String, value: Int64)] {
                [
                    ("rss", rss), ("fds", fds), ("threads", threads), ("framesShown", framesShown),
                    ("framesDropped", framesDropped), ("audioUnderruns", audioUnderruns), ("stalls", stalls),
                    ("audioReconnects", audioReconnects), ("itemsFailed", itemsFailed), ("stateWrites", stateWrites),
                    ("stateBytes", stateBytes), ("displayChanges", displayChanges),
                    ("displayFailures", displayFailures),
                ]
            }

            public init?(json: JSONValue) {
                guard let rss = json["rss"]?.intValue else { return nil }
                self.rss = rss
                fds = json["fds"]?.intValue ?? 0
                threads = json["threads"]?.intValue ?? 0
                uptime = json["uptime"]?.doubleValue ?? 0
                framesShown = json["framesShown"]?.intValue ?? 0
                framesDropped = json["framesDropped"]?.intValue ?? 0
                audioUnderruns = json["audioUnderruns"]?.intValue ?? 0
                lastPictureAge = json["lastPictureAge"]?.doubleValue
                lastProgressAge = json["lastProgressAge"]?.doubleValue ?? 0
                stalls = json["stalls"]?.intValue ?? 0
                audioReconnects = json["audioReconnects"]?.intValue ?? 0
                itemsFailed = json["itemsFailed"]?.intValue ?? 0
                stateWrites = json["stateWrites"]?.intValue ?? 0
                stateBytes = json["stateBytes"]?.intValue ?? 0
                display = json["display"]?.stringValue ?? "on"
                displayChanges = json["displayChanges"]?.intValue ?? 0
                displayFailures = json["displayFailures"]?.intValue ?? 0
            }

            public var json: JSONValue {
                [
                    "rss": .int(rss), "fds": .int(fds), "threads": .int(threads), "uptime": .double(uptime),
                    "framesShown": .int(framesShown), "framesDropped": .int(framesDropped),
                    "audioUnderruns": .int(audioUnderruns),
                    "lastPictureAge": lastPictureAge.map(JSONValue.double) ?? .null,
                    "lastProgressAge": .double(lastProgressAge), "stalls": .int(stalls),
                    "audioReconnects": .int(audioReconnects), "itemsFailed": .int(itemsFailed),
                    "stateWrites": .int(stateWrites), "stateBytes": .int(stateBytes), "display": .string(display),
                    "displayChanges": .int(displayChanges), "displayFailures": .int(displayFailures),
                ]
            }
        }
    }

    public enum Discover: RPCMethodDefinition {
        public static let name = "rpc.discover"
        public typealias Params = NoParams
        /// The OpenRPC document.
        public typealias Result = JSONValue
    }

    /// `events`: optional; each a known event name.
    static func eventNames(_ params: ParamReader) throws(RPCError) -> [EventName]? {
        guard let names = try params.stringArray("events") else { return nil }
        return try names.map { name throws(RPCError) -> EventName in
            guard let event = EventName(rawValue: name) else {
                let known = EventName.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParams(param: "events", reason: "unknown event \(name); known: \(known)")
            }
            return event
        }
    }
}
