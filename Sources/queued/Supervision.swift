// What a service manager and a monitoring system see of the daemon: systemd's READY/STATUS/STOPPING and
// the watchdog, daemon.health's figures, and the Prometheus metrics file. The watchdog is fed only while
// playback makes progress — the position moves while playing, or the player is idle, paused or stopped
// on purpose — so a daemon frozen mid-play is restarted by systemd (and comes back where it was, from its
// state directory). Runs its own thread (`queued.supervise`); the counters are fed by the engine's event
// and frame callbacks.

import AudioPulse
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Playback
import QueueRPC
import QueueServer
import ServiceNotify
import StateStore
import SystemClock

final class Supervision: @unchecked Sendable {
    private let notifier: ServiceNotifier
    private let logger: Logger
    private let stallTimeout: Double
    private let metricsPath: String?
    /// Set once before `start`: the sync program's reports (for the metrics file).
    var syncBoard: SyncBoard?
    private let startedAt = Monotonic.now()
    private let lock = ThreadLock()
    /// Guarded by `lock`: fed by the presenter thread (frames) and the event delivery (failures).
    private var framesShown: Int64 = 0
    private var lastPictureAt: Double?
    private var itemsFailed: Int64 = 0
    /// Guarded by `lock`: written by the supervise thread.
    private var detector: StallDetector
    private var stopping = false
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Set once before `start`.
    private var engine: PlayerEngine?
    private var audio: AudioSink?
    private var writer: StateWriter?

    init(stallTimeout: Double, metricsPath: String?, logger: Logger) {
        notifier = ServiceNotifier(environment: ProcessInfo.processInfo.environment)
        self.stallTimeout = stallTimeout
        detector = StallDetector(timeout: stallTimeout, now: Monotonic.now())
        self.metricsPath = metricsPath
        self.logger = logger
    }

    // MARK: Fed by the engine

    func framePresented() {
        lock.withLock {
            framesShown += 1
            lastPictureAt = Monotonic.now()
        }
    }

    func observe(_ event: PlayerEvent) {
        if case .itemEnded(_, _, .error, _, _) = event { lock.withLock { itemsFailed += 1 } }
    }

    // MARK: Lifecycle

    /// READY=1 (the socket answers and the restored queue is loaded), then the watchdog and status loop.
    func start(engine: PlayerEngine, audio: AudioSink, writer: StateWriter?) {
        self.engine = engine
        self.audio = audio
        self.writer = writer
        notifier.notify(["READY=1", "STATUS=" + describe(engine.status()), "MAINPID=\(getpid())"])
        if let interval = notifier.watchdogInterval {
            logger.info("systemd watchdog every \(interval) s; stall timeout \(stallTimeout) s")
        }
        Threads.start(named: "queued.supervise") { [self] in
            run()
            finished.signal()
        }
    }

    /// `restarting`: daemon.restart, which keeps the process (systemd hears a reload, then READY=1 again).
    func stop(restarting: Bool = false) {
        notifier.notify(restarting ? ["RELOADING=1", "STATUS=restarting"] : ["STOPPING=1", "STATUS=shutting down"])
        lock.withLock { stopping = true }
        wake.signal()
        if engine != nil { finished.wait() }
    }

    private func run() {
        // Twice per watchdog interval, as sd_watchdog_enabled(3) advises; else often enough for STATUS
        // and the stall count.
        let tick = min(notifier.watchdogInterval.map { $0 / 2 } ?? 1, 1)
        var lastStatus = ""
        var nextMetrics = Monotonic.now()
        var reportedStateFailure = false
        while true {
            _ = wake.wait(timeout: .now() + tick)
            if lock.withLock({ stopping }) { return }
            guard let engine else { return }
            let status = engine.status()
            let healthy = checkProgress(status)
            if healthy && notifier.watchdogInterval != nil { notifier.notify(["WATCHDOG=1"]) }
            if !reportedStateFailure, let failure = writer?.failure {
                reportedStateFailure = true
                logger.error("state: changes are no longer kept: \(failure); playback goes on")
                notifier.notify(["STATUS=state not kept: \(failure)"])
            }
            let line = describe(status)
            if line != lastStatus {
                notifier.notify(["STATUS=" + line])
                lastStatus = line
            }
            if let metricsPath, Monotonic.now() >= nextMetrics {
                nextMetrics = Monotonic.now() + 10
                writeMetrics(to: metricsPath)
            }
        }
    }

    /// Whether playback is moving (or standing still on purpose). A stall (see StallDetector) ends the
    /// stuck item and rebuilds the decode thread; only a stall that outlives that recovery stops the
    /// watchdog.
    private func checkProgress(_ status: PlayerStatus) -> Bool {
        let (wasStuck, verdict) = lock.withLock { (detector.isStuck, detector.observe(status, now: Monotonic.now())) }
        switch verdict {
        case .healthy:
            if wasStuck { logger.notice("playback moves again") }
            return true
        case .waiting:
            return true
        case .recover(let seconds):
            engine?.recoverFromStall(
                "stalled: no picture shown and no sound played for \(seconds.fixed(1)) s")
            return true
        case .stuck(let seconds):
            if !wasStuck {
                logger.critical(
                    "playback still makes no progress \(seconds.fixed(1)) s after a stall was recovered; the watchdog is no longer fed"
                )
            }
            return false
        }
    }

    private func describe(_ status: PlayerStatus) -> String {
        let dark = status.display.on ? "" : " (display off)"
        guard let id = status.currentID else { return status.state.rawValue + dark }
        let name = status.title ?? status.uri.map { PathText.lastComponent($0) } ?? "item \(id)"
        return "\(status.state.rawValue) #\(id) \(name) \(status.position.fixed(0)) s" + dark
    }

    // MARK: Figures

    func health() -> API.DaemonHealth.Result {
        var result = API.DaemonHealth.Result()
        result.rss = Self.residentBytes()
        result.fds = Int64(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count)
        result.threads = Int64(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count)
        let now = Monotonic.now()
        result.uptime = now - startedAt
        lock.withLock {
            result.framesShown = framesShown
            result.lastPictureAge = lastPictureAt.map { now - $0 }
            result.itemsFailed = itemsFailed
            result.stalls = Int64(detector.stalls)
            result.lastProgressAge = detector.stillFor(now: now)
        }
        result.framesDropped = Int64(engine?.droppedFrames() ?? 0)
        if let engine {
            let power = engine.screenPowerInfo()
            result.display = engine.status().display.on ? "on" : "off"
            result.displayChanges = Int64(power.changes)
            result.displayFailures = Int64(power.failures)
        }
        let pulse = audio as? ReconnectingPulseSink
        result.audioUnderruns = Int64(pulse?.diagnostics()?.underflows ?? 0)
        result.audioReconnects = Int64(pulse?.reconnects ?? 0)
        if let statistics = writer?.currentStatistics {
            result.stateWrites = Int64(statistics.writes + statistics.snapshots)
            result.stateBytes = Int64(statistics.bytes)
        }
        return result
    }

    /// The figures as Prometheus text (node_exporter's textfile collector), written atomically.
    private func writeMetrics(to path: String) {
        let health = health()
        var text = ""
        for (name, value) in health.counters {
            text += "# TYPE queued_\(Self.snake(name)) gauge\nqueued_\(Self.snake(name)) \(value)\n"
        }
        text += "# TYPE queued_display_off gauge\nqueued_display_off \(health.display == "off" ? 1 : 0)\n"
        text += "# TYPE queued_uptime_seconds gauge\nqueued_uptime_seconds \(health.uptime)\n"
        text +=
            "# TYPE queued_last_progress_age_seconds gauge\nqueued_last_progress_age_seconds \(health.lastProgressAge)\n"
        if let age = health.lastPictureAge {
            text += "# TYPE queued_last_picture_age_seconds gauge\nqueued_last_picture_age_seconds \(age)\n"
        }
        // This member of a sync group as its queued-sync last told (nothing without one).
        if let (report, age) = syncBoard?.latest(), let me = report.members.first(where: { $0.id == report.me }) {
            let figures: [(String, Double?)] = [
                ("sync_is_leader", report.leader == report.me ? 1 : 0), ("sync_offset_p50_ms", me.offsetP50),
                ("sync_offset_p99_ms", me.offsetP99), ("sync_drift_ppm", me.driftPPM), ("sync_trim_ppm", me.trimPPM),
                ("sync_realignments", Double(me.realignments)), ("sync_members", Double(report.members.count)),
                ("sync_report_age_seconds", age),
            ]
            for case (let name, let value?) in figures { text += "# TYPE queued_\(name) gauge\nqueued_\(name) \(value)\n" }
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            logger.warning("cannot write the metrics file \(path): \(error)")
        }
    }

    /// "framesShown" → "frames_shown".
    static func snake(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
        }
        return out
    }

    private static func residentBytes() -> Int64 {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return Int64(line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0) * 1024
    }
}
