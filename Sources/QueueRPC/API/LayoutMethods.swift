// layout.set and layout.get: the screen cut into zones, each with its own queue (issue 39). The wire form of
// a zone as clients send it; the server turns it into ScreenLayout's Zone and checks the layout whole.

extension API {
    public enum LayoutSet: RPCMethodDefinition {
        public static let name = "layout.set"

        public enum Moment: String, Sendable, CaseIterable {
            case now, itemEnd
        }

        public struct Params: RPCMethodParams, Equatable {
            public static let order = ["zones", "at", "layouts"]
            /// One layout, always in force (or `layouts`).
            public var zones: [RPCZone]
            public var at: Moment?
            /// Layouts by daypart (instead of `zones`): the first whose schedule is open is in force, the one
            /// without a schedule otherwise.
            public var layouts: [RPCLayout]?

            public init(zones: [RPCZone], at: Moment? = nil) {
                self.zones = zones
                self.at = at
            }

            public init(layouts: [RPCLayout], at: Moment? = nil) {
                zones = []
                self.layouts = layouts
                self.at = at
            }

            public init(reading params: ParamReader) throws(RPCError) {
                at = try params.enum("at", Moment.self)
                if let entries = try params.array("layouts") {
                    guard !params.has("zones") else { throw .invalidParams(param: "layouts", reason: "give zones or layouts, not both") }
                    guard !entries.isEmpty, entries.count <= 24 else { throw .invalidParams(param: "layouts", reason: "1 to 24 layouts") }
                    var layouts: [RPCLayout] = []
                    for (index, entry) in entries.enumerated() { layouts.append(try RPCLayout(json: entry, param: "layouts[\(index)]")) }
                    self.layouts = layouts
                    zones = []
                    return
                }
                zones = try Self.zones(try params.requiredArray("zones"), param: "zones")
            }

            static func zones(_ elements: [JSONValue], param: String) throws(RPCError) -> [RPCZone] {
                guard !elements.isEmpty else { throw .invalidParams(param: param, reason: "needs at least the zone \"main\"") }
                guard elements.count <= 16 else { throw .invalidParams(param: param, reason: "at most 16 zones") }
                var zones: [RPCZone] = []
                for (index, element) in elements.enumerated() {
                    zones.append(try RPCZone(json: element, param: "\(param)[\(index)]"))
                }
                return zones
            }

            public var json: JSONValue? {
                var object: JSONObject = [:]
                if let layouts {
                    object["layouts"] = .array(layouts.map(\.json))
                } else {
                    object["zones"] = .array(zones.map(\.json))
                }
                object.setIfPresent("at", at.map { .string($0.rawValue) })
                return .object(object)
            }

            public var references: [String] { [] }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var zones: [RPCZone]
            /// The new layout waits for the main zone's item to end (`at: itemEnd`).
            public var pending: Bool

            public init(zones: [RPCZone], pending: Bool) {
                self.zones = zones
                self.pending = pending
            }
            public init?(json: JSONValue) {
                guard let zones = json["zones"]?.arrayValue else { return nil }
                self.zones = zones.compactMap { try? RPCZone(json: $0, param: "zones") }
                pending = json["pending"]?.boolValue ?? false
            }
            public var json: JSONValue { ["zones": .array(zones.map(\.json)), "pending": .bool(pending)] }
        }
    }

    public enum LayoutGet: RPCMethodDefinition {
        public static let name = "layout.get"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            public var zones: [RPCZone]
            /// The output's size in pixels, against which the zones' rectangles are placed (nil: not known).
            public var width: Int64?
            public var height: Int64?
            /// The layouts by daypart, when set that way (nil: one layout), and the name of the one in force.
            public var layouts: [RPCLayout]?
            public var active: String?

            public init(zones: [RPCZone], width: Int64? = nil, height: Int64? = nil, layouts: [RPCLayout]? = nil, active: String? = nil) {
                self.zones = zones
                self.width = width
                self.height = height
                self.layouts = layouts
                self.active = active
            }
            public init?(json: JSONValue) {
                guard let zones = json["zones"]?.arrayValue else { return nil }
                self.zones = zones.compactMap { try? RPCZone(json: $0, param: "zones") }
                width = json["width"]?.intValue
                height = json["height"]?.intValue
                layouts = json["layouts"]?.arrayValue?.compactMap { try? RPCLayout(json: $0, param: "layouts") }
                active = json["active"]?.stringValue
            }
            public var json: JSONValue {
                [
                    "zones": .array(zones.map(\.json)), "width": width.map(JSONValue.int) ?? .null,
                    "height": height.map(JSONValue.int) ?? .null, "layouts": layouts.map { .array($0.map(\.json)) } ?? .null,
                    "active": active.map(JSONValue.string) ?? .null,
                ]
            }
        }
    }
}

/// A length in a zone's rectangle as sent: pixels (a number) or a share (`"75%"`).
public enum RPCZoneLength: Sendable, Equatable {
    case pixels(Double)
    /// The percentage as a number: `"75%"` is 75.
    case percent(Double)

    init(json: JSONValue, param: String) throws(RPCError) {
        if let number = json.doubleValue, number.isFinite {
            self = .pixels(number)
        } else if let text = json.stringValue, text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite {
            self = .percent(percent)
        } else {
            throw .invalidParams(param: param, reason: "must be a number of pixels or a share such as \"75%\"")
        }
    }

    var json: JSONValue {
        switch self {
        case .pixels(let value): value == value.rounded() && abs(value) < 1e15 ? .int(Int64(value)) : .double(value)
        case .percent(let value): .string("\(value == value.rounded() ? "\(Int64(value))" : "\(value)")%")
        }
    }
}

/// A zone as sent: see the document's `Zone` schema. Absent optional fields are nil (the server's defaults).
public struct RPCZone: Sendable, Equatable {
    public struct Rect: Sendable, Equatable {
        public var x, y, w, h: RPCZoneLength
        public init(x: RPCZoneLength, y: RPCZoneLength, w: RPCZoneLength, h: RPCZoneLength) {
            (self.x, self.y, self.w, self.h) = (x, y, w, h)
        }
    }

    public enum Content: String, Sendable, CaseIterable {
        case video, stills, text
    }

    public var name: String
    /// nil: the music zone (no rectangle).
    public var rect: Rect?
    public var z: Int64?
    public var fit: RPCFit?
    public var rotate: Int64?
    /// "#rrggbb".
    public var background: String?
    public var audio: Bool?
    public var content: Content?
    public var duck: Double?
    public var duckRamp: Double?

    public init(name: String, rect: Rect?) {
        self.name = name
        self.rect = rect
    }

    /// A zone's name as every method takes it: 1 to 32 letters, digits, '-' or '_' (ScreenLayout's rule).
    public static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    static let keys = ["name", "rect", "z", "fit", "rotate", "background", "audio", "content", "duck", "duckRamp"]

    public init(json: JSONValue, param: String) throws(RPCError) {
        guard let object = json.objectValue else { throw .invalidParams(param: param, reason: "must be an object") }
        for key in object.keys where !Self.keys.contains(key) {
            throw .invalidParams(param: "\(param).\(key)", reason: "unknown field")
        }
        let fields = try ParamReader(.byName(object), order: Self.keys)
        func named(_ error: RPCError, _ key: String) -> RPCError {
            .invalidParams(param: "\(param).\(key)", reason: error.data?["reason"]?.stringValue ?? error.message)
        }
        do { name = try fields.requiredString("name") } catch { throw named(error, "name") }
        if let rectValue = object["rect"], !rectValue.isNull {
            guard let rect = rectValue.objectValue else { throw .invalidParams(param: "\(param).rect", reason: "must be an object {x, y, w, h} or null") }
            for key in rect.keys where !["x", "y", "w", "h"].contains(key) {
                throw .invalidParams(param: "\(param).rect.\(key)", reason: "unknown field")
            }
            func length(_ key: String) throws(RPCError) -> RPCZoneLength {
                guard let value = rect[key] else { throw .invalidParams(param: "\(param).rect.\(key)", reason: "is required") }
                return try RPCZoneLength(json: value, param: "\(param).rect.\(key)")
            }
            self.rect = Rect(x: try length("x"), y: try length("y"), w: try length("w"), h: try length("h"))
        } else {
            rect = nil
        }
        do { z = try fields.int("z") } catch { throw named(error, "z") }
        do { fit = try fields.enum("fit", RPCFit.self) } catch { throw named(error, "fit") }
        do { rotate = try fields.int("rotate") } catch { throw named(error, "rotate") }
        do { background = try fields.string("background") } catch { throw named(error, "background") }
        do { audio = try fields.bool("audio") } catch { throw named(error, "audio") }
        do { content = try fields.enum("content", Content.self) } catch { throw named(error, "content") }
        do { duck = try fields.double("duck") } catch { throw named(error, "duck") }
        do { duckRamp = try fields.double("duckRamp") } catch { throw named(error, "duckRamp") }
    }

    public var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        object["rect"] = rect.map { ["x": $0.x.json, "y": $0.y.json, "w": $0.w.json, "h": $0.h.json] } ?? .null
        object.setIfPresent("z", z.map(JSONValue.int))
        object.setIfPresent("fit", fit.map { .string($0.rawValue) })
        object.setIfPresent("rotate", rotate.map(JSONValue.int))
        object.setIfPresent("background", background.map(JSONValue.string))
        object.setIfPresent("audio", audio.map(JSONValue.bool))
        object.setIfPresent("content", content.map { .string($0.rawValue) })
        object.setIfPresent("duck", duck.map(JSONValue.double))
        object.setIfPresent("duckRamp", duckRamp.map(JSONValue.double))
        return .object(object)
    }
}

/// One layout of a plan by daypart: its name, its schedule (nil: the fallback) and its zones.
public struct RPCLayout: Sendable, Equatable {
    public var name: String?
    public var schedule: RPCSchedule?
    public var zones: [RPCZone]

    public init(name: String?, schedule: RPCSchedule?, zones: [RPCZone]) {
        self.name = name
        self.schedule = schedule
        self.zones = zones
    }

    public init(json: JSONValue, param: String) throws(RPCError) {
        guard let object = json.objectValue else { throw .invalidParams(param: param, reason: "must be an object {name, schedule, zones}") }
        for key in object.keys where !["name", "schedule", "zones"].contains(key) {
            throw .invalidParams(param: "\(param).\(key)", reason: "unknown field")
        }
        if let value = object["name"], !value.isNull {
            guard let text = value.stringValue, (1...64).contains(text.utf8.count) else {
                throw .invalidParams(param: "\(param).name", reason: "must be a string of 1 to 64 bytes")
            }
            name = text
        }
        if let value = object["schedule"], !value.isNull { schedule = try RPCSchedule(json: value, name: "\(param).schedule") }
        guard let zones = object["zones"]?.arrayValue else { throw .invalidParams(param: "\(param).zones", reason: "is required (an array of zones)") }
        self.zones = try API.LayoutSet.Params.zones(zones, param: "\(param).zones")
    }

    public var json: JSONValue {
        var object: JSONObject = [:]
        object.setIfPresent("name", name.map(JSONValue.string))
        object.setIfPresent("schedule", schedule?.json)
        object["zones"] = .array(zones.map(\.json))
        return .object(object)
    }
}
