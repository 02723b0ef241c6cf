// state.apply and session.confine: the two methods the programs outside the daemon need to be safe doors.
// state.apply swaps a whole wanted state (the fleet's desired document: queue and rev, the player's settings,
// the overlays) in one request, every part checked by the same definitions as queue.replace, player.set and
// overlay.add before anything changes. session.confine narrows what one connection may name: the page and the
// fleet bridge confine the connections that carry requests from outside, so the daemon itself refuses a
// local path (an item, a playlist's entry, a directory's file, an image layer) outside the folders given.

extension API {
    public enum StateApply: RPCMethodDefinition {
        public static let name = "state.apply"

        public struct Params: RPCMethodParams, Equatable {
            public static let order = ["items", "loops", "rev", "at", "volume", "fit", "rotate", "overlays", "layout", "zones"]
            public var items: [RPCItemInput]
            public var loops: Int64?
            public var rev: Int64?
            public var at: QueueReplace.Moment?
            /// The player's settings to change (volume, fit, rotate), nil when none is given.
            public var settings: PlayerSet.Params?
            /// The layers that replace the daemon's: nil leaves them, [] removes them all.
            public var overlays: [RPCOverlay]?
            /// The screen's zones (as layout.set takes them): nil leaves the layout as it is.
            public var layout: [RPCZone]?
            /// Other zones' queues by zone name (main's is `items`): each swapped like main's; a zone left out
            /// keeps its queue.
            public var zones: [String: ZoneQueue]?

            /// One zone's wanted queue.
            public struct ZoneQueue: Sendable, Equatable {
                public var items: [RPCItemInput]
                public var loops: Int64?
                public init(items: [RPCItemInput], loops: Int64? = nil) {
                    self.items = items
                    self.loops = loops
                }
            }

            public init(
                items: [RPCItemInput], loops: Int64? = nil, rev: Int64? = nil, at: QueueReplace.Moment? = nil,
                settings: PlayerSet.Params? = nil, overlays: [RPCOverlay]? = nil
            ) {
                self.items = items
                self.loops = loops
                self.rev = rev
                self.at = at
                self.settings = settings
                self.overlays = overlays
            }

            public init(reading params: ParamReader) throws(RPCError) {
                items = try API.itemInputs(params, allowEmpty: true)
                loops = try params.int("loops", in: 0...Int64(Int32.max))
                rev = try params.int("rev", in: 0...Int64.max)
                at = try params.enum("at", QueueReplace.Moment.self)
                // The settings through player.set's own reading: the same ranges, the same words.
                var setting = JSONObject()
                for name in ["volume", "fit", "rotate"] {
                    if let value = params.raw(name), !value.isNull { setting[name] = value }
                }
                settings =
                    setting.isEmpty
                    ? nil : try PlayerSet.Params(reading: ParamReader(.byName(setting), order: PlayerSet.Params.order))
                if let list = params.raw("overlays"), !list.isNull {
                    guard let values = list.arrayValue else {
                        throw .invalidParams(param: "overlays", reason: "must be an array of overlay objects")
                    }
                    var layers: [RPCOverlay] = []
                    for (index, value) in values.enumerated() {
                        layers.append(try Self.overlay(value, name: "overlays[\(index)]"))
                    }
                    overlays = layers
                }
                if let value = params.raw("layout"), !value.isNull {
                    layout = try LayoutSet.Params(reading: ParamReader(.byName(["zones": value]), order: LayoutSet.Params.order)).zones
                }
                if let value = params.raw("zones"), !value.isNull {
                    guard let object = value.objectValue else {
                        throw .invalidParams(param: "zones", reason: "must be an object: zone name → {items, loops}")
                    }
                    var queues: [String: ZoneQueue] = [:]
                    for (name, queue) in object {
                        guard let fields = queue.objectValue else {
                            throw .invalidParams(param: "zones.\(name.prefix(40))", reason: "must be an object {items, loops}")
                        }
                        let reader: ParamReader
                        do {
                            reader = try ParamReader(.byName(fields), order: ["items", "loops"])
                            queues[name] = ZoneQueue(
                                items: try API.itemInputs(reader, allowEmpty: true),
                                loops: try reader.int("loops", in: 0...Int64(Int32.max)))
                        } catch {
                            let param = error.data?["param"]?.stringValue.map { "zones.\(name.prefix(40)).\($0)" } ?? "zones.\(name.prefix(40))"
                            throw .invalidParams(param: param, reason: error.data?["reason"]?.stringValue ?? error.message)
                        }
                    }
                    zones = queues
                }
            }

            /// One layer as overlay.add reads it, its mistakes named by its place ("overlays[1].size").
            static func overlay(_ value: JSONValue, name: String) throws(RPCError) -> RPCOverlay {
                guard let object = value.objectValue else {
                    throw .invalidParams(param: name, reason: "must be an overlay object")
                }
                let layer: RPCOverlay
                do {
                    layer = try OverlayAdd.Params(reading: ParamReader(.byName(object), order: OverlayAdd.Params.order)).overlay
                } catch {
                    guard error.code == RPCError.Code.invalidParams else { throw error }
                    let param = error.data?["param"]?.stringValue.map { "\(name).\($0)" } ?? name
                    throw .invalidParams(param: param, reason: error.data?["reason"]?.stringValue ?? error.message)
                }
                // A queue item's id changes with the swap: a wanted state's layer cannot name one.
                if case .some(.some) = layer.item {
                    throw .invalidParams(param: "\(name).item", reason: "cannot tie a layer to a queue item in a whole state")
                }
                return layer
            }

            public var json: JSONValue? {
                var object: JSONObject = ["items": .array(items.map(\.json))]
                object.setIfPresent("loops", loops.map(JSONValue.int))
                object.setIfPresent("rev", rev.map(JSONValue.int))
                object.setIfPresent("at", at.map { .string($0.rawValue) })
                if let settings = settings?.json?.objectValue {
                    for name in ["volume", "fit", "rotate"] { object.setIfPresent(name, settings[name]) }
                }
                object.setIfPresent("overlays", overlays.map { .array($0.map(\.json)) })
                object.setIfPresent("layout", layout.map { .array($0.map(\.json)) })
                if let zones {
                    object["zones"] = .object(JSONObject(zones.sorted { $0.key < $1.key }.map { name, queue in
                        var fields: JSONObject = ["items": .array(queue.items.map(\.json))]
                        fields.setIfPresent("loops", queue.loops.map(JSONValue.int))
                        return (name, .object(fields))
                    }))
                }
                return .object(object)
            }

            public var references: [String] {
                items.map(\.uri) + (overlays ?? []).compactMap(\.path)
                    + (zones ?? [:]).sorted { $0.key < $1.key }.flatMap { $0.value.items.map(\.uri) }
            }
        }

        public typealias Result = QueueReplace.Result
    }

    /// Confines the connection that sends it: from then on, every local path it names (items, a playlist's
    /// entries, a directory's files, an image layer) must lie inside one of `folders` once symlinks are
    /// followed, and http(s) items only when `network` is true. It cannot be lifted or changed on that
    /// connection.
    public enum SessionConfine: RPCMethodDefinition {
        public static let name = "session.confine"

        public struct Params: RPCMethodParams, Equatable {
            public static let order = ["folders", "network"]
            /// Absolute paths; none: no local file at all.
            public var folders: [String]
            public var network: Bool

            public init(folders: [String], network: Bool = true) {
                self.folders = folders
                self.network = network
            }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let folders = try params.stringArray("folders") else {
                    throw .invalidParams(param: "folders", reason: "is required (an array of absolute paths)")
                }
                for folder in folders where !folder.hasPrefix("/") {
                    throw .invalidParams(param: "folders", reason: "must hold absolute paths (got \(folder))")
                }
                self.folders = folders
                network = try params.bool("network") ?? true
            }
            public var json: JSONValue? { ["folders": .array(folders.map(JSONValue.string)), "network": .bool(network)] }
            public var references: [String] { [] }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// The folders as the daemon resolved them (symlinks followed); a folder that does not exist is left out.
            public var folders: [String]
            public var network: Bool

            public init(folders: [String], network: Bool) {
                self.folders = folders
                self.network = network
            }
            public init?(json: JSONValue) {
                guard let folders = json["folders"]?.arrayValue?.compactMap(\.stringValue), let network = json["network"]?.boolValue
                else { return nil }
                self.init(folders: folders, network: network)
            }
            public var json: JSONValue { ["folders": .array(folders.map(JSONValue.string)), "network": .bool(network)] }
        }
    }
}
