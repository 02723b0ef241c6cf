// The display.* methods (Protocol/queued.openrpc.json, method display.power): the screen's power.

extension API {
    public enum DisplayPower: RPCMethodDefinition {
        public static let name = "display.power"
        public typealias Result = RPCStatus

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["power"]
            public var power: RPCDisplayPower

            public init(power: RPCDisplayPower) { self.power = power }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let power = try params.enum("power", RPCDisplayPower.self) else {
                    throw .invalidParams(param: "power", reason: "required: on, off or auto")
                }
                self.power = power
            }
            public var json: JSONValue? { ["power": .string(power.rawValue)] }
        }
    }
}

/// What `display.power` asks: on or off until the schedule's next change, or back to the schedule.
public enum RPCDisplayPower: String, CaseIterable, Sendable {
    case on, off, auto
}

/// The screen's power in the Status (`display`).
public struct RPCDisplay: Sendable, Equatable {
    /// "on" | "off".
    public var power: String
    /// "schedule" | "manual".
    public var source: String
    /// Unix seconds of the schedule's next change; nil: never.
    public var nextChange: Double?
    /// The last failure telling the screen, until the next success.
    public var error: String?

    public init(power: String = "on", source: String = "schedule", nextChange: Double? = nil, error: String? = nil) {
        self.power = power
        self.source = source
        self.nextChange = nextChange
        self.error = error
    }
    /// Lenient: an older daemon sent none (on, by the schedule).
    public init(json: JSONValue?) {
        self.init(
            power: json?["power"]?.stringValue ?? "on", source: json?["source"]?.stringValue ?? "schedule",
            nextChange: json?["nextChange"]?.doubleValue, error: json?["error"]?.stringValue)
    }
    public var json: JSONValue {
        [
            "power": .string(power), "source": .string(source),
            "nextChange": nextChange.map(JSONValue.double) ?? .null, "error": error.map(JSONValue.string) ?? .null,
        ]
    }
    public var isOff: Bool { power == "off" }
}
