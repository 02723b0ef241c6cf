// The cache.* methods: what the daemon holds of http(s) items (Protocol/queued.openrpc.json, methods cache.*).

extension API {
    public enum CacheStatus: RPCMethodDefinition {
        public static let name = "cache.status"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["ids"]
            /// nil: every http(s) item in the queue.
            public var ids: [Int64]?

            public init(ids: [Int64]? = nil) { self.ids = ids }
            public init(reading params: ParamReader) throws(RPCError) {
                ids = try params.intArray("ids")
            }
            public var json: JSONValue? { ids.map { ["ids": .ints($0)] } }
        }

        /// One http(s) item's cache.
        public struct Entry: Sendable, Equatable {
            public var id: Int64
            public var uri: String
            public var cache: RPCCacheStatus

            public init(id: Int64, uri: String, cache: RPCCacheStatus) {
                self.id = id
                self.uri = uri
                self.cache = cache
            }
            init?(json: JSONValue) {
                guard let id = json["id"]?.intValue, let uri = json["uri"]?.stringValue,
                    let cache = json["cache"].flatMap(RPCCacheStatus.init(json:))
                else { return nil }
                self.init(id: id, uri: uri, cache: cache)
            }
            var json: JSONValue { ["id": .int(id), "uri": .string(uri), "cache": cache.json] }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// The http(s) items asked for (local files and unknown ids left out), in queue order.
            public var items: [Entry]

            public init(items: [Entry]) { self.items = items }
            public init?(json: JSONValue) {
                guard let items = json["items"]?.arrayValue else { return nil }
                self.items = items.compactMap(Entry.init(json:))
            }
            public var json: JSONValue { ["items": .array(items.map(\.json))] }
        }
    }

    public enum CachePrefetch: RPCMethodDefinition {
        public static let name = "cache.prefetch"
        public typealias Params = IdsParams
        /// The http(s) items among the ids that the request acted on, in queue order.
        public typealias Result = IdsResult
    }

    /// Downloads http(s) URLs into the cache whether or not they are queued (a fleet fetches a desired
    /// queue before swapping to it), and says how far each one is; asked again, it only reports.
    public enum CacheFetch: RPCMethodDefinition {
        public static let name = "cache.fetch"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { uris }
            public static let order = ["uris", "sha256"]
            public var uris: [String]
            /// URL → the SHA-256 its file must have (lowercase hex): complete only once it matches.
            public var sha256: [String: String]

            public init(uris: [String], sha256: [String: String] = [:]) {
                self.uris = uris
                self.sha256 = sha256
            }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let uris = try params.stringArray("uris"), !uris.isEmpty, uris.count <= 1000 else {
                    throw .invalidParams(param: "uris", reason: "must be an array of 1 to 1000 http(s) URLs")
                }
                for uri in uris where !(uri.hasPrefix("http://") || uri.hasPrefix("https://")) {
                    throw .uriNotAllowed(uri, reason: "cache.fetch takes http(s) URLs only")
                }
                self.uris = uris
                var digests: [String: String] = [:]
                for (uri, value) in try params.object("sha256") ?? [:] {
                    guard uris.contains(uri) else {
                        throw .invalidParams(param: "sha256", reason: "\(uri) is not among the uris")
                    }
                    guard let digest = value.stringValue?.lowercased(), RPCItemInput.isSHA256(digest) else {
                        throw .invalidParams(param: "sha256", reason: "\(uri): must be 64 hex digits")
                    }
                    digests[uri] = digest
                }
                self.sha256 = digests
            }
            public var json: JSONValue? {
                var object: JSONObject = ["uris": .array(uris.map(JSONValue.string))]
                if !sha256.isEmpty {
                    object["sha256"] = .object(JSONObject(sha256.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
                }
                return .object(object)
            }
        }

        public struct Entry: Sendable, Equatable {
            public var uri: String
            public var cache: RPCCacheStatus

            public init(uri: String, cache: RPCCacheStatus) {
                self.uri = uri
                self.cache = cache
            }
            var json: JSONValue { ["uri": .string(uri), "cache": cache.json] }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// One per URL asked for, in the order asked.
            public var items: [Entry]

            public init(items: [Entry]) { self.items = items }
            public init?(json: JSONValue) {
                guard let items = json["items"]?.arrayValue else { return nil }
                self.items = items.compactMap { item in
                    guard let uri = item["uri"]?.stringValue, let cache = item["cache"].flatMap(RPCCacheStatus.init(json:))
                    else { return nil }
                    return Entry(uri: uri, cache: cache)
                }
            }
            public var json: JSONValue { ["items": .array(items.map(\.json))] }
        }
    }

    public enum CacheEvict: RPCMethodDefinition {
        public static let name = "cache.evict"
        public typealias Params = IdsParams
        /// The http(s) items among the ids that the request acted on, in queue order.
        public typealias Result = IdsResult
    }

    public enum CacheRevalidate: RPCMethodDefinition {
        public static let name = "cache.revalidate"
        public typealias Params = CacheStatus.Params
        /// The http(s) items among the ids that the request acted on, in queue order.
        public typealias Result = IdsResult
    }

    public enum CacheUsage: RPCMethodDefinition {
        public static let name = "cache.usage"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            /// Bytes on disk for cached files.
            public var bytes: Int64
            /// The --cache-size cap (nil: none).
            public var cap: Int64?
            /// Free bytes on the cache's file system.
            public var free: Int64
            /// Bytes of entries that queued items use (never evicted).
            public var pinned: Int64

            public init(bytes: Int64, cap: Int64?, free: Int64, pinned: Int64) {
                self.bytes = bytes
                self.cap = cap
                self.free = free
                self.pinned = pinned
            }
            public init?(json: JSONValue) {
                guard let bytes = json["bytes"]?.intValue, let free = json["free"]?.intValue else { return nil }
                self.init(bytes: bytes, cap: json["cap"]?.intValue, free: free, pinned: json["pinned"]?.intValue ?? 0)
            }
            public var json: JSONValue {
                [
                    "bytes": .int(bytes), "cap": cap.map(JSONValue.int) ?? .null, "free": .int(free),
                    "pinned": .int(pinned),
                ]
            }
        }
    }
}
