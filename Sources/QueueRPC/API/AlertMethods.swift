// The alert.* methods: their params and results (Protocol/queued.openrpc.json, methods alert.*).

extension API {
    public enum AlertRaise: RPCMethodDefinition {
        public static let name = "alert.raise"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { items.map(\.uri) }
            public static let order = ["id", "items", "text", "priority", "expires"]
            public static let ids: ClosedRange<Int> = 1...128
            public static let texts: ClosedRange<Int> = 1...2000
            public static let priorities: ClosedRange<Int64> = -1000...1000
            public var id: String
            public var items: [RPCItemInput]
            public var text: String?
            public var priority: Int64
            /// RFC 3339, as CAP gives it ("2026-11-29T18:00:00Z", "2026-11-29T19:00:00+01:00").
            public var expires: String?

            public init(id: String, items: [RPCItemInput] = [], text: String? = nil, priority: Int64 = 0, expires: String? = nil) {
                (self.id, self.items, self.text, self.priority, self.expires) = (id, items, text, priority, expires)
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.requiredString("id")
                guard Self.ids.contains(id.utf8.count), !id.contains(where: { $0.isNewline }) else {
                    throw .invalidParams(param: "id", reason: "1 to 128 bytes on one line")
                }
                items = params.has("items") ? try API.itemInputs(params, allowEmpty: true) : []
                text = try params.string("text")
                if let text, !Self.texts.contains(text.count) {
                    throw .invalidParams(param: "text", reason: "1 to 2000 characters")
                }
                guard !items.isEmpty || text != nil else {
                    throw .invalidParams(param: "items", reason: "an alert shows items, a text, or both")
                }
                priority = try params.int("priority", in: Self.priorities) ?? 0
                expires = try params.string("expires")
            }
            public var json: JSONValue? {
                var object: JSONObject = ["id": .string(id), "items": .array(items.map(\.json)), "priority": .int(priority)]
                if let text { object["text"] = .string(text) }
                if let expires { object["expires"] = .string(expires) }
                return .object(object)
            }
        }

        public typealias Result = AlertListing
    }

    public enum AlertClear: RPCMethodDefinition {
        public static let name = "alert.clear"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["id"]
            public var id: String
            public init(id: String) { self.id = id }
            public init(reading params: ParamReader) throws(RPCError) { id = try params.requiredString("id") }
            public var json: JSONValue? { ["id": .string(id)] }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// false: there was no alert of that id (nothing changed).
            public var cleared: Bool
            public var active: String?
            public init(cleared: Bool, active: String?) { (self.cleared, self.active) = (cleared, active) }
            public init?(json: JSONValue) {
                guard let cleared = json["cleared"]?.boolValue else { return nil }
                (self.cleared, active) = (cleared, json["active"]?.stringValue)
            }
            public var json: JSONValue { ["cleared": .bool(cleared), "active": active.map(JSONValue.string) ?? .null] }
        }
    }

    public enum AlertList: RPCMethodDefinition {
        public static let name = "alert.list"
        public typealias Params = NoParams
        public typealias Result = AlertListing
    }

    /// The alerts standing, the one on screen first (alert.raise and alert.list answer with it).
    public struct AlertListing: RPCMethodResult, Equatable {
        public struct Entry: Sendable, Equatable {
            public var id: String
            public var items: [JSONValue]
            public var text: String?
            public var priority: Int64
            public var expires: String?
            public var raisedAt: String
            public init(id: String, items: [JSONValue], text: String?, priority: Int64, expires: String?, raisedAt: String) {
                (self.id, self.items, self.text, self.priority, self.expires, self.raisedAt) = (id, items, text, priority, expires, raisedAt)
            }
            init?(json: JSONValue) {
                guard let id = json["id"]?.stringValue, let priority = json["priority"]?.intValue,
                    let raisedAt = json["raisedAt"]?.stringValue
                else { return nil }
                self.init(
                    id: id, items: json["items"]?.arrayValue ?? [], text: json["text"]?.stringValue, priority: priority,
                    expires: json["expires"]?.stringValue, raisedAt: raisedAt)
            }
            var json: JSONValue {
                var object: JSONObject = [
                    "id": .string(id), "items": .array(items), "priority": .int(priority), "raisedAt": .string(raisedAt),
                ]
                object["text"] = text.map(JSONValue.string) ?? .null
                object["expires"] = expires.map(JSONValue.string) ?? .null
                return .object(object)
            }
        }

        public var alerts: [Entry]
        /// The id of the alert on screen (the first of `alerts`), or null.
        public var active: String?

        public init(alerts: [Entry]) {
            self.alerts = alerts
            active = alerts.first?.id
        }
        public init?(json: JSONValue) {
            guard let list = json["alerts"]?.arrayValue else { return nil }
            self.init(alerts: list.compactMap(Entry.init(json:)))
        }
        public var json: JSONValue { ["alerts": .array(alerts.map(\.json)), "active": active.map(JSONValue.string) ?? .null] }
    }
}
