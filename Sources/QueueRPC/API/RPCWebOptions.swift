// A web item's options on the wire (issue 40): `type: "web"` and, beside it in the item, `reload`, `zoom`,
// `viewport: {width, height}`, `interval` and `loadTimeout` (ItemInput); a QueueItem says `type` and has
// them in `web` (null for other items), which ItemInput also takes, so an item read can be given back.

import JSONText

public struct RPCWebOptions: Sendable, Equatable {
    public static let fields: Set<String> = ["type", "web", "reload", "zoom", "viewport", "interval", "loadTimeout"]
    static let options = ["reload", "zoom", "viewport", "interval", "loadTimeout"]
    public static let reloadChoices = ["each-play", "keep"]

    /// `each-play` (nil) or `keep`.
    public var reload: String?
    public var zoom: Double?
    public var viewport: (width: Int64, height: Int64)?
    public var interval: Double?
    public var loadTimeout: Double?

    public init(
        reload: String? = nil, zoom: Double? = nil, viewport: (width: Int64, height: Int64)? = nil,
        interval: Double? = nil, loadTimeout: Double? = nil
    ) {
        self.reload = reload
        self.zoom = zoom
        self.viewport = viewport
        self.interval = interval
        self.loadTimeout = loadTimeout
    }

    public static func == (left: RPCWebOptions, right: RPCWebOptions) -> Bool {
        left.reload == right.reload && left.zoom == right.zoom && left.viewport?.width == right.viewport?.width
            && left.viewport?.height == right.viewport?.height && left.interval == right.interval
            && left.loadTimeout == right.loadTimeout
    }

    /// The web options of an item object (nil when it is not `type: web`); strict, `name` is its place.
    public init?(item: JSONObject, name: String) throws(RPCError) {
        var object = item
        var name = name
        if let nested = item["web"], !nested.isNull {
            guard let options = nested.objectValue else {
                throw .invalidParams(param: "\(name).web", reason: "must be an object of web options")
            }
            if let stray = Self.options.first(where: { item[$0].map { !$0.isNull } ?? false }) {
                throw .invalidParams(param: "\(name).\(stray)", reason: "is given in web too")
            }
            if let unknown = options.keys.first(where: { !Self.options.contains($0) }) {
                throw .invalidParams(param: "\(name).web.\(unknown)", reason: "unknown field")
            }
            if item["type"]?.stringValue != "web" && !(item["type"]?.isNull ?? true) {
                throw .invalidParams(param: "\(name).type", reason: "must be web with web options")
            }
            object = options
            object["type"] = .string("web")
            name += ".web"
        }
        func present(_ key: String) -> JSONValue? {
            guard let value = object[key], !value.isNull else { return nil }
            return value
        }
        func number(_ key: String, _ range: ClosedRange<Double>, _ reason: String) throws(RPCError) -> Double? {
            guard let value = present(key) else { return nil }
            guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
                throw .invalidParams(param: "\(name).\(key)", reason: reason)
            }
            return number
        }
        guard let type = present("type") else {
            if let stray = Self.options.first(where: { present($0) != nil }) {
                throw .invalidParams(param: "\(name).\(stray)", reason: "is for web items only (type: web)")
            }
            return nil
        }
        guard let text = type.stringValue, ["web", "media"].contains(text) else {
            throw .invalidParams(param: "\(name).type", reason: "must be web or media")
        }
        if text == "media" {
            if let stray = Self.options.first(where: { present($0) != nil }) {
                throw .invalidParams(param: "\(name).\(stray)", reason: "is for web items only (type: web)")
            }
            return nil
        }
        if let value = present("reload") {
            guard let choice = value.stringValue, Self.reloadChoices.contains(choice) else {
                throw .invalidParams(param: "\(name).reload", reason: "must be each-play or keep")
            }
            reload = choice
        }
        zoom = try number("zoom", 0.25...5, "must be a number from 0.25 to 5")
        interval = try number("interval", 5...(86_400 * 365), "must be at least 5 seconds")
        loadTimeout = try number("loadTimeout", 1...300, "must be between 1 and 300 seconds")
        if let value = present("viewport") {
            guard let size = value.objectValue, size.keys.allSatisfy({ $0 == "width" || $0 == "height" }),
                let width = size["width"]?.intValue, let height = size["height"]?.intValue,
                (16...7680).contains(width), (16...7680).contains(height)
            else {
                throw .invalidParams(
                    param: "\(name).viewport", reason: "must be {width, height}, whole pixels from 16 to 7680")
            }
            viewport = (width, height)
        }
    }

    /// Its members, to be set beside the item's own.
    public func members(into object: inout JSONObject) {
        object["type"] = .string("web")
        options(into: &object)
    }

    /// The options alone, as QueueItem's `web` holds them.
    public var json: JSONValue {
        var object = JSONObject()
        options(into: &object)
        return .object(object)
    }

    /// Lenient decoding of QueueItem's `web` (nil when absent or not an object).
    public init?(lenient value: JSONValue?) {
        guard let object = value?.objectValue else { return nil }
        reload = object["reload"]?.stringValue
        zoom = object["zoom"]?.doubleValue
        interval = object["interval"]?.doubleValue
        loadTimeout = object["loadTimeout"]?.doubleValue
        if let width = object["viewport"]?["width"]?.intValue, let height = object["viewport"]?["height"]?.intValue {
            viewport = (width, height)
        }
    }

    private func options(into object: inout JSONObject) {
        object.setIfPresent("reload", reload.map(JSONValue.string))
        object.setIfPresent("zoom", zoom.map(JSONValue.double))
        object.setIfPresent(
            "viewport", viewport.map { .object(JSONObject([("width", .int($0.width)), ("height", .int($0.height))])) })
        object.setIfPresent("interval", interval.map(JSONValue.double))
        object.setIfPresent("loadTimeout", loadTimeout.map(JSONValue.double))
    }
}
