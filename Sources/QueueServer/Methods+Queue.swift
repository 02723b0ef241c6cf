// queue.* methods: edits and listing. Params and results are QueueRPC's API definitions; this file turns
// them into engine calls and the engine's queue into QueueItems.

import Alerts
import Media
import NIOCore
import Playback
import QueueModel
import QueueRPC
import ScreenLayout

extension Dispatcher {
    /// `zone`: whose engine this is (a fullscreen interrupt takes the screen for it).
    /// `alerts`: while one is on screen, an interrupt is refused (it would play inside the alert).
    static func queueMethods(
        _ engine: PlayerEngine, zone: String = Layout.mainZone, zones: (any ZoneEngines)? = nil, alerts: AlertController? = nil
    ) -> [RPCMethod] {
        let cache = engine.networkCache
        let clock = engine.localClock
        /// A reply's queue rows, with their cache's state for http(s) items and their windows judged at one time.
        @Sendable func rows(_ entries: some Sequence<QueueEntry>) -> [RPCQueueItem] {
            let now = LocalNow(clock)
            return entries.map { Wire.item($0, cache: cache, now: now) }
        }
        return [
            .answering(API.QueueAdd.self, .change) { params, session in
                .init(ids: Wire.ids(try engine.add(try ItemInputs.mediaItems(params.items, confinement: session.confinement))))
            },
            .answering(API.QueueInsert.self, .change) { params, session in
                let items = try ItemInputs.mediaItems(params.items, confinement: session.confinement)
                switch params.place {
                case .index(let index): return .init(ids: Wire.ids(try engine.insert(items, at: Int(index))))
                case .after(let id): return .init(ids: Wire.ids(try engine.insert(items, after: ItemID(Int(id)))))
                }
            },
            .answering(API.QueueRemove.self, .change) { params, _ in
                .init(removed: Wire.ids(engine.remove(params.ids.map { ItemID(Int($0)) })))
            },
            .answering(API.QueueMove.self, .change) { params, _ in
                try engine.move(ItemID(Int(params.id)), to: Int(params.index), ifVersion: params.ifVersion.map { UInt64($0) })
                return .init(version: Int64(engine.queue().version))
            },
            .answering(API.QueueInterrupt.self, .change) { params, session in
                if let active = alerts?.activeID {
                    throw RPCError.badState("alert \(active) holds the screen: an interrupt waits until it is cleared")
                }
                let items = try ItemInputs.mediaItems([params.item], confinement: session.confinement) { _ in "item" }
                guard items.count == 1, var item = items.first else {
                    throw RPCError.invalidParams(
                        param: "item", reason: "an interrupt is one file or URL (got a directory or playlist)")
                }
                let plays = Int(params.loops ?? params.item.loops ?? 1)
                item.loops = 1
                // Told before it can start: the screen is taken when it starts and given back when it ends.
                let id = try engine.interrupt(item, plays: plays) { id in
                    if params.fullscreen == true { zones?.takeScreen(forZone: zone, interrupt: id, plays: plays) }
                }
                return .init(id: Int64(id.rawValue))
            },
            .answering(API.QueueClear.self, .change) { _, _ in
                engine.clear()
                return .init(version: Int64(engine.queue().version))
            },
            .answering(API.QueueReplace.self, .change) { params, session in
                let items = params.items.isEmpty ? [] : try ItemInputs.mediaItems(params.items, confinement: session.confinement)
                let replaced = try engine.replace(
                    with: items, loops: params.loops.map { Int($0) }, rev: params.rev,
                    at: params.at == .itemEnd ? .itemEnd : .now, ifVersion: params.ifVersion.map { UInt64($0) })
                return .init(ids: Wire.ids(replaced.ids), version: Int64(replaced.version))
            },
            .answering(API.QueueUpdate.self, .change) { params, _ in
                let id = ItemID(Int(params.id))
                let schedule = try params.schedule.newValue.map { value throws(RPCError) in
                    try ScheduleInput.itemSchedule(value, param: "schedule")
                }
                try engine.update(id) { item in
                    if let loops = params.loops { item.loops = Int(loops) }
                    if params.start.changes { item.start = params.start.newValue }
                    if params.end.changes { item.end = params.end.newValue }
                    if params.title.changes { item.title = params.title.newValue }
                    if params.trackEnd.changes { item.trackEnd = params.trackEnd.newValue.map(TrackEnd.init) }
                    if params.schedule.changes { item.schedule = schedule }
                    if params.transition.changes { item.transition = params.transition.newValue.map(ItemInputs.transition) }
                    if params.motion.changes { item.motion = params.motion.newValue.map(ItemInputs.motion) }
                }
                guard let entry = engine.queue().entry(id) else { throw RPCError.itemNotFound(params.id) }
                return .init(item: rows([entry])[0])
            },
            .answering(API.QueueSetLoops.self, .change) { params, _ in
                try engine.setQueueLoops(Int(params.loops))
                let queue = engine.queue()
                return .init(loops: Int64(queue.loops), version: Int64(queue.version))
            },
            .answering(API.QueueList.self, .query) { params, _ in
                let queue = engine.queue()
                let entries = queue.entries
                let offset = Int(params.offset)
                // A copy of the queue shares its storage; the page is read from it in O(limit + log n).
                let page = entries[min(offset, entries.count)..<min(entries.count, max(offset, 0) + Int(params.limit))]
                return .init(
                    items: rows(page), total: Int64(entries.count), version: Int64(queue.version),
                    currentId: queue.current.map { Int64($0.id.rawValue) })
            },
            .answering(API.QueueGet.self, .query) { params, _ in
                let queue = engine.queue()
                return .init(items: rows(params.ids.compactMap { queue.entry(ItemID(Int($0))) }))
            },
        ]
    }
}

extension TrackEnd {
    init(_ wire: RPCTrackEnd) {
        switch wire {
        case .auto: self = .auto
        case .shortest: self = .shortest
        case .longest: self = .longest
        }
    }
}
