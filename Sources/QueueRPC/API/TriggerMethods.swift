// The triggers.* and outputs.* methods: their params and results (Protocol/queued.openrpc.json, methods
// triggers.* and outputs.*).

extension API {
    public enum TriggersList: RPCMethodDefinition {
        public static let name = "triggers.list"
        public typealias Params = NoParams
        public typealias Result = TriggerRules
    }

    public enum TriggersSet: RPCMethodDefinition {
        public static let name = "triggers.set"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["triggers"]
            /// At most this many rules.
            public static let capacity = 256
            public var triggers: [String]
            public init(triggers: [String]) { self.triggers = triggers }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let triggers = try params.stringArray("triggers") else {
                    throw .invalidParams(param: "triggers", reason: "required: the rules, one string each (may be empty)")
                }
                guard triggers.count <= Self.capacity else { throw .invalidParams(param: "triggers", reason: "at most \(Self.capacity) rules") }
                self.triggers = triggers
            }
            public var json: JSONValue? { ["triggers": .array(triggers.map(JSONValue.string))] }
        }

        public typealias Result = TriggerRules
    }

    public enum TriggersFire: RPCMethodDefinition {
        public static let name = "triggers.fire"

        public enum Via: String, Sendable, CaseIterable { case webhook, mqtt }

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["name", "via", "secret"]
            public var name: String
            public var via: Via
            public var secret: String?
            public init(name: String, via: Via = .webhook, secret: String? = nil) { (self.name, self.via, self.secret) = (name, via, secret) }
            public init(reading params: ParamReader) throws(RPCError) {
                name = try params.requiredString("name")
                via = try params.enum("via", Via.self) ?? .webhook
                secret = try params.string("secret")
            }
            public var json: JSONValue? {
                var object: JSONObject = ["name": .string(name), "via": .string(via.rawValue)]
                if let secret { object["secret"] = .string(secret) }
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// How many rules the name fired (0: none is called so, or its secret was not the one given).
            public var fired: Int64
            public init(fired: Int64) { self.fired = fired }
            public init?(json: JSONValue) {
                guard let fired = json["fired"]?.intValue else { return nil }
                self.fired = fired
            }
            public var json: JSONValue { ["fired": .int(fired)] }
        }
    }

    public enum OutputsList: RPCMethodDefinition {
        public static let name = "outputs.list"
        public typealias Params = NoParams
        public typealias Result = OutputRules
    }

    public enum OutputsSet: RPCMethodDefinition {
        public static let name = "outputs.set"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["outputs"]
            /// At most this many rules.
            public static let capacity = 256
            public var outputs: [String]
            public init(outputs: [String]) { self.outputs = outputs }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let outputs = try params.stringArray("outputs") else {
                    throw .invalidParams(param: "outputs", reason: "required: the rules, one string each (may be empty)")
                }
                guard outputs.count <= Self.capacity else { throw .invalidParams(param: "outputs", reason: "at most \(Self.capacity) rules") }
                self.outputs = outputs
            }
            public var json: JSONValue? { ["outputs": .array(outputs.map(JSONValue.string))] }
        }

        public typealias Result = OutputRules
    }

    /// The output rules in force, as written (outputs.list and outputs.set answer with them).
    public struct OutputRules: RPCMethodResult, Equatable {
        public var outputs: [String]
        public init(outputs: [String]) { self.outputs = outputs }
        public init?(json: JSONValue) {
            guard let list = json["outputs"]?.arrayValue else { return nil }
            outputs = list.compactMap(\.stringValue)
        }
        public var json: JSONValue { ["outputs": .array(outputs.map(JSONValue.string))] }
    }

    /// The rules in force, as written (triggers.list and triggers.set answer with them).
    public struct TriggerRules: RPCMethodResult, Equatable {
        public var triggers: [String]
        public init(triggers: [String]) { self.triggers = triggers }
        public init?(json: JSONValue) {
            guard let list = json["triggers"]?.arrayValue else { return nil }
            triggers = list.compactMap(\.stringValue)
        }
        public var json: JSONValue { ["triggers": .array(triggers.map(JSONValue.string))] }
    }
}
