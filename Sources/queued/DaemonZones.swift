// The screen's zones as the daemon runs them (issue 39): the main zone is the daemon's first engine; every
// other zone of the layout gets an engine of its own (its own queue, clock and state directory) drawing in
// its rectangle of the one window (SDLVideoSink's compositor) or, for the music zone, playing its own
// audio stream ducked under the audio zone's plays with sound. A new layout is checked whole, then the new
// zones' engines are made, the layout file replaced, and only then the swap: the compositor's layout, the
// music's duck, the zones left out stopped. A zone that keeps its name keeps its engine untouched.
// `setLayout` runs on the control server's thread (or a helper thread for `at: itemEnd`); making and
// stopping engines happens under `applyLock` only, never under `lock`, which guards the maps.

import AudioMix
import FoundationEssentials
import Logging
import Playback
import QueueModel
import QueueServer
import ScreenLayout
import StateStore
import SystemSupport
import VideoSDL

/// A zone's engine and what goes with it.
struct ZoneRuntime {
    let engine: PlayerEngine
    let writer: StateWriter?
    /// Kept for its directory's lock while the zone runs.
    let state: DurableState?
    /// The music zone's output.
    let duck: DuckedAudioSink?

    func stop() {
        writer?.close()
        engine.shutdown()
        // Its directory is free for the zone's next engine at once (references to this runtime may linger).
        state?.directory.unlock()
    }
}

final class DaemonZones: ZoneEngines, @unchecked Sendable {
    private let main: PlayerEngine
    private let compositor: SDLVideoSink?
    private let budget: DecodeBudget?
    private let currentOutputSize: @Sendable () -> (width: Int, height: Int)
    private let make: (Zone) throws -> ZoneRuntime
    private let file: LayoutFile?
    /// Where zones keep their state (`<state>/zones/<name>`), nil without state.
    private let stateRoot: String?
    let duck = DuckControl()
    private let logger: Logger
    /// One layout change at a time; engines are made and stopped under it.
    private let applyLock = ThreadLock()
    /// Guards the fields below (read by every routed request).
    private let lock = ThreadLock()
    private var current = Layout.fullScreen
    /// The layouts by daypart the current one comes from (nil: one layout).
    private var currentPlan: LayoutPlan?
    private var runtimes: [String: ZoneRuntime] = [:]
    /// A layout waiting for the main zone's item end, and the plan it comes from.
    private var pending: (layout: Layout, plan: LayoutPlan?)?
    /// Interrupts that take the whole screen, by zone, and the one doing so now (zone, id).
    private var screenTakers: [String: [ItemID: Int]] = [:]
    private var takenBy: (zone: String, id: ItemID)?
    /// The daypart scheduler's wake-ups (a new plan, the shutdown); guards `plans` and `stopping`.
    private let scheduler = ThreadCondition()
    private var plans = 0
    private var stopping = false

    init(
        main: PlayerEngine, compositor: SDLVideoSink?, budget: DecodeBudget?,
        outputSize: @escaping @Sendable () -> (width: Int, height: Int), stateRoot: String?, logger: Logger,
        make: @escaping (Zone) throws -> ZoneRuntime
    ) {
        self.main = main
        self.compositor = compositor
        self.budget = budget
        currentOutputSize = outputSize
        self.stateRoot = stateRoot
        file = stateRoot.map { LayoutFile(directory: $0) }
        self.logger = logger
        self.make = make
    }

    // MARK: ZoneEngines

    func engine(forZone name: String) -> PlayerEngine? {
        if name == Layout.mainZone { return main }
        return lock.withLock { runtimes[name]?.engine }
    }

    func keeper(forZone name: String) -> ChangeKeeper? {
        lock.withLock { runtimes[name]?.writer }
    }

    var zoneNames: [String] {
        lock.withLock { [Layout.mainZone] + current.zones.map(\.name).filter { $0 != Layout.mainZone && runtimes[$0] != nil } }
    }

    func layout() -> Layout { lock.withLock { current } }

    func plan() -> LayoutPlan? { lock.withLock { currentPlan } }

    func outputSize() -> (width: Int, height: Int) { currentOutputSize() }

    func setLayout(_ layout: Layout, at moment: LayoutMoment) throws(LayoutError) -> (inForce: Layout, pending: Bool) {
        try take(try check(layout), plan: nil, at: moment)
    }

    func setPlan(_ plan: LayoutPlan, at moment: LayoutMoment) throws(LayoutError) -> (inForce: Layout, pending: Bool) {
        var plan = try plan.validated()
        // One layout without a schedule is just a layout.
        if plan.layouts.count == 1, plan.layouts[0].schedule == nil { return try setLayout(plan.layouts[0], at: moment) }
        var checked: [Layout] = []
        for layout in plan.layouts {
            do {
                checked.append(try check(layout))
            } catch {
                throw LayoutError("layout \"\(layout.name ?? "?")\": \(error.message)", zones: error.zones)
            }
        }
        plan.layouts = checked
        return try take(plan.active(at: main.localClock.localTime()), plan: plan, at: moment)
    }

    /// Applies `layout` (from `plan`) now, or at the main zone's item end.
    private func take(_ layout: Layout, plan: LayoutPlan?, at moment: LayoutMoment) throws(LayoutError) -> (inForce: Layout, pending: Bool) {
        applyLock.lock()
        defer { applyLock.unlock() }
        if moment == .itemEnd {
            // Waiting first, then asked whether main plays: an item that ends in between finds it waiting.
            lock.withLock { pending = (layout, plan) }
            if [.playing, .paused].contains(main.status().state) {
                logger.info("layout: \(layout.zones.count) zones, waiting for the main zone's item to end")
                return (lock.withLock { current }, true)
            }
        }
        lock.withLock { pending = nil }
        try apply(layout, plan: plan)
        return (layout, false)
    }

    func takeScreen(forZone zone: String, interrupt: ItemID, plays: Int) {
        lock.withLock { screenTakers[zone, default: [:]][interrupt] = plays }
    }

    /// A zone's engine events (main's too): a fullscreen interrupt starting takes the screen; its last play
    /// ending, the zone starting anything else, or the zone stopping gives it back. Posted to
    /// the compositor under the lock, so that a layout applied meanwhile is never overtaken by a stale one.
    func zoneEvent(_ zone: String, _ event: PlayerEvent) {
        lock.withLock {
            switch event {
            case .itemStarted(let id, _, _, _, let interrupt, _, _, _, _):
                if interrupt, screenTakers[zone]?[id] != nil {
                    guard takenBy.map({ $0.zone != zone || $0.id != id }) ?? true else { return }
                    // One taker after another (an alert's chain): the one before has ended, the screen stays taken.
                    if let before = takenBy, before.zone == zone { screenTakers[zone]?[before.id] = nil }
                    takenBy = (zone, id)
                    compositor?.setLayout(Self.taken(current, by: zone))
                } else if let taken = takenBy, taken.zone == zone {
                    giveBackLocked(taken)
                }
            case .itemEnded(let id, let play, let reason, _, true):
                // Its last play, or one cut short (a skip or an error ends the whole interrupt).
                guard let taken = takenBy, taken.zone == zone, taken.id == id,
                    play >= screenTakers[zone]?[id] ?? 1 || reason != .eof
                else { return }
                giveBackLocked(taken)
            case .statusChanged(let status) where status.state == .idle || status.state == .stopped:
                guard let taken = takenBy, taken.zone == zone else { return }
                giveBackLocked(taken)
            default:
                break
            }
        }
    }

    /// Lock held: the screen back to the layout in force.
    private func giveBackLocked(_ taken: (zone: String, id: ItemID)) {
        screenTakers[taken.zone]?[taken.id] = nil
        takenBy = nil
        compositor?.setLayout(current)
    }

    /// `layout` with zone `zone` over the whole screen, on top (the others play on underneath); a music zone
    /// has no picture to show and takes nothing.
    static func taken(_ layout: Layout, by zone: String) -> Layout {
        var taken = layout
        let top = (layout.zones.map(\.z).max() ?? 0) + 1
        if let index = taken.zones.firstIndex(where: { $0.name == zone }), !taken.zones[index].isMusic {
            taken.zones[index].rect = .whole
            taken.zones[index].z = top
        }
        return taken
    }

    // MARK: Daemon side

    /// At start: the layout given (`--layout`), else the one kept, else the full screen. A layout that cannot
    /// be applied is logged and the screen stays one zone.
    func start(given: LayoutPlan?) {
        var plan = given
        var damaged = false
        if plan == nil, let file {
            let (saved, problem) = file.read()
            if let problem { logger.warning("layout: \(problem)") }
            damaged = problem != nil
            plan = saved
        }
        // A damaged file says nothing of the zones: their queues stay until a layout names them or not.
        if !damaged { removeStaleZoneStates(keeping: plan?.zoneNames ?? [Layout.mainZone]) }
        Threads.start(named: "queued.dayparts") { [self] in runScheduler() }
        guard let plan, plan != LayoutPlan(layouts: [.fullScreen]) else { return }
        do {
            _ = try setPlan(plan, at: .now)
        } catch {
            logger.error("layout: not applied: \(error.message); the screen is one zone")
        }
    }

    /// The daypart scheduler's thread: with layouts by daypart, the one whose window is open now is put in
    /// force at each minute a window opens or closes (checked at least once a minute: the wall clock may jump).
    private func runScheduler() {
        var seen = -1
        while true {
            let stop = scheduler.withLock { () -> Bool in
                if !stopping && seen == plans { _ = scheduler.wait(seconds: nextCheck()) }
                seen = plans
                return stopping
            }
            if stop { return }
            applyLock.withLock {
                guard let plan = lock.withLock({ currentPlan }), lock.withLock({ pending == nil }) else { return }
                let active = plan.active(at: main.localClock.localTime())
                guard active != lock.withLock({ current }) else { return }
                logger.info("layout: \(active.name ?? "the fallback") by its schedule")
                do {
                    try apply(active, plan: plan)
                } catch {
                    logger.error("layout: \(active.name ?? "the fallback") not applied: \(error)")
                }
            }
        }
    }

    /// Seconds until the plan in force can next change (at most a minute).
    private func nextCheck() -> Double {
        guard let plan = lock.withLock({ currentPlan }) else { return 60 }
        let clock = main.localClock
        guard let next = plan.nextChange(after: clock.localTime()) else { return 60 }
        return min(60, max(0.05, clock.instant(of: next) - clock.now() + 0.01))
    }

    private func wakeScheduler() {
        scheduler.withLock {
            plans += 1
            scheduler.broadcast()
        }
    }

    /// Zone state directories the layout does not name (a layout.set cut short before its file was
    /// replaced made them): their zones never existed.
    private func removeStaleZoneStates(keeping kept: Set<String>) {
        guard let stateRoot else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(stateRoot)/zones")) ?? []
        for name in names where !kept.contains(name) {
            try? FileManager.default.removeItem(atPath: "\(stateRoot)/zones/\(name)")
        }
    }

    /// The main zone's events: its item ended (a layout waiting for it applies now), it plays or not (ducking).
    func mainEvent(_ event: PlayerEvent) {
        zoneEvent(Layout.mainZone, event)
        switch event {
        case .statusChanged(let status):
            duck.audioZonePlaying(status.state == .playing)
            if status.state == .idle || status.state == .stopped { applyPending() }
        case .itemEnded(_, _, _, _, let interrupt) where !interrupt:
            applyPending()
        default:
            break
        }
    }

    /// Stops every zone's engine but main's (the daemon's shutdown).
    func stopAll() {
        scheduler.withLock {
            stopping = true
            scheduler.broadcast()
        }
        applyLock.withLock {
            let all = lock.withLock {
                defer { runtimes = [:] }
                return runtimes
            }
            duck.attach(nil)
            for runtime in all.values { runtime.stop() }
        }
    }

    // MARK: Applying

    func check(_ layout: Layout) throws(LayoutError) -> Layout {
        let layout = try layout.validated()
        guard layout.audioZone == Layout.mainZone else {
            throw LayoutError(
                "the sound is the main zone's: `audio: true` on \"\(layout.audioZone)\" is not supported yet (put the video with sound in \"main\")",
                zones: [layout.audioZone])
        }
        if let budget {
            let size = currentOutputSize()
            try budget.check(layout, width: size.width, height: size.height)
        }
        return layout
    }

    /// A layout waiting for the main zone's item end, applied on a thread of its own (the caller is the
    /// main engine's event delivery, which must not wait for engines to start or stop).
    private func applyPending() {
        guard lock.withLock({ pending != nil }) else { return }
        Threads.start(named: "queued.layout") { [self] in
            applyLock.withLock {
                guard let (layout, plan) = lock.withLock({ () -> (Layout, LayoutPlan?)? in
                    defer { pending = nil }
                    return pending
                }) else { return }
                do {
                    try apply(layout, plan: plan)
                } catch {
                    logger.error("layout: the waiting layout was not applied: \(error)")
                }
            }
        }
    }

    /// Under `applyLock`: the new zones made, the file replaced (with the plan, when there is one), then the
    /// swap and the zones left out stopped — their queues dropped unless another layout of the plan has them.
    private func apply(_ layout: Layout, plan: LayoutPlan?) throws(LayoutError) {
        guard !scheduler.withLock({ stopping }) else { throw LayoutError("the daemon is stopping") }
        let old = lock.withLock { current }
        var existing = lock.withLock { runtimes }
        // A zone that turns from music into a rectangle or back is another engine: the old one stops first
        // (its state directory is taken while it runs), and is made again as it was if the change fails.
        var replaced: [Zone] = []
        for zone in layout.zones where zone.name != Layout.mainZone {
            if let before = old.zone(named: zone.name), existing[zone.name] != nil, before.isMusic != zone.isMusic {
                replaced.append(before)
            }
        }
        for before in replaced {
            let runtime = lock.withLock {
                screenTakers[before.name] = nil
                if takenBy?.zone == before.name { takenBy = nil }
                return runtimes.removeValue(forKey: before.name)
            }
            // Every reference let go, so that its state directory's lock is released with it.
            existing[before.name] = nil
            runtime?.stop()
        }
        var made: [String: ZoneRuntime] = [:]
        /// Undoes the change: what was made stops, the zones stopped for it come back as they were.
        func undo() {
            for runtime in made.values { runtime.stop() }
            for before in replaced {
                guard let again = try? make(before) else {
                    logger.error("layout: zone \"\(before.name)\" could not be made again after a failed change")
                    continue
                }
                lock.withLock { runtimes[before.name] = again }
            }
        }
        var keptChanges: [() -> Void] = []
        for zone in layout.zones where zone.name != Layout.mainZone {
            if let kept = existing[zone.name] {
                // Kept: only what the layout changed of it, once the change is kept.
                if let before = old.zone(named: zone.name) {
                    if !zone.isMusic && before.fit != zone.fit {
                        keptChanges.append { kept.engine.setFit(VideoFit(rawValue: zone.fit.rawValue) ?? .fit) }
                    }
                    if !zone.isMusic && before.rotate != zone.rotate {
                        keptChanges.append { kept.engine.setRotation(VideoRotation(rawValue: zone.rotate) ?? .upright) }
                    }
                    if before.duck != zone.duck || before.duckRamp != zone.duckRamp {
                        keptChanges.append { kept.duck?.setDepth(zone.duck, rampSeconds: zone.duckRamp) }
                    }
                }
                continue
            }
            do {
                made[zone.name] = try make(zone)
            } catch {
                undo()
                throw LayoutError("zone \"\(zone.name)\" cannot start: \(error)", zones: [zone.name])
            }
        }
        do {
            if let plan { try file?.write(plan) } else { try file?.write(layout) }
        } catch {
            undo()
            throw LayoutError("the layout cannot be kept: \(error)")
        }
        var leaving: [(String, ZoneRuntime)] = []
        lock.withLock {
            for (name, runtime) in runtimes where made[name] != nil || layout.zone(named: name) == nil {
                leaving.append((name, runtime))
            }
            for (name, _) in leaving {
                runtimes[name] = nil
                screenTakers[name] = nil
                if takenBy?.zone == name { takenBy = nil }
            }
            runtimes.merge(made) { _, new in new }
            current = layout
            currentPlan = plan
            compositor?.setLayout(takenBy.map { Self.taken(layout, by: $0.zone) } ?? layout)
        }
        wakeScheduler()
        for change in keptChanges { change() }
        let music = layout.musicZone.flatMap { zone in lock.withLock { runtimes[zone.name]?.duck } }
        duck.attach(music)
        for (name, runtime) in leaving {
            runtime.stop()
            if layout.zone(named: name) == nil, !(plan?.zoneNames.contains(name) ?? false), let stateRoot {
                // Its queue goes with it.
                try? FileManager.default.removeItem(atPath: "\(stateRoot)/zones/\(name)")
            }
        }
        let names = layout.zones.map(\.name).joined(separator: ", ")
        logger.info("layout: zones \(names) (\(made.count) started, \(leaving.count) stopped)")
    }
}
