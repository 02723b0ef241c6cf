// The queue.* methods: their params and results (Protocol/queued.openrpc.json, methods queue.*).

extension API {
    public enum QueueAdd: RPCMethodDefinition {
        public static let name = "queue.add"
        public static let zoned = true
        public typealias Result = IdsResult

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { items.map(\.uri) }
            public static let order = ["items"]
            public var items: [RPCItemInput]

            public init(items: [RPCItemInput]) { self.items = items }
            public init(reading params: ParamReader) throws(RPCError) {
                items = try API.itemInputs(params)
            }
            public var json: JSONValue? { ["items": .array(items.map(\.json))] }
        }
    }

    public enum QueueInsert: RPCMethodDefinition {
        public static let name = "queue.insert"
        public static let zoned = true
        public typealias Result = IdsResult

        /// Where the items go: at an index, or right after an item.
        public enum Place: Sendable, Equatable {
            case index(Int64)
            case after(Int64)
        }

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { items.map(\.uri) }
            public static let order = ["items", "index", "after"]
            public var items: [RPCItemInput]
            public var place: Place

            public init(items: [RPCItemInput], place: Place) {
                self.items = items
                self.place = place
            }
            public init(reading params: ParamReader) throws(RPCError) {
                items = try API.itemInputs(params)
                switch (try params.int("index", in: 0...Int64(Int32.max)), try params.int("after")) {
                case (let index?, nil): place = .index(index)
                case (nil, let after?): place = .after(after)
                default: throw .invalidParams(param: "index", reason: "give exactly one of index and after")
                }
            }
            public var json: JSONValue? {
                switch place {
                case .index(let index): ["items": .array(items.map(\.json)), "index": .int(index)]
                case .after(let id): ["items": .array(items.map(\.json)), "after": .int(id)]
                }
            }
        }
    }

    public enum QueueRemove: RPCMethodDefinition {
        public static let name = "queue.remove"
        public static let zoned = true
        public typealias Params = IdsParams

        public struct Result: RPCMethodResult, Equatable {
            /// The ids removed, in queue order.
            public var removed: [Int64]

            public init(removed: [Int64]) { self.removed = removed }
            public init?(json: JSONValue) {
                guard let removed = json["removed"]?.int64Array else { return nil }
                self.removed = removed
            }
            public var json: JSONValue { ["removed": .ints(removed)] }
        }
    }

    public enum QueueMove: RPCMethodDefinition {
        public static let name = "queue.move"
        public static let zoned = true
        public typealias Result = VersionResult

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["id", "index", "ifVersion"]
            public var id: Int64
            public var index: Int64
            /// Move only if the queue is still at this version (else -32005, nothing moved).
            public var ifVersion: Int64?

            public init(id: Int64, index: Int64, ifVersion: Int64? = nil) {
                self.id = id
                self.index = index
                self.ifVersion = ifVersion
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.requiredInt("id")
                index = try params.requiredInt("index")
                guard index >= 0 else { throw .invalidParams(param: "index", reason: "must be >= 0") }
                ifVersion = try params.int("ifVersion", in: 0...Int64.max)
            }
            public var json: JSONValue? {
                var object: JSONObject = ["id": .int(id), "index": .int(index)]
                if let ifVersion { object["ifVersion"] = .int(ifVersion) }
                return .object(object)
            }
        }
    }

    /// Plays one item now, outside the queue, `loops` times; then the queue resumes the interrupted play
    /// where it was. During another interrupt it plays after that one.
    public enum QueueInterrupt: RPCMethodDefinition {
        public static let name = "queue.interrupt"
        public static let zoned = true
        /// At most this many plays: an interrupt ends (an endless one is a queue item).
        public static let maxLoops: Int64 = 1000

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [item.uri] }
            public static let order = ["item", "loops", "fullscreen"]
            public var item: RPCItemInput
            public var loops: Int64?
            /// Takes the whole screen while it plays (over every zone); the layout comes back after it.
            public var fullscreen: Bool?

            public init(item: RPCItemInput, loops: Int64? = nil, fullscreen: Bool? = nil) {
                self.item = item
                self.loops = loops
                self.fullscreen = fullscreen
            }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let value = params.raw("item"), !value.isNull else {
                    throw .invalidParams(param: "item", reason: "is required")
                }
                item = try RPCItemInput(json: value, name: "item")
                loops = try params.int("loops", in: 1...QueueInterrupt.maxLoops)
                fullscreen = try params.bool("fullscreen")
                if item.schedule != nil {
                    throw .invalidParams(param: "item.schedule", reason: "an interrupt plays now: it has no schedule")
                }
                if let loops = item.loops, !(1...QueueInterrupt.maxLoops).contains(loops) {
                    throw .invalidParams(param: "item.loops", reason: "must be between 1 and \(QueueInterrupt.maxLoops)")
                }
            }
            public var json: JSONValue? {
                var members: JSONObject = ["item": item.json]
                if let loops { members["loops"] = .int(loops) }
                if let fullscreen { members["fullscreen"] = .bool(fullscreen) }
                return .object(members)
            }
        }

        /// The interrupt's id (its events carry it, with `interrupt: true`).
        public typealias Result = IdResult
    }

    public enum QueueClear: RPCMethodDefinition {
        public static let name = "queue.clear"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = VersionResult
    }

    public enum QueueReplace: RPCMethodDefinition {
        public static let name = "queue.replace"
        public static let zoned = true

        /// When the new queue takes over.
        public enum Moment: String, Sendable, CaseIterable {
            case now, itemEnd
        }

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { items.map(\.uri) }
            public static let order = ["items", "at", "ifVersion", "loops", "rev"]
            public var items: [RPCItemInput]
            public var at: Moment?
            public var ifVersion: Int64?
            public var loops: Int64?
            public var rev: Int64?

            public init(
                items: [RPCItemInput], at: Moment? = nil, ifVersion: Int64? = nil, loops: Int64? = nil,
                rev: Int64? = nil
            ) {
                self.items = items
                self.at = at
                self.ifVersion = ifVersion
                self.loops = loops
                self.rev = rev
            }
            public init(reading params: ParamReader) throws(RPCError) {
                // Unlike queue.add, an empty list is a queue emptied in the same step.
                items = try API.itemInputs(params, allowEmpty: true)
                at = try params.enum("at", Moment.self)
                ifVersion = try params.int("ifVersion", in: 0...Int64.max)
                loops = try params.int("loops", in: 0...Int64(Int32.max))
                rev = try params.int("rev", in: 0...Int64.max)
            }
            public var json: JSONValue? {
                var object: JSONObject = ["items": .array(items.map(\.json))]
                if let at { object["at"] = .string(at.rawValue) }
                if let ifVersion { object["ifVersion"] = .int(ifVersion) }
                if let loops { object["loops"] = .int(loops) }
                if let rev { object["rev"] = .int(rev) }
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var ids: [Int64]
            public var version: Int64

            public init(ids: [Int64], version: Int64) {
                self.ids = ids
                self.version = version
            }
            public init?(json: JSONValue) {
                guard let ids = json["ids"]?.int64Array, let version = json["version"]?.intValue else { return nil }
                self.ids = ids
                self.version = version
            }
            public var json: JSONValue { ["ids": .ints(ids), "version": .int(version)] }
        }
    }

    public enum QueueUpdate: RPCMethodDefinition {
        public static let name = "queue.update"
        public static let zoned = true

        /// What to change; absent fields stay as they are, and null clears start, end, title, trackEnd,
        /// schedule, transition and motion.
        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["id", "loops", "start", "end", "title", "trackEnd", "schedule", "transition", "motion"]
            public var id: Int64
            public var loops: Int64?
            public var start: FieldUpdate<Double>
            public var end: FieldUpdate<Double>
            public var title: FieldUpdate<String>
            public var trackEnd: FieldUpdate<RPCTrackEnd>
            public var schedule: FieldUpdate<RPCSchedule>
            public var transition: FieldUpdate<RPCTransition>
            public var motion: FieldUpdate<RPCMotion>

            public init(
                id: Int64, loops: Int64? = nil, start: FieldUpdate<Double> = .keep, end: FieldUpdate<Double> = .keep,
                title: FieldUpdate<String> = .keep, trackEnd: FieldUpdate<RPCTrackEnd> = .keep,
                schedule: FieldUpdate<RPCSchedule> = .keep, transition: FieldUpdate<RPCTransition> = .keep,
                motion: FieldUpdate<RPCMotion> = .keep
            ) {
                self.transition = transition
                self.motion = motion
                self.id = id
                self.loops = loops
                self.start = start
                self.end = end
                self.title = title
                self.trackEnd = trackEnd
                self.schedule = schedule
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.requiredInt("id")
                loops = try params.int("loops", in: 0...Int64(Int32.max))
                start = try params.update("start") { name throws(RPCError) in try params.double(name) }
                end = try params.update("end") { name throws(RPCError) in try params.double(name) }
                title = try params.update("title") { name throws(RPCError) in try params.string(name) }
                trackEnd = try params.update("trackEnd") { name throws(RPCError) in
                    try RPCItemInput.trackEnd(params.raw(name), param: name)
                }
                schedule = try params.update("schedule") { name throws(RPCError) in
                    guard let value = params.raw(name) else { return nil }
                    return try RPCSchedule(json: value, name: name)
                }
                transition = try params.update("transition") { name throws(RPCError) in
                    guard let value = params.raw(name) else { return nil }
                    return try RPCTransition(json: value, name: name)
                }
                motion = try params.update("motion") { name throws(RPCError) in
                    guard let value = params.raw(name) else { return nil }
                    return try RPCMotion(json: value, name: name)
                }
            }
            public var json: JSONValue? {
                var object: JSONObject = ["id": .int(id)]
                object.setIfPresent("loops", loops.map(JSONValue.int))
                object.setIfPresent("start", start.json(JSONValue.double))
                object.setIfPresent("end", end.json(JSONValue.double))
                object.setIfPresent("title", title.json(JSONValue.string))
                object.setIfPresent("trackEnd", trackEnd.json { .string($0.rawValue) })
                object.setIfPresent("schedule", schedule.json { $0.json })
                object.setIfPresent("transition", transition.json { $0.json })
                object.setIfPresent("motion", motion.json { $0.json })
                return .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// The item as it is after the update.
            public var item: RPCQueueItem

            public init(item: RPCQueueItem) { self.item = item }
            public init?(json: JSONValue) {
                guard let item = json["item"].flatMap(RPCQueueItem.init(json:)) else { return nil }
                self.item = item
            }
            public var json: JSONValue { ["item": item.json] }
        }
    }

    public enum QueueSetLoops: RPCMethodDefinition {
        public static let name = "queue.setLoops"
        public static let zoned = true

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["loops"]
            /// Passes through the whole queue; 0 = forever.
            public var loops: Int64

            public init(loops: Int64) { self.loops = loops }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let loops = try params.int("loops", in: 0...Int64(Int32.max)) else {
                    throw .invalidParams(param: "loops", reason: "is required")
                }
                self.loops = loops
            }
            public var json: JSONValue? { ["loops": .int(loops)] }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var loops: Int64
            public var version: Int64

            public init(loops: Int64, version: Int64) {
                self.loops = loops
                self.version = version
            }
            public init?(json: JSONValue) {
                guard let loops = json["loops"]?.intValue else { return nil }
                self.init(loops: loops, version: json["version"]?.intValue ?? 0)
            }
            public var json: JSONValue { ["loops": .int(loops), "version": .int(version)] }
        }
    }

    public enum QueueList: RPCMethodDefinition {
        public static let name = "queue.list"
        public static let zoned = true

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["offset", "limit"]
            public static let defaultLimit: Int64 = 1000
            public static let maximumLimit: Int64 = 10_000
            public var offset: Int64
            public var limit: Int64

            public init(offset: Int64 = 0, limit: Int64 = Params.defaultLimit) {
                self.offset = offset
                self.limit = limit
            }
            public init(reading params: ParamReader) throws(RPCError) {
                offset = try params.int("offset", in: 0...Int64(Int32.max)) ?? 0
                limit = try params.int("limit", in: 1...Self.maximumLimit) ?? Self.defaultLimit
            }
            public var json: JSONValue? { ["offset": .int(offset), "limit": .int(limit)] }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// The page asked for.
            public var items: [RPCQueueItem]
            /// Items in the whole queue.
            public var total: Int64
            public var version: Int64
            public var currentId: Int64?

            public init(items: [RPCQueueItem], total: Int64, version: Int64, currentId: Int64?) {
                self.items = items
                self.total = total
                self.version = version
                self.currentId = currentId
            }
            /// Rows that lack an id or a uri are left out.
            public init?(json: JSONValue) {
                guard let rows = json["items"]?.arrayValue else { return nil }
                let items = rows.compactMap(RPCQueueItem.init(json:))
                self.init(
                    items: items, total: json["total"]?.intValue ?? Int64(items.count),
                    version: json["version"]?.intValue ?? 0, currentId: json["currentId"]?.intValue)
            }
            public var json: JSONValue {
                [
                    "items": .array(items.map(\.json)), "total": .int(total), "version": .int(version),
                    "currentId": currentId.map(JSONValue.int) ?? .null,
                ]
            }
        }
    }

    public enum QueueGet: RPCMethodDefinition {
        public static let name = "queue.get"
        public static let zoned = true
        public typealias Params = IdsParams

        public struct Result: RPCMethodResult, Equatable {
            /// The items found, in the order asked; unknown ids are left out.
            public var items: [RPCQueueItem]

            public init(items: [RPCQueueItem]) { self.items = items }
            public init?(json: JSONValue) {
                guard let rows = json["items"]?.arrayValue else { return nil }
                items = rows.compactMap(RPCQueueItem.init(json:))
            }
            public var json: JSONValue { ["items": .array(items.map(\.json))] }
        }
    }

    /// queue.remove's and queue.get's params: the items, by id (a required array of integers).
    public struct IdsParams: RPCMethodParams, Equatable {
        public var references: [String] { [] }
        public static let order = ["ids"]
        public var ids: [Int64]

        public init(ids: [Int64]) { self.ids = ids }
        public init(reading params: ParamReader) throws(RPCError) {
            guard let ids = try params.intArray("ids") else {
                throw .invalidParams(param: "ids", reason: "is required")
            }
            self.ids = ids
        }
        public var json: JSONValue? { ["ids": .ints(ids)] }
    }

    /// `{id}`: what queue.interrupt and overlay.add made.
    public struct IdResult: RPCMethodResult, Equatable {
        public var id: Int64

        public init(id: Int64) { self.id = id }
        public init?(json: JSONValue) {
            guard let id = json["id"]?.intValue else { return nil }
            self.id = id
        }
        public var json: JSONValue { ["id": .int(id)] }
    }

    /// queue.add's and queue.insert's result: the new items' ids, in queue order.
    public struct IdsResult: RPCMethodResult, Equatable {
        public var ids: [Int64]

        public init(ids: [Int64]) { self.ids = ids }
        public init?(json: JSONValue) {
            guard let ids = json["ids"]?.int64Array else { return nil }
            self.ids = ids
        }
        public var json: JSONValue { ["ids": .ints(ids)] }
    }

    /// The queue version after an edit.
    public struct VersionResult: RPCMethodResult, Equatable {
        public var version: Int64

        public init(version: Int64) { self.version = version }
        public init?(json: JSONValue) {
            guard let version = json["version"]?.intValue else { return nil }
            self.version = version
        }
        public var json: JSONValue { ["version": .int(version)] }
    }

    /// `items`: required, not empty (unless `allowEmpty`), each entry an ItemInput.
    static func itemInputs(_ params: ParamReader, allowEmpty: Bool = false) throws(RPCError) -> [RPCItemInput] {
        let values = try params.requiredArray("items")
        guard allowEmpty || !values.isEmpty else { throw .invalidParams(param: "items", reason: "must not be empty") }
        var inputs: [RPCItemInput] = []
        inputs.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            inputs.append(try RPCItemInput(json: value, name: "items[\(index)]"))
        }
        return inputs
    }
}
