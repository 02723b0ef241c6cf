// An entry of queue.add / queue.insert `items` (components/schemas/ItemInput): a bare uri string, or an
// object with the uri and the item's options. Checked here field by field, with the entry's place in the
// error ("items[2].loops: must be an integer >= 0"); what the uri names (a file, a playlist) is the
// server's business.

public struct RPCItemInput: Sendable, Equatable {
    public static let fields: Set<String> = Set([
        "uri", "loops", "start", "end", "duration", "title", "trackEnd", "sha256", "schedule", "transition",
        "motion", "onStall", "program", "latency",
    ]).union(RPCWebOptions.fields)

    public var uri: String
    public var title: String?
    /// Plays per pass; 0 = forever; nil = once.
    public var loops: Int64?
    public var start: Double?
    public var end: Double?
    public var duration: Double?
    public var trackEnd: RPCTrackEnd?
    /// http(s) items: the file's SHA-256, hex (stored lowercase).
    public var sha256: String?
    /// Dayparting: when the item may play.
    public var schedule: RPCSchedule?
    /// How the item is joined to the play before it (nil: the daemon's default).
    public var transition: RPCTransition?
    /// Stills: a slow pan and zoom while shown.
    public var motion: RPCMotion?
    /// Streams: `hold` (the default), `black` or `skip` at a drop.
    public var onStall: String?
    public static let stallChoices = ["hold", "black", "skip"]
    /// Streams: the MPEG-TS program number to play (0...65535; nil: the program of the picture FFmpeg finds best).
    public var program: Int64?
    /// Live streams: the latency to keep, seconds (0.2...30; nil: the daemon's choice for its kind).
    public var latency: Double?
    /// Web pages: `type: web` and its options (nil for everything else).
    public var web: RPCWebOptions?

    public init(
        uri: String, title: String? = nil, loops: Int64? = nil, start: Double? = nil, end: Double? = nil,
        duration: Double? = nil, trackEnd: RPCTrackEnd? = nil, sha256: String? = nil,
        schedule: RPCSchedule? = nil, transition: RPCTransition? = nil, motion: RPCMotion? = nil,
        onStall: String? = nil, program: Int64? = nil, latency: Double? = nil, web: RPCWebOptions? = nil
    ) {
        self.uri = uri
        self.title = title
        self.loops = loops
        self.start = start
        self.end = end
        self.duration = duration
        self.trackEnd = trackEnd
        self.sha256 = sha256
        self.schedule = schedule
        self.transition = transition
        self.motion = motion
        self.onStall = onStall
        self.program = program
        self.latency = latency
        self.web = web
    }

    /// Strict decoding of one entry; `name` is its place in the params ("items[0]").
    public init(json value: JSONValue, name: String) throws(RPCError) {
        if let uri = value.stringValue {
            self.init(uri: uri)
            return
        }
        guard let object = value.objectValue else {
            throw .invalidParams(param: name, reason: "must be a string or an object with a uri")
        }
        if let unknown = object.keys.first(where: { !Self.fields.contains($0) }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        guard let uri = object["uri"]?.stringValue else {
            throw .invalidParams(param: "\(name).uri", reason: "is required (a string)")
        }
        func present(_ key: String) -> JSONValue? {
            guard let value = object[key], !value.isNull else { return nil }
            return value
        }
        func number(_ key: String) throws(RPCError) -> Double? {
            guard let value = present(key) else { return nil }
            guard let number = value.doubleValue, number.isFinite else {
                throw .invalidParams(param: "\(name).\(key)", reason: "must be a number")
            }
            return number
        }
        var loops: Int64?
        if let value = present("loops") {
            guard let count = value.intValue, count >= 0, count <= Int64(Int32.max) else {
                throw .invalidParams(param: "\(name).loops", reason: "must be an integer >= 0 (0 = forever)")
            }
            loops = count
        }
        var title: String?
        if let value = present("title") {
            guard let text = value.stringValue else {
                throw .invalidParams(param: "\(name).title", reason: "must be a string")
            }
            title = text
        }
        var sha256: String?
        if let value = present("sha256") {
            guard let text = value.stringValue?.lowercased(), Self.isSHA256(text) else {
                throw .invalidParams(param: "\(name).sha256", reason: "must be 64 hex digits")
            }
            sha256 = text
        }
        var onStall: String?
        if let value = present("onStall") {
            guard let text = value.stringValue, Self.stallChoices.contains(text) else {
                throw .invalidParams(param: "\(name).onStall", reason: "must be one of hold, black, skip")
            }
            onStall = text
        }
        var program: Int64?
        if let value = present("program") {
            guard let number = value.intValue, (0...65535).contains(number) else {
                throw .invalidParams(param: "\(name).program", reason: "must be an MPEG-TS program number, 0 to 65535")
            }
            program = number
        }
        let latency = try number("latency")
        if let latency, !(0.2...30).contains(latency) {
            throw .invalidParams(param: "\(name).latency", reason: "must be between 0.2 and 30 seconds")
        }
        self.init(
            uri: uri, title: title, loops: loops, start: try number("start"), end: try number("end"),
            duration: try number("duration"),
            trackEnd: try Self.trackEnd(object["trackEnd"], param: "\(name).trackEnd"), sha256: sha256,
            schedule: try present("schedule").map { value throws(RPCError) in
                try RPCSchedule(json: value, name: "\(name).schedule")
            },
            transition: try present("transition").map { value throws(RPCError) in
                try RPCTransition(json: value, name: "\(name).transition")
            },
            motion: try present("motion").map { value throws(RPCError) in
                try RPCMotion(json: value, name: "\(name).motion")
            }, onStall: onStall, program: program, latency: latency,
            web: try RPCWebOptions(item: object, name: name))
    }

    /// 64 lowercase hex digits: a `sha256` as stored (callers lowercase first; MediaItem has the model's
    /// own check, a layer below).
    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A `trackEnd` value: one of the cases, or null/absent (nil) for the daemon's default.
    public static func trackEnd(_ value: JSONValue?, param: String) throws(RPCError) -> RPCTrackEnd? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, let choice = RPCTrackEnd(rawValue: text) else {
            let allowed = RPCTrackEnd.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParams(param: param, reason: "must be one of \(allowed)")
        }
        return choice
    }

    /// The bare uri when no option is set, else an object with the options that are.
    public var json: JSONValue {
        var object = JSONObject()
        object["uri"] = .string(uri)
        object.setIfPresent("title", title.map(JSONValue.string))
        object.setIfPresent("loops", loops.map(JSONValue.int))
        object.setIfPresent("start", start.map(JSONValue.double))
        object.setIfPresent("end", end.map(JSONValue.double))
        object.setIfPresent("duration", duration.map(JSONValue.double))
        object.setIfPresent("trackEnd", trackEnd.map { .string($0.rawValue) })
        object.setIfPresent("sha256", sha256.map(JSONValue.string))
        object.setIfPresent("schedule", schedule?.json)
        object.setIfPresent("transition", transition?.json)
        object.setIfPresent("motion", motion?.json)
        object.setIfPresent("onStall", onStall.map(JSONValue.string))
        object.setIfPresent("program", program.map(JSONValue.int))
        object.setIfPresent("latency", latency.map(JSONValue.double))
        web?.members(into: &object)
        return object.keys.count == 1 ? .string(uri) : .object(object)
    }
}
