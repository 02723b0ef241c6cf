// What the server needs of the daemon's zones (issue 39): each zone's engine by name, for the methods that
// act on one zone, and the layout to read and to change. The daemon owns the zones and their engines; the
// server only routes requests to them.

import Playback
import QueueModel
import ScreenLayout
import SystemSupport

/// When a new layout takes over.
public enum LayoutMoment: Sendable, Equatable {
    case now
    /// When the main zone's current item ends (at once when nothing plays).
    case itemEnd
}

public protocol ZoneEngines: AnyObject, Sendable {
    /// The engine of zone `name`, if the layout has it (the main zone's too).
    func engine(forZone name: String) -> PlayerEngine?
    /// What keeps zone `name`'s changes (its own journal), nil without state or for main (the server's own).
    func keeper(forZone name: String) -> ChangeKeeper?
    /// Zone `zone`'s interrupt `interrupt` takes the whole screen while it plays (called before it starts).
    func takeScreen(forZone zone: String, interrupt: ItemID, plays: Int)
    /// The zones with an engine, main first.
    var zoneNames: [String] { get }
    /// The layout in force.
    func layout() -> Layout
    /// The output's size the zones are placed on.
    func outputSize() -> (width: Int, height: Int)
    /// `layout` as it would be applied, or why it cannot be (the budget included); changes nothing.
    func check(_ layout: Layout) throws(LayoutError) -> Layout
    /// The layouts by daypart in force (nil: one layout, set with `setLayout`).
    func plan() -> LayoutPlan?
    /// Checks every layout of `plan` (the budget included), keeps the plan and applies the layout whose
    /// schedule is open now (its fallback otherwise), switching as windows open and close.
    func setPlan(_ plan: LayoutPlan, at moment: LayoutMoment) throws(LayoutError) -> (inForce: Layout, pending: Bool)
    /// Checks `layout` whole (the budget included) and applies it now or at the main zone's item end;
    /// returns the layout in force afterwards and whether the new one waits.
    func setLayout(_ layout: Layout, at moment: LayoutMoment) throws(LayoutError) -> (inForce: Layout, pending: Bool)
}

/// The zoned methods bound to each zone's engine (built once per engine; a zone made anew gets new ones).
final class ZoneMethodCache: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by `lock`: per zone, the engine the methods were built for, and the methods.
    private var built: [String: (engine: ObjectIdentifier, methods: [String: RPCMethod])] = [:]

    func methods(forZone zone: String, engine: PlayerEngine, build: () -> [String: RPCMethod]) -> [String: RPCMethod] {
        let identity = ObjectIdentifier(engine)
        if let cached = lock.withLock({ built[zone] }), cached.engine == identity { return cached.methods }
        let methods = build()
        lock.withLock { built[zone] = (identity, methods) }
        return methods
    }

    /// Drops the methods of engines that are no longer their zone's (a zone removed or made anew): they
    /// would keep a stopped engine, and its queue, alive.
    func prune(isCurrent: (String, ObjectIdentifier) -> Bool) {
        let stale = lock.withLock { built.filter { !isCurrent($0.key, $0.value.engine) }.map(\.key) }
        guard !stale.isEmpty else { return }
        lock.withLock { for zone in stale { built[zone] = nil } }
    }
}
