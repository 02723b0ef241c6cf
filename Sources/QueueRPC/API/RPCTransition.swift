// An item's `transition` on the wire (components/schemas/Transition): how it is joined to the play before
// it. `{"type": "fade", "duration": 1.5}`, `{"type": "dip", "duration": 1, "color": "#ffffff"}`,
// `{"type": "crossfade", "duration": 2}` or `{"type": "cut"}`; checked field by field, with the place in the params named in errors.

public struct RPCTransition: Sendable, Equatable {
    /// "cut" | "fade" | "dip" | "crossfade".
    public var type: String
    /// Seconds the whole change lasts, 0.1–5 (absent for a cut; 1 when absent for a fade or a dip).
    public var duration: Double?
    /// A dip's colour, "#rrggbb" (white when absent).
    public var color: String?

    public static let types = ["cut", "fade", "dip", "crossfade"]

    public init(type: String, duration: Double? = nil, color: String? = nil) {
        self.type = type
        self.duration = duration
        self.color = color
    }

    public init(json value: JSONValue, name: String) throws(RPCError) {
        guard let object = value.objectValue else {
            throw .invalidParams(param: name, reason: "must be an object such as {\"type\": \"fade\", \"duration\": 1}")
        }
        if let unknown = object.keys.first(where: { !["type", "duration", "color"].contains($0) }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        guard let type = object["type"]?.stringValue, Self.types.contains(type) else {
            throw .invalidParams(param: "\(name).type", reason: "must be one of cut, fade, dip, crossfade")
        }
        var duration: Double?
        if let value = object["duration"], !value.isNull {
            guard let seconds = value.doubleValue, seconds.isFinite, (0.1...5).contains(seconds) || type == "cut" else {
                throw .invalidParams(param: "\(name).duration", reason: "must be 0.1 to 5 seconds")
            }
            duration = seconds
        }
        var color: String?
        if let value = object["color"], !value.isNull {
            guard type == "dip", let text = value.stringValue, Self.isColor(text) else {
                throw .invalidParams(param: "\(name).color", reason: "must be \"#rrggbb\", for a dip")
            }
            color = text.lowercased()
        }
        self.init(type: type, duration: type == "cut" ? nil : duration, color: color)
    }

    /// Lenient (a client reading what a daemon sent): nil unless it has a type.
    public init?(lenient value: JSONValue?) {
        guard let type = value?["type"]?.stringValue else { return nil }
        self.init(type: type, duration: value?["duration"]?.doubleValue, color: value?["color"]?.stringValue)
    }

    /// The text form of `--transition`, `queuectl add --transition` and playlists: "cut", "fade", "fade:1.5",
    /// "dip:0.8", "dip:1:#ff8800", "crossfade:2". nil when it is none of those (the duration's range is checked on the
    /// way into the queue, like the wire form's).
    public init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let type = parts[0].lowercased()
        guard Self.types.contains(type), parts.count <= (type == "dip" ? 3 : type == "cut" ? 1 : 2) else { return nil }
        var duration: Double?
        if parts.count > 1 {
            guard let seconds = Double(parts[1]), seconds.isFinite else { return nil }
            duration = seconds
        }
        var color: String?
        if parts.count > 2 {
            let hex = parts[2].hasPrefix("#") ? parts[2] : "#" + parts[2]
            guard Self.isColor(hex) else { return nil }
            color = hex.lowercased()
        }
        self.init(type: type, duration: duration, color: color)
    }

    /// The text form `init(text:)` reads.
    public var text: String {
        var text = type
        if let duration { text += ":" + duration.plainText }
        if let color { text += (duration == nil ? ":1" : "") + ":" + color }
        return text
    }

    /// Whether the duration is in range (a cut has none).
    public var isValid: Bool { type == "cut" || (duration ?? 1).isFinite && (0.1...5).contains(duration ?? 1) }

    public var json: JSONValue {
        var object = JSONObject()
        object["type"] = .string(type)
        object.setIfPresent("duration", duration.map(JSONValue.double))
        object.setIfPresent("color", color.map(JSONValue.string))
        return .object(object)
    }

    static func isColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "#")
            && bytes.dropFirst().allSatisfy { $0.isASCIIHexDigit }
    }
}

extension UInt8 {
    fileprivate var isASCIIHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

extension Double {
    /// "2" for a whole number, "0.25" otherwise: how the text forms (transition, motion) write numbers.
    var plainText: String { self == rounded() ? String(Int(self)) : String(self) }
}
