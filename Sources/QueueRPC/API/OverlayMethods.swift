// The overlay.* methods: their params and results (Protocol/queued.openrpc.json, methods overlay.*).
// Layers drawn above the video: added, changed, removed and listed; kept with the daemon's state.

extension API {
    /// Adds a layer; answers with its id.
    public enum OverlayAdd: RPCMethodDefinition {
        public static let name = "overlay.add"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { overlay.path.map { [$0] } ?? [] }
            public static let order = RPCOverlay.order
            public var overlay: RPCOverlay

            public init(overlay: RPCOverlay) { self.overlay = overlay }
            public init(reading params: ParamReader) throws(RPCError) {
                overlay = try RPCOverlay(reading: params)
                guard overlay.type != nil else { throw .invalidParams(param: "type", reason: "is required") }
            }
            public var json: JSONValue? { overlay.json }
        }

        /// The new layer's id.
        public typealias Result = IdResult
    }

    /// Changes the fields given of layer `id` (its type stays); answers with the layer as it now is.
    public enum OverlayUpdate: RPCMethodDefinition {
        public static let name = "overlay.update"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { changes.path.map { [$0] } ?? [] }
            public static let order = ["id"] + RPCOverlay.order.filter { $0 != "type" }
            public var id: Int64
            public var changes: RPCOverlay

            public init(id: Int64, changes: RPCOverlay) {
                self.id = id
                self.changes = changes
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.requiredInt("id")
                changes = try RPCOverlay(reading: params)
            }
            public var json: JSONValue? {
                var object: JSONObject = ["id": .int(id)]
                if case .object(let fields) = changes.json {
                    for (key, value) in zip(fields.keys, fields.values) { object[key] = value }
                }
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var overlay: RPCOverlay

            public init(overlay: RPCOverlay) { self.overlay = overlay }
            public init?(json: JSONValue) {
                guard let value = json["overlay"], let overlay = RPCOverlay(json: value) else { return nil }
                self.overlay = overlay
            }
            public var json: JSONValue { ["overlay": overlay.json] }
        }
    }

    /// Removes layers, all of them or none (an unknown id is an error).
    public enum OverlayRemove: RPCMethodDefinition {
        public static let name = "overlay.remove"
        public typealias Params = IdsParams
        /// `{removed: [ids]}`, as queue.remove answers.
        public typealias Result = QueueRemove.Result
    }

    /// Every layer, bottom first (drawing order).
    public enum OverlayList: RPCMethodDefinition {
        public static let name = "overlay.list"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            public var overlays: [RPCOverlay]

            public init(overlays: [RPCOverlay]) { self.overlays = overlays }
            public init?(json: JSONValue) {
                guard let entries = json["overlays"]?.arrayValue else { return nil }
                var overlays: [RPCOverlay] = []
                for entry in entries {
                    guard let overlay = RPCOverlay(json: entry) else { return nil }
                    overlays.append(overlay)
                }
                self.overlays = overlays
            }
            public var json: JSONValue { ["overlays": .array(overlays.map(\.json))] }
        }
    }
}
