// A still's `motion` on the wire (components/schemas/Motion): `"auto"`, or `{"from": FRAME, "to": FRAME}`
// with each FRAME `{"x", "y", "width", "height"}` in fractions (0–1) of the picture as seen. The text form
// (playlists, `queuectl add --motion`) is "auto" or "x,y,w,h>x,y,w,h".

public struct RPCMotion: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// nil for `auto`.
    public var from: Frame?
    public var to: Frame?

    public static let auto = RPCMotion(from: nil, to: nil)
    public var isAuto: Bool { from == nil || to == nil }

    public init(from: Frame?, to: Frame?) {
        self.from = from
        self.to = to
    }

    public init(json value: JSONValue, name: String) throws(RPCError) {
        if value.stringValue == "auto" {
            self = .auto
            return
        }
        guard let object = value.objectValue else {
            throw .invalidParams(param: name, reason: "must be \"auto\" or {\"from\": {x, y, width, height}, \"to\": {…}}")
        }
        if let unknown = object.keys.first(where: { $0 != "from" && $0 != "to" }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        self.init(
            from: try Self.frame(object["from"], name: "\(name).from"), to: try Self.frame(object["to"], name: "\(name).to"))
    }

    private static func frame(_ value: JSONValue?, name: String) throws(RPCError) -> Frame {
        let fields = ["x", "y", "width", "height"]
        guard let object = value?.objectValue else {
            throw .invalidParams(param: name, reason: "is required: {x, y, width, height} in fractions of the picture")
        }
        if let unknown = object.keys.first(where: { !fields.contains($0) }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        var numbers: [Double] = []
        for field in fields {
            guard let number = object[field]?.doubleValue, number.isFinite, (0...1).contains(number) else {
                throw .invalidParams(param: "\(name).\(field)", reason: "must be a number from 0 to 1")
            }
            numbers.append(number)
        }
        return Frame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// Lenient (a client reading what a daemon sent).
    public init?(lenient value: JSONValue?) {
        guard let value, !value.isNull else { return nil }
        guard let motion = try? RPCMotion(json: value, name: "motion") else { return nil }
        self = motion
    }

    public var json: JSONValue {
        guard let from, let to else { return .string("auto") }
        func frame(_ frame: Frame) -> JSONValue {
            ["x": .double(frame.x), "y": .double(frame.y), "width": .double(frame.width), "height": .double(frame.height)]
        }
        return ["from": frame(from), "to": frame(to)]
    }

    /// "auto" or "x,y,w,h>x,y,w,h"; nil otherwise (the frames' fit in the picture is checked on the way in).
    public init?(text: String) {
        if text == "auto" {
            self = .auto
            return
        }
        let ends = text.split(separator: ">", omittingEmptySubsequences: false)
        guard ends.count == 2 else { return nil }
        let frames = ends.map { end -> Frame? in
            let numbers = end.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
            guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else { return nil }
            return Frame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        guard let from = frames[0], let to = frames[1] else { return nil }
        self.init(from: from, to: to)
    }

    public var text: String {
        guard let from, let to else { return "auto" }
        func words(_ frame: Frame) -> String {
            [frame.x, frame.y, frame.width, frame.height].map(\.plainText).joined(separator: ",")
        }
        return words(from) + ">" + words(to)
    }
}
