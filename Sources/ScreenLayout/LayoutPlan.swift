// Layouts by daypart: a list of layouts, each with a `schedule` (as items have), and at most one without
// — the fallback, shown whenever no scheduled layout's window is open (none given: the whole screen as one
// zone). The first scheduled layout open at a time is the one in force then. A value type: the daemon asks
// it which layout is in force now and when that can next change, and switches at that minute.

import QueueModel

public struct LayoutPlan: Hashable, Sendable {
    public var layouts: [Layout]

    public init(layouts: [Layout]) { self.layouts = layouts }

    /// The plan itself, if it can be applied: every layout valid, at most one fallback, names told apart.
    public func validated() throws(LayoutError) -> LayoutPlan {
        guard !layouts.isEmpty else { throw LayoutError("a plan needs at least one layout") }
        guard layouts.count <= 24 else { throw LayoutError("a plan has at most 24 layouts (this one has \(layouts.count))") }
        var checked: [Layout] = []
        for (index, layout) in layouts.enumerated() {
            do {
                checked.append(try layout.validated())
            } catch {
                throw LayoutError("layout \(layout.name.map { "\"\($0)\"" } ?? "#\(index + 1)"): \(error.message)", zones: error.zones)
            }
        }
        guard layouts.filter({ $0.schedule == nil }).count <= 1 else {
            throw LayoutError("at most one layout has no schedule (the fallback)")
        }
        // A zone that plays music in one layout has no rectangle in another: its queue is one or the other.
        var music: [String: Bool] = [:]
        for zone in layouts.flatMap(\.zones) {
            if let seen = music[zone.name], seen != zone.isMusic {
                throw LayoutError("zone \"\(zone.name)\" is music in one layout and has a rectangle in another", zones: [zone.name])
            }
            music[zone.name] = zone.isMusic
        }
        return LayoutPlan(layouts: checked)
    }

    /// The layout without a schedule, else the whole screen.
    public var fallback: Layout {
        var fallback = layouts.first { $0.schedule == nil } ?? .fullScreen
        fallback.schedule = nil
        return fallback
    }

    /// The layout in force at local time `time`.
    public func active(at time: LocalDateTime) -> Layout {
        layouts.first { $0.schedule?.isOpen(at: time) == true } ?? fallback
    }

    /// The next minute after `time` at which a scheduled layout's window opens or closes (nil: never within
    /// the schedules' horizon). What is in force can only change then.
    public func nextChange(after time: LocalDateTime) -> LocalDateTime? {
        var next: LocalDateTime?
        for schedule in layouts.compactMap(\.schedule) {
            let change = schedule.isOpen(at: time) ? schedule.closing(after: time) : schedule.nextOpening(after: time)
            if let change, change > time { next = min(next ?? change, change) }
        }
        return next
    }

    /// Every zone name in any of the layouts (their queues are kept while the plan holds).
    public var zoneNames: Set<String> { Set(layouts.flatMap { $0.zones.map(\.name) }) }
}
