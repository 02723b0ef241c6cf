// An overlay on the wire (components/schemas/Overlay and OverlayFields): the params of overlay.add and
// overlay.update, and each entry of overlay.list. Shapes and ranges are checked here field by field with
// the field's name in the error; turning the fields into a layer (and the layer's own rules, such as which
// fields fit which type) is the server's business.

/// What a layer shows.
public enum RPCOverlayType: String, Sendable, CaseIterable {
    case text, image, clock, ticker
}

/// Where a layer is pinned.
public enum RPCOverlayAnchor: String, Sendable, CaseIterable {
    case topLeft = "top-left", top, topRight = "top-right", left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"
}

/// An offset: a number of pixels, or a string "5%" (of the screen's width for x, height for y) or "12px".
public enum RPCLength: Sendable, Equatable {
    case pixels(Double)
    case percent(Double)

    public init(json value: JSONValue, param: String) throws(RPCError) {
        if let number = value.doubleValue, number.isFinite {
            self = .pixels(number)
            return
        }
        if let text = value.stringValue {
            if text.hasSuffix("%"), let number = Double(text.dropLast()), number.isFinite {
                self = .percent(number)
                return
            }
            if text.hasSuffix("px"), let number = Double(text.dropLast(2)), number.isFinite {
                self = .pixels(number)
                return
            }
        }
        throw .invalidParams(param: param, reason: "must be a number of pixels or a string like \"5%\"")
    }

    /// Pixels as a number (an integer when whole), percent as "5%".
    var json: JSONValue {
        switch self {
        case .pixels(let value): return Int64(exactly: value).map(JSONValue.int) ?? .double(value)
        case .percent: return .string(text)
        }
    }

    /// `12` or `5%`, as queuectl takes and shows them.
    public var text: String {
        switch self {
        case .pixels(let value): return Self.number(value)
        case .percent(let value): return Self.number(value) + "%"
        }
    }

    /// A whole number without a fraction ("12", not "12.0").
    public static func number(_ value: Double) -> String {
        Int64(exactly: value).map(String.init) ?? String(value)
    }
}

public struct RPCOverlay: Sendable, Equatable {
    /// The fields in the document's order.
    public static let order = [
        "type", "text", "path", "format", "speed", "font", "size", "color", "background", "padding", "anchor", "x",
        "y", "opacity", "visible", "item", "z", "zone",
    ]
    public static let sizes: ClosedRange<Int64> = 1...1000
    public static let paddings: ClosedRange<Int64> = 0...1000
    public static let speeds: ClosedRange<Double> = 1...10_000

    /// Set in overlay.list entries and overlay.update's result.
    public var id: Int64?
    public var type: RPCOverlayType?
    /// text and ticker layers (placeholders {title}, {id}, {position}, {duration}).
    public var text: String?
    /// image layers: a PNG or JPEG file.
    public var path: String?
    /// clock layers: a strftime pattern.
    public var format: String?
    /// ticker layers: pixels per second.
    public var speed: Double?
    public var font: String?
    public var size: Int64?
    /// "#rrggbb" or "#rrggbbaa".
    public var color: String?
    /// A box behind the layer: a colour; `.some(nil)` (null) for none; nil when not given.
    public var background: String??
    public var padding: Int64?
    public var anchor: RPCOverlayAnchor?
    public var x: RPCLength?
    public var y: RPCLength?
    public var opacity: Double?
    public var visible: Bool?
    /// Shown only while this queue item plays; `.some(nil)` (null) for always; nil when not given.
    public var item: Int64??
    public var z: Int64?
    /// Drawn in this zone's rectangle (anchored to it); `.some(nil)` (null) for the whole screen; nil when
    /// not given.
    public var zone: String??

    public init(id: Int64? = nil, type: RPCOverlayType? = nil) {
        self.id = id
        self.type = type
    }

    /// Strict decoding of the overlay fields among `params` (overlay.add's and overlay.update's params, or
    /// an overlay.list entry read back), with ParamReader's wording for every mistake; the reader has
    /// already refused names that are neither these fields nor the caller's own (such as `id`).
    public init(reading params: ParamReader) throws(RPCError) {
        func colour(_ key: String) throws(RPCError) -> String? {
            guard let text = try params.string(key) else { return nil }
            guard Self.isColour(text) else {
                throw .invalidParams(param: key, reason: "must be a colour \"#rrggbb\" or \"#rrggbbaa\"")
            }
            return text
        }
        func length(_ key: String) throws(RPCError) -> RPCLength? {
            guard params.has(key), let value = params.raw(key) else { return nil }
            return try RPCLength(json: value, param: key)
        }
        type = try params.enum("type", RPCOverlayType.self)
        text = try params.string("text")
        path = try params.string("path")
        format = try params.string("format")
        speed = try params.double("speed", in: Self.speeds)
        font = try params.string("font")
        size = try params.int("size", in: Self.sizes)
        color = try colour("color")
        if params.raw("background") != nil { background = .some(try colour("background")) }
        padding = try params.int("padding", in: Self.paddings)
        anchor = try params.enum("anchor", RPCOverlayAnchor.self)
        x = try length("x")
        y = try length("y")
        opacity = try params.double("opacity", in: 0...1)
        visible = try params.bool("visible")
        if params.raw("item") != nil { item = .some(try params.int("item", in: 1...Int64.max)) }
        z = try params.int("z", in: -1_000_000...1_000_000)
        if params.raw("zone") != nil {
            let name = try params.string("zone")
            if let name, !RPCZone.isValidName(name) {
                throw .invalidParams(param: "zone", reason: "must be a zone name: 1 to 32 letters, digits, '-' or '_'")
            }
            zone = .some(name)
        }
    }

    /// "#rrggbb" or "#rrggbbaa", any case.
    public static func isColour(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.utf8.first == UInt8(ascii: "#") && (digits.count == 6 || digits.count == 8)
            && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
    }

    /// Every field that is set (`background`/`item` null when set to none).
    public var json: JSONValue {
        var object = JSONObject()
        object.setIfPresent("id", id.map(JSONValue.int))
        object.setIfPresent("type", type.map { .string($0.rawValue) })
        object.setIfPresent("text", text.map(JSONValue.string))
        object.setIfPresent("path", path.map(JSONValue.string))
        object.setIfPresent("format", format.map(JSONValue.string))
        object.setIfPresent("speed", speed.map(JSONValue.double))
        object.setIfPresent("font", font.map(JSONValue.string))
        object.setIfPresent("size", size.map(JSONValue.int))
        object.setIfPresent("color", color.map(JSONValue.string))
        if let background { object["background"] = background.map(JSONValue.string) ?? .null }
        object.setIfPresent("padding", padding.map(JSONValue.int))
        object.setIfPresent("anchor", anchor.map { .string($0.rawValue) })
        object.setIfPresent("x", x?.json)
        object.setIfPresent("y", y?.json)
        object.setIfPresent("opacity", opacity.map(JSONValue.double))
        object.setIfPresent("visible", visible.map(JSONValue.bool))
        if let item { object["item"] = item.map(JSONValue.int) ?? .null }
        object.setIfPresent("z", z.map(JSONValue.int))
        if let zone { object["zone"] = zone.map(JSONValue.string) ?? .null }
        return .object(object)
    }

    /// Reads an entry back (a client's view of overlay.list); nil when it is not an overlay object.
    public init?(json value: JSONValue) {
        guard let object = value.objectValue,
            let params = try? ParamReader(.byName(object), order: ["id"] + Self.order),
            let overlay = try? RPCOverlay(reading: params)
        else { return nil }
        self = overlay
        id = object["id"]?.intValue
    }
}
