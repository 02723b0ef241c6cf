// The Status shape of Protocol/queued.openrpc.json (components/schemas/Status), defined once: the server
// encodes it (`json`, every key present), clients decode it leniently (`init?(json:)`: defaults for what a
// daemon left out, unknown keys ignored) so that a field added later never breaks them.

public struct RPCStatus: Sendable, Equatable {
    /// "idle" | "playing" | "paused" | "stopped".
    public var state: String
    public var currentId: Int64?
    public var position: Double
    public var duration: Double?
    /// Play number of the current item (1 = first play), 0 when none.
    public var play: Int64
    public var volume: Int64
    public var muted: Bool
    public var rate: Double
    /// Passes through the whole queue; 0 = forever, 1 = once.
    public var queueLoops: Int64
    public var error: String?
    /// The current item's title, uri and loop count (null when none; absent from daemons before 0.3).
    public var title: String?
    public var uri: String?
    public var loops: Int64?
    /// "fit" | "fill" | "stretch".
    public var fit: String
    public var fullscreen: Bool
    /// Degrees the picture is turned clockwise on the screen: 0, 90, 180 or 270 (absent from older daemons: 0).
    public var rotate: Int64
    public var queueVersion: Int64
    public var droppedFrames: Int64
    /// Playing, but waiting for a network item's bytes (absent from daemons before 0.4: false).
    public var buffering: Bool
    /// Playing, but every item is outside its schedule: the fallback shows until a window opens.
    public var waitingForSchedule: Bool
    /// A synchronized start (`player.play {at}`) waiting for its instant: that instant, Unix seconds.
    public var startsAt: Double?
    /// The current item is an interrupt (`queue.interrupt`): the queue resumes after it.
    public var interrupt: Bool
    /// The desired-state revision the queue was last replaced with (absent from older daemons: nil).
    public var appliedRev: Int64?
    /// The current play's video decoder: `{codec, hwdec}` (hwdec nil in software); nil without pictures.
    public var decoder: RPCDecoder?
    /// The current play's stream: `{live, stalls, down}`; nil for files.
    public var stream: RPCStreamStatus?
    /// The current play's web page: `{loaded, url, title}`; nil for everything else.
    public var web: RPCWebStatus?
    /// The screen's power (absent from older daemons: on, by the schedule).
    public var display: RPCDisplay

    public init(
        state: String = "idle", currentId: Int64? = nil, position: Double = 0, duration: Double? = nil,
        play: Int64 = 0, volume: Int64 = 100, muted: Bool = false, rate: Double = 1, queueLoops: Int64 = 1,
        error: String? = nil, title: String? = nil, uri: String? = nil, loops: Int64? = nil, fit: String = "fit",
        fullscreen: Bool = false, rotate: Int64 = 0, queueVersion: Int64 = 0, droppedFrames: Int64 = 0,
        buffering: Bool = false, waitingForSchedule: Bool = false, startsAt: Double? = nil, interrupt: Bool = false,
        appliedRev: Int64? = nil, decoder: RPCDecoder? = nil, stream: RPCStreamStatus? = nil, web: RPCWebStatus? = nil,
        display: RPCDisplay = RPCDisplay()
    ) {
        self.state = state
        self.currentId = currentId
        self.position = position
        self.duration = duration
        self.play = play
        self.volume = volume
        self.muted = muted
        self.rate = rate
        self.queueLoops = queueLoops
        self.error = error
        self.title = title
        self.uri = uri
        self.loops = loops
        self.fit = fit
        self.fullscreen = fullscreen
        self.rotate = rotate
        self.queueVersion = queueVersion
        self.droppedFrames = droppedFrames
        self.buffering = buffering
        self.waitingForSchedule = waitingForSchedule
        self.startsAt = startsAt
        self.interrupt = interrupt
        self.appliedRev = appliedRev
        self.decoder = decoder
        self.stream = stream
        self.web = web
        self.display = display
    }

    /// nil unless `json` is an object with a string `state` (the one field no status lacks).
    public init?(json: JSONValue) {
        guard let state = json["state"]?.stringValue else { return nil }
        self.init(
            state: state, currentId: json["currentId"]?.intValue, position: json["position"]?.doubleValue ?? 0,
            duration: json["duration"]?.doubleValue, play: json["play"]?.intValue ?? 0,
            volume: json["volume"]?.intValue ?? 100, muted: json["muted"]?.boolValue ?? false,
            rate: json["rate"]?.doubleValue ?? 1, queueLoops: json["queueLoops"]?.intValue ?? 1,
            error: json["error"]?.stringValue, title: json["title"]?.stringValue, uri: json["uri"]?.stringValue,
            loops: json["loops"]?.intValue, fit: json["fit"]?.stringValue ?? "fit",
            fullscreen: json["fullscreen"]?.boolValue ?? false, rotate: json["rotate"]?.intValue ?? 0,
            queueVersion: json["queueVersion"]?.intValue ?? 0,
            droppedFrames: json["droppedFrames"]?.intValue ?? 0, buffering: json["buffering"]?.boolValue ?? false,
            waitingForSchedule: json["waitingForSchedule"]?.boolValue ?? false, startsAt: json["startsAt"]?.doubleValue,
            interrupt: json["interrupt"]?.boolValue ?? false, appliedRev: json["appliedRev"]?.intValue,
            decoder: json["decoder"].flatMap(RPCDecoder.init(json:)),
            stream: json["stream"].flatMap(RPCStreamStatus.init(json:)), web: json["web"].flatMap(RPCWebStatus.init(json:)),
            display: RPCDisplay(json: json["display"]))
    }

    /// Every key, in the document's order.
    public var json: JSONValue {
        .object([
            "state": .string(state),
            "currentId": currentId.map(JSONValue.int) ?? .null,
            "title": title.map(JSONValue.string) ?? .null,
            "uri": uri.map(JSONValue.string) ?? .null,
            "loops": loops.map(JSONValue.int) ?? .null,
            "position": .double(position),
            "duration": duration.map(JSONValue.double) ?? .null,
            "play": .int(play),
            "volume": .int(volume),
            "muted": .bool(muted),
            "rate": .double(rate),
            "fit": .string(fit),
            "fullscreen": .bool(fullscreen),
            "rotate": .int(rotate),
            "queueLoops": .int(queueLoops),
            "queueVersion": .int(queueVersion),
            "error": error.map(JSONValue.string) ?? .null,
            "droppedFrames": .int(droppedFrames),
            "buffering": .bool(buffering),
            "waitingForSchedule": .bool(waitingForSchedule),
            "startsAt": startsAt.map(JSONValue.double) ?? .null,
            "interrupt": .bool(interrupt),
            "appliedRev": appliedRev.map(JSONValue.int) ?? .null,
            "decoder": decoder?.json ?? .null,
            "stream": stream?.json ?? .null,
            "web": web?.json ?? .null,
            "display": display.json,
        ])
    }
}

/// A stream's play: whether it is live, how often it dropped, whether it is down now.
public struct RPCStreamStatus: Sendable, Equatable {
    public var live: Bool
    public var stalls: Int64
    public var down: Bool
    /// Bits per second over the last 2 s; seconds received and not yet heard (nil until first measured).
    public var bitrate: Int64?
    public var latency: Double?
    /// A live stream's pace: 1, or 1 ± 0.005 while its latency is brought back into its band.
    public var pace: Double?
    public init(
        live: Bool, stalls: Int64, down: Bool, bitrate: Int64? = nil, latency: Double? = nil, pace: Double? = nil
    ) {
        (self.live, self.stalls, self.down, self.bitrate, self.latency) = (live, stalls, down, bitrate, latency)
        self.pace = pace
    }
    public init?(json: JSONValue) {
        guard let live = json["live"]?.boolValue else { return nil }
        self.init(
            live: live, stalls: json["stalls"]?.intValue ?? 0, down: json["down"]?.boolValue ?? false,
            bitrate: json["bitrate"]?.intValue, latency: json["latency"]?.doubleValue, pace: json["pace"]?.doubleValue)
    }
    public var json: JSONValue {
        [
            "live": .bool(live), "stalls": .int(stalls), "down": .bool(down),
            "bitrate": bitrate.map(JSONValue.int) ?? .null, "latency": latency.map(JSONValue.double) ?? .null,
            "pace": pace.map(JSONValue.double) ?? .null,
        ]
    }
}

/// A play's video decoder: FFmpeg's codec name and the hardware method decoding it (nil in software).
public struct RPCDecoder: Sendable, Equatable {
    public var codec: String
    public var hwdec: String?

    public init(codec: String, hwdec: String?) {
        self.codec = codec
        self.hwdec = hwdec
    }
    public init?(json: JSONValue) {
        guard let codec = json["codec"]?.stringValue else { return nil }
        self.init(codec: codec, hwdec: json["hwdec"]?.stringValue)
    }
    public var json: JSONValue { ["codec": .string(codec), "hwdec": hwdec.map(JSONValue.string) ?? .null] }
}

extension RPCStatus: RPCMethodResult {}

/// A web item's page as its play shows it: loaded, the URL it was loaded from, its title (nil: none yet).
public struct RPCWebStatus: Sendable, Equatable {
    public var loaded: Bool
    public var url: String
    public var title: String?

    public init(loaded: Bool, url: String, title: String? = nil) {
        self.loaded = loaded
        self.url = url
        self.title = title
    }

    public init?(json: JSONValue) {
        guard let url = json["url"]?.stringValue else { return nil }
        self.init(loaded: json["loaded"]?.boolValue ?? false, url: url, title: json["title"]?.stringValue)
    }

    public var json: JSONValue {
        ["loaded": .bool(loaded), "url": .string(url), "title": title.map(JSONValue.string) ?? .null]
    }
}
