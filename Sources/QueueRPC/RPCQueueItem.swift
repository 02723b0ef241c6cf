// The QueueItem shape of Protocol/queued.openrpc.json (components/schemas/QueueItem), defined once: the
// server encodes it (`json`, every key present), clients decode it leniently (`init?(json:)`).

public struct RPCQueueItem: Sendable, Equatable {
    public var id: Int64
    public var uri: String
    public var title: String?
    /// Plays per pass; 0 = forever.
    public var loops: Int64
    /// Plays done this pass.
    public var plays: Int64
    /// Seconds, when known.
    public var duration: Double?
    /// "queued" | "playing" | "played" | "failed" (kept as text: an unknown state is still shown).
    public var state: String
    public var error: String?
    /// The play window in the file, when set.
    public var start: Double?
    public var end: Double?
    /// "auto" | "shortest" | "longest", or nil for the daemon's default.
    public var trackEnd: String?
    /// http(s) items: the SHA-256 the file must have, when the item carries one.
    public var sha256: String?
    /// How much of an http(s) item is cached (nil for local files).
    public var cache: RPCCacheStatus?
    /// Dayparting: the item's schedule (nil: always), whether it is in its window now, and when its next
    /// window opens (Unix seconds; nil while in it, or when none opens within a year).
    public var schedule: RPCSchedule?
    public var inWindow: Bool
    public var nextWindow: Double?
    /// The picture's size as seen (after its file's turn and its pixels' aspect), once the daemon has
    /// opened the item; nil for sound only or before.
    public var width: Int64?
    public var height: Int64?
    /// How the item is joined to the play before it (nil: the daemon's default).
    public var transition: RPCTransition?
    /// Stills: how the view moves while shown (nil: it stands still).
    public var motion: RPCMotion?
    /// Streams: what a drop does, the MPEG-TS program and the latency to keep, as set on the item (nil: not
    /// set).
    public var onStall: String?
    public var program: Int64?
    public var latency: Double?
    /// Web pages: their options (nil for every other item, whose `type` is media).
    public var web: RPCWebOptions?

    public init(
        id: Int64, uri: String, title: String? = nil, loops: Int64 = 1, plays: Int64 = 0, duration: Double? = nil,
        state: String = "queued", error: String? = nil, start: Double? = nil, end: Double? = nil,
        trackEnd: String? = nil, sha256: String? = nil, cache: RPCCacheStatus? = nil,
        schedule: RPCSchedule? = nil, inWindow: Bool = true, nextWindow: Double? = nil, width: Int64? = nil,
        height: Int64? = nil, transition: RPCTransition? = nil, motion: RPCMotion? = nil,
        onStall: String? = nil, program: Int64? = nil, latency: Double? = nil, web: RPCWebOptions? = nil
    ) {
        self.id = id
        self.uri = uri
        self.title = title
        self.loops = loops
        self.plays = plays
        self.duration = duration
        self.state = state
        self.error = error
        self.start = start
        self.end = end
        self.trackEnd = trackEnd
        self.sha256 = sha256
        self.cache = cache
        self.schedule = schedule
        self.inWindow = inWindow
        self.nextWindow = nextWindow
        self.width = width
        self.height = height
        self.transition = transition
        self.motion = motion
        self.onStall = onStall
        self.program = program
        self.latency = latency
        self.web = web
    }

    /// nil when `json` lacks the two fields every row needs: an integer id and a string uri.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.intValue, let uri = json["uri"]?.stringValue else { return nil }
        self.init(
            id: id, uri: uri, title: json["title"]?.stringValue, loops: json["loops"]?.intValue ?? 1,
            plays: json["plays"]?.intValue ?? 0, duration: json["duration"]?.doubleValue,
            state: json["state"]?.stringValue ?? "queued", error: json["error"]?.stringValue,
            start: json["start"]?.doubleValue, end: json["end"]?.doubleValue, trackEnd: json["trackEnd"]?.stringValue,
            sha256: json["sha256"]?.stringValue, cache: json["cache"].flatMap(RPCCacheStatus.init(json:)),
            schedule: json["schedule"].flatMap(RPCSchedule.init(lenient:)),
            inWindow: json["inWindow"]?.boolValue ?? true,
            nextWindow: json["nextWindow"]?.doubleValue, width: json["width"]?.intValue,
            height: json["height"]?.intValue, transition: RPCTransition(lenient: json["transition"]),
            motion: RPCMotion(lenient: json["motion"]), onStall: json["onStall"]?.stringValue,
            program: json["program"]?.intValue, latency: json["latency"]?.doubleValue,
            web: json["type"]?.stringValue == "web" ? RPCWebOptions(lenient: json["web"]) ?? RPCWebOptions() : nil)
    }

    /// Every key, in the document's order.
    public var json: JSONValue {
        .object([
            "id": .int(id),
            "uri": .string(uri),
            "title": title.map(JSONValue.string) ?? .null,
            "loops": .int(loops),
            "plays": .int(plays),
            "start": start.map(JSONValue.double) ?? .null,
            "end": end.map(JSONValue.double) ?? .null,
            "duration": duration.map(JSONValue.double) ?? .null,
            "trackEnd": trackEnd.map(JSONValue.string) ?? .null,
            "state": .string(state),
            "error": error.map(JSONValue.string) ?? .null,
            "sha256": sha256.map(JSONValue.string) ?? .null,
            "cache": cache?.json ?? .null,
            "schedule": schedule?.json ?? .null,
            "inWindow": .bool(inWindow),
            "nextWindow": nextWindow.map(JSONValue.double) ?? .null,
            "width": width.map(JSONValue.int) ?? .null,
            "height": height.map(JSONValue.int) ?? .null,
            "transition": transition?.json ?? .null,
            "motion": motion?.json ?? .null,
            "onStall": onStall.map(JSONValue.string) ?? .null,
            "program": program.map(JSONValue.int) ?? .null,
            "latency": latency.map(JSONValue.double) ?? .null,
            "type": .string(web == nil ? "media" : "web"),
            "web": web?.json ?? .null,
        ])
    }
}

/// The CacheStatus shape: how much of an http(s) item's file is on disk.
public struct RPCCacheStatus: Sendable, Equatable {
    /// "none" | "partial" | "complete" | "stale" | "error".
    public var state: String
    public var bytes: Int64
    /// The file's length, once the server declared it.
    public var length: Int64?
    public var error: String?

    public init(state: String, bytes: Int64 = 0, length: Int64? = nil, error: String? = nil) {
        self.state = state
        self.bytes = bytes
        self.length = length
        self.error = error
    }

    public init?(json: JSONValue) {
        guard let state = json["state"]?.stringValue else { return nil }
        self.init(
            state: state, bytes: json["bytes"]?.intValue ?? 0, length: json["length"]?.intValue,
            error: json["error"]?.stringValue)
    }

    public var json: JSONValue {
        .object([
            "state": .string(state), "bytes": .int(bytes), "length": length.map(JSONValue.int) ?? .null,
            "error": error.map(JSONValue.string) ?? .null,
        ])
    }
}
