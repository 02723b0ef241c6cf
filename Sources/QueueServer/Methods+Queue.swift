// queue.* methods: edits and listing. Each binds its params, calls the engine, and shapes the result as
// Protocol/queued.openrpc.json says.
import NIOCore
import Playback
import QueueModel
import QueueRPC

extension Dispatcher {
    static func queueMethods(_ engine: PlayerEngine) -> [String: RPCMethod] {
        [
            "queue.add": RPCMethod(params: ["items"]) { params, _, _ in
                let items = try ItemInputs.parse(params.requiredArray("items"))
                return .now(.object(["ids": Wire.ids(try engine.add(items))]))
            },
            "queue.insert": RPCMethod(params: ["items", "index", "after"]) { params, _, _ in
                let items = try ItemInputs.parse(params.requiredArray("items"))
                let index = try params.int("index", in: 0...Int64(Int32.max))
                let after = try params.int("after")
                switch (index, after) {
                case (let index?, nil):
                    return .now(.object(["ids": Wire.ids(try engine.insert(items, at: Int(index)))]))
                case (nil, let after?):
                    return .now(.object(["ids": Wire.ids(try engine.insert(items, after: ItemID(Int(after))))]))
                default: throw RPCError.invalidParams(param: "index", reason: "give exactly one of index and after")
                }
            },
            "queue.remove": RPCMethod(params: ["ids"]) { params, _, _ in
                guard let ids = try params.intArray("ids") else {
                    throw RPCError.invalidParams(param: "ids", reason: "is required")
                }
                return .now(.object(["removed": Wire.ids(engine.remove(ids.map { ItemID(Int($0)) }))]))
            },
            "queue.move": RPCMethod(params: ["id", "index"]) { params, _, _ in
                let id = try params.requiredInt("id")
                let index = try params.requiredInt("index")
                guard index >= 0 else { throw RPCError.invalidParams(param: "index", reason: "must be >= 0") }
                try engine.move(ItemID(Int(id)), to: Int(index))
                return .now(.object(["version": .int(Int64(engine.queue().version))]))
            },
            "queue.clear": RPCMethod(params: []) { _, _, _ in
                engine.clear()
                return .now(.object(["version": .int(Int64(engine.queue().version))]))
            },
            "queue.update": RPCMethod(params: ["id", "loops", "start", "end", "title", "trackEnd"]) { params, _, _ in
                let id = ItemID(Int(try params.requiredInt("id")))
                let loops = try params.int("loops", in: 0...Int64(Int32.max))
                let start = try params.double("start")
                let end = try params.double("end")
                let title = try params.string("title")
                let trackEnd = try ItemInputs.trackEnd(params.raw("trackEnd"), param: "trackEnd")
                try engine.update(id) { item in
                    if params.raw("trackEnd") != nil { item.trackEnd = trackEnd }
                    if let loops { item.loops = Int(loops) }
                    if params.raw("start") != nil { item.start = start }
                    if params.raw("end") != nil { item.end = end }
                    if params.raw("title") != nil { item.title = title }
                }
                guard let entry = engine.queue().entry(id) else { throw RPCError.itemNotFound(Int64(id.rawValue)) }
                return .now(.object(["item": Wire.item(entry)]))
            },
            "queue.setLoops": RPCMethod(params: ["loops"]) { params, _, _ in
                guard let loops = try params.int("loops", in: 0...Int64(Int32.max)) else {
                    throw RPCError.invalidParams(param: "loops", reason: "is required")
                }
                try engine.setQueueLoops(Int(loops))
                let queue = engine.queue()
                return .now(.object(["loops": .int(Int64(queue.loops)), "version": .int(Int64(queue.version))]))
            },
            "queue.list": RPCMethod(params: ["offset", "limit"]) { params, _, _ in
                let offset = Int(try params.int("offset", in: 0...Int64(Int32.max)) ?? 0)
                let limit = Int(try params.int("limit", in: 1...10_000) ?? 1000)
                let queue = engine.queue()
                let entries = queue.entries
                let page = offset < entries.count ? entries[offset..<min(entries.count, offset + limit)] : []
                return .now(
                    .object([
                        "items": .array(page.map(Wire.item)),
                        "total": .int(Int64(entries.count)),
                        "version": .int(Int64(queue.version)),
                        "currentId": queue.current.map { .int(Int64($0.id.rawValue)) } ?? .null,
                    ]))
            },
            "queue.get": RPCMethod(params: ["ids"]) { params, _, _ in
                guard let ids = try params.intArray("ids") else {
                    throw RPCError.invalidParams(param: "ids", reason: "is required")
                }
                let queue = engine.queue()
                return .now(.object(["items": .array(ids.compactMap { queue.entry(ItemID(Int($0))) }.map(Wire.item))]))
            },
        ]
    }
}
