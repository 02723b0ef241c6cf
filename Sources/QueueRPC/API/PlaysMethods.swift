// The plays.* methods: the proof-of-play log, one record per play, kept until acknowledged
// (Protocol/queued.openrpc.json, methods plays.*; the records are PlayLog's, carried as JSON objects).

extension API {
    public enum PlaysList: RPCMethodDefinition {
        public static let name = "plays.list"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["after", "limit"]
            /// Records with a seq after this one (absent: from the oldest kept).
            public var after: Int64?
            public var limit: Int64?

            public init(after: Int64? = nil, limit: Int64? = nil) {
                self.after = after
                self.limit = limit
            }
            public init(reading params: ParamReader) throws(RPCError) {
                after = try params.int("after", in: 0...Int64.max)
                limit = try params.int("limit", in: 1...1000)
            }
            public var json: JSONValue? {
                var object: JSONObject = [:]
                if let after { object["after"] = .int(after) }
                if let limit { object["limit"] = .int(limit) }
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// Oldest first.
            public var records: [JSONValue]
            /// The seq the next record will get.
            public var nextSeq: Int64
            /// Records through this seq were acknowledged (or fell off the cap) and are gone.
            public var ackedThrough: Int64
            /// Records that fell off the cap unacknowledged, since the log began.
            public var dropped: Int64

            public init(records: [JSONValue], nextSeq: Int64, ackedThrough: Int64, dropped: Int64) {
                (self.records, self.nextSeq, self.ackedThrough, self.dropped) = (records, nextSeq, ackedThrough, dropped)
            }
            public init?(json: JSONValue) {
                guard let records = json["records"]?.arrayValue, let nextSeq = json["nextSeq"]?.intValue else {
                    return nil
                }
                self.init(
                    records: records, nextSeq: nextSeq, ackedThrough: json["ackedThrough"]?.intValue ?? 0,
                    dropped: json["dropped"]?.intValue ?? 0)
            }
            public var json: JSONValue {
                [
                    "records": .array(records), "nextSeq": .int(nextSeq), "ackedThrough": .int(ackedThrough),
                    "dropped": .int(dropped),
                ]
            }
        }
    }

    public enum PlaysAck: RPCMethodDefinition {
        public static let name = "plays.ack"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["through"]
            public var through: Int64

            public init(through: Int64) { self.through = through }
            public init(reading params: ParamReader) throws(RPCError) {
                through = try params.requiredInt("through")
                guard through >= 0 else { throw .invalidParams(param: "through", reason: "must be 0 or more") }
            }
            public var json: JSONValue? { ["through": .int(through)] }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var ackedThrough: Int64

            public init(ackedThrough: Int64) { self.ackedThrough = ackedThrough }
            public init?(json: JSONValue) {
                guard let ackedThrough = json["ackedThrough"]?.intValue else { return nil }
                self.ackedThrough = ackedThrough
            }
            public var json: JSONValue { ["ackedThrough": .int(ackedThrough)] }
        }
    }
}
