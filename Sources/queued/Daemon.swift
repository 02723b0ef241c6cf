// Wires outputs, engine, control socket and signals together and logs what happens. Runs on the main
// thread, which only waits: playback lives on the engine's threads, control on the server's event loop.

import Alerts
import AudioPulse
import VideoSDL
import ScreenLayout
import JSONText
import AudioMix
import DecodeChoice
import Dispatch
import FoundationEssentials
import SystemSupport
import Glibc
import Logging
import Media
import MediaPaths
import NetCache
import Playback
import PlayLog
import QueueModel
import QueueRPC
import QueueServer
import StateStore
import SystemClock
import Triggers
import WebPages

struct Daemon {
    let options: QueuedCommand
    let logger: Logger

    /// Runs until SIGINT/SIGTERM, a closed window, the end with --exit-when-done, or daemon.restart; true when
    /// the caller is to start the daemon again (everything is shut down by then).
    func run() throws -> Bool {
        let server = try makeServer()
        let supervision = Supervision(
            stallTimeout: options.stallTimeout, metricsPath: options.metricsFile,
            logger: Logger(label: "queued.supervise"))
        let eventLog = EventLog(logger: Logger(label: "queued.events"), progressInterval: options.progressInterval)
        let (deviceAudio, audioName) =
            options.untimed
            ? (NullAudioSink(mode: .untimed), "untimed")
            : try Outputs.audio(
                options.audio, server: options.pulseServer, buffer: options.audioBuffer, logger: logger) { change in
                let event = DaemonEvent.output(change)
                server?.publish(event)
                eventLog.log(event)
            }
        // The sound's pace may be trimmed by a sync group's program (sync.trim); untrimmed it passes as it is.
        let groupClock = GroupClock.fromEnvironment(ProcessInfo.processInfo.environment)
        if groupClock.skew != 0 { logger.warning("test option: clocks and sound run \(groupClock.skewPPM) ppm fast") }
        let trimmed = TrimmedAudioSink(deviceAudio, skewPPM: groupClock.skewPPM)
        let audio: AudioSink = trimmed
        let sync = SyncControl(
            clock: groupClock, board: SyncBoard(), setTrim: { trimmed.setTrim(ppm: $0) }, trimPPM: { trimmed.trimPPM })
        let (video, videoName) = Outputs.video(options, logger: logger)
        var config = EngineConfig()
        config.trackEnd = options.shortestTrack ? .shortest : TrackEnd(rawValue: options.trackEnd.rawValue) ?? .auto
        config.stillDuration = options.stillDuration
        let hwdec = try options.hwdecSetting()
        let offered = FFmpegHWBackend().offered(for: hwdec.codecs).map(\.rawValue)
        // Always made, so that `player.set {hwdec}` can turn it on; with `no` nothing is tried.
        config.hwdec = HWDecodeRegistry(setting: hwdec)
        if hwdec.methods != .no {
            logger.info("hwdec \(options.hwdec) for \(hwdec.codecs.sorted().joined(separator: ",")); this FFmpeg offers: \(offered.joined(separator: ", "))")
        }
        config.scheduleFallback = ScheduleFallbackPicture.load(options.scheduleFallback, logger: logger)
        config.defaultTransition = try options.defaultTransition()
        config.displaySchedule = try options.parsedDisplaySchedule()
        config.displayCommands = try options.displayCommands()
        // Subscribers choose their own progress interval (down to 50 ms); the log keeps the option's.
        config.progressInterval = server == nil ? options.progressInterval : 0.05
        config.untimed = options.untimed
        config.sourceTimeout = options.stallTimeout
        var cacheSettings = NetworkCache.Settings(directory: options.resolvedCacheDir)
        cacheSettings.timeout = options.netTimeout
        cacheSettings.revalidateInterval = options.revalidate
        cacheSettings.sizeCap = options.cacheSize.flatMap(QueuedCommand.bytes)
        cacheSettings.minimumFree = QueuedCommand.bytes(options.cacheMinFree) ?? cacheSettings.minimumFree
        var cache: NetworkCache?
        do {
            cache = try NetworkCache(settings: cacheSettings, logger: Logger(label: "queued.cache"))
            config.networkSources = cache
        } catch {
            logger.warning("http(s) items will fail: \(error)")
        }
        var webSettings = WebRenderer.Settings(program: options.webRenderer ?? Self.besideThisProgram("queued-webview"))
        webSettings.memoryMiB = options.webMemory
        webSettings.framesPerSecond = options.webFps
        webSettings.defaultDuration = options.stillDuration
        let webPages = WebRenderer(settings: webSettings, logger: Logger(label: "queued.web"))
        config.webPages = webPages
        let networkItems = cache.map { cache in
            NetworkItems(cache: cache, prefetch: options.prefetch) { id, news in
                let event = DaemonEvent.cache(id: id, news: news)
                server?.publish(event)
                eventLog.log(event)
            }
        }
        let done = DispatchSemaphore(value: 0)
        let restartAsked = SetOnceFlag()
        let closeLogger = logger
        config.onWindowClosed = {
            closeLogger.info("video window closed")
            done.signal()
        }
        // `--log-level present=trace`: one line per picture on screen, for benchmarks (contrib/bench/overlays).
        let presentLogger = Logger(label: "queued.present")
        let tracesPresents = presentLogger.logLevel <= .trace
        config.onFramePresented = { frame in
            supervision.framePresented()
            if tracesPresents {
                presentLogger.trace(
                    "presented",
                    metadata: ["at": "\(Monotonic.now())", "item": "\(frame.id)", "pts": "\(frame.itemTime)"])
            }
        }
        // The zones are made once the main engine runs; its plays and events reach them through this box.
        let zonesBox = MadeLater<DaemonZones>()
        // Made once the main engine runs (it shows alerts on it); the engine's events reach it through this box.
        let alertsBox = MadeLater<AlertController>()
        config.onPlayScheduled = { sound, heardAt in zonesBox.value?.duck.playScheduled(sound: sound, heardAt: heardAt) }
        let zoneConfig = Self.zoneConfig(config)
        let givenLayout = try options.layout.map(Self.readLayout)
        let exitWhenDone = options.exitWhenDone
        let played = SetOnceFlag()
        let state = options.noState ? nil : try DurableState(options: self.options, logger: logger)
        if let vault = state?.vault { config.resolveStreamURL = { vault.resolved($0) } }
        let trimmer = MemoryTrimmer()
        let plays = PlayRecording(store: PlayLogStore(directory: state?.directory.path)) { record in
            server?.publish(.played(record))
        }
        // `--output` (the config's `output` lines) when given, else those kept from outputs.set.
        let outputsFile = state.map { $0.directory.path + "/outputs.json" }
        let outputLines = options.outputs.isEmpty ? RuleFile.read(outputsFile) : options.outputs
        let outputs = OutputRunner(
            rules: outputLines.compactMap { try? OutputRule(parsing: $0) }, commandTimeout: options.displayCommandTimeout,
            logger: Logger(label: "queued.outputs")
        ) { topic, payload in server?.publish(.outputMessage(topic: topic, payload: payload)) }
        let engine = PlayerEngine(
            config: config, audio: audio, video: video, queueLoops: options.loops ?? 1, queue: state?.queue,
            logger: logger
        ) {
            event in
            switch event {
            case .itemStarted(let id, _, _, _, _, _, let item?, _, _):
                outputs.started(id: Int64(id.rawValue), uri: item.uri, title: item.title)
            case .itemEnded(let id, _, _, _, _):
                outputs.ended(id: Int64(id.rawValue))
            default:
                break
            }
            server?.publish(.engine(event))
            eventLog.log(.engine(event))
            supervision.observe(event)
            plays.observe(event)
            trimmer.observe(event)
            zonesBox.value?.mainEvent(event)
            alertsBox.value?.engineEvent(event)
            if case .queueChanged = event { networkItems?.queueChanged() }
            guard exitWhenDone, case .statusChanged(let status) = event else { return }
            if status.state == .playing { played.set() }
            if played.isSet && (status.state == .idle || status.state == .stopped) { done.signal() }
        }
        // Queue the command line's files first, so the first one opens while the outputs start up.
        let items = CommandLineItems.expand(options.files, loops: options.itemLoops, logger: logger)
        networkItems?.attach(engine)
        let writer = state.map { $0.makeWriter(engine: engine, policy: options.sync == .always ? .always : .batch) }
        let resumed = state?.resume(with: items, engine: engine, options: options, logger: logger) ?? false
        if !items.isEmpty { try engine.add(items) }
        if let loops = options.loops { try engine.setQueueLoops(loops) }
        if let volume = options.volume { engine.setVolume(volume) }
        if let rate = options.rate { try engine.setRate(rate) }
        if let fit = options.videoFit { engine.setFit(fit) }
        if let rotation = options.videoRotation { engine.setRotation(rotation) }
        if !resumed, !items.isEmpty { try engine.play() }
        try engine.start()
        networkItems?.queueChanged()
        let zones = makeZones(
            main: engine, video: video, config: zoneConfig, stateRoot: state?.directory.path, server: server,
            eventLog: eventLog, zonesBox: zonesBox, plays: plays)
        zonesBox.value = zones
        zones.start(given: givenLayout)
        // Alerts kept in the state directory come back on screen now (those expired meanwhile are dropped).
        let alerts = AlertController(
            engine: engine, path: state.map { $0.directory.path + "/alerts.json" }, logger: Logger(label: "queued.alerts"),
            outputSize: { [geometry = options.parsedGeometry ?? (1280, 720)] in
                let size = (video as? SDLVideoSink)?.outputSize
                return (size?.width ?? geometry.width, size?.height ?? geometry.height)
            },
            // Over every zone, until the alert goes (its chain of interrupts hands the screen on).
            onIssued: { id in zones.takeScreen(forZone: Layout.mainZone, interrupt: id, plays: .max) },
            // The music zone is silent under an alert, whatever it shows.
            onScreen: { standing in zones.duck.silence(standing) }
        ) { items in
            try ItemInputs.mediaItems(try items.enumerated().map { index, json throws(RPCError) in try RPCItemInput(json: json, name: "items[\(index)]") })
        }
        alertsBox.value = alerts
        alerts.start()
        let capFeeds = CAPAlerts.poller(options: options, alerts: alerts, logger: Logger(label: "queued.cap"))
        capFeeds.start()
        let triggers = makeTriggers(
            engine: engine, video: video, socketPath: server?.socketPath, stateDirectory: state?.directory.path, outputs: outputs,
            outputsFile: outputsFile)
        if let server {
            do {
                try server.start(
                    engine: engine,
                    info: {
                        var info = DaemonInfo(
                            version: QueuedVersion.number, socket: server.socketPath, audio: audioName,
                            video: videoName, startedAt: Monotonic.now(), health: { supervision.health() })
                        info.hwdec = .init(
                            setting: options.hwdec, codecs: hwdec.codecs.sorted(), offered: offered)
                        info.displaySchedule = options.displaySchedule
                        info.restart = {
                            restartAsked.set()
                            // The answer is written by the server's event loop after this returns; the shutdown
                            // that closes every connection waits a moment for it.
                            DispatchQueue.global().asyncAfter(deadline: .now() + 0.25) { done.signal() }
                        }
                        return info
                    }(),
                    keeper: writer, plays: plays, zones: zones, alerts: alerts, triggers: triggers, sync: sync)
            } catch {
                alerts.stop()
                engine.shutdown()
                throw error
            }
        }
        // The journal goes on from what was restored; only after damage is a first snapshot written, while
        // the first item already plays and the socket answers (a million entries take ~1 s; a change asked
        // for meanwhile is acknowledged once it is kept).
        if let state, let writer {
            do {
                try state.start(writer)
            } catch {
                server?.shutdown()
                alerts.stop()
                engine.shutdown()
                throw error
            }
        }
        let queue = engine.queue()
        logger.info(
            "queued \(QueuedVersion.number) started: audio \(audioName), video \(videoName), queue loops \(queue.loops), state \(state.map { "in \($0.directory.path) (sync \(options.sync.rawValue))" } ?? "not kept")"
        )
        if let config = QueuedCommand.configPath { logger.info("options from \(config)") }
        triggers.runner.start()
        if queue.isEmpty { logger.info("queue is empty; waiting for clients") }
        supervision.syncBoard = sync.board
        supervision.start(engine: engine, audio: deviceAudio, writer: writer)
        // SIGINT/SIGTERM are blocked in every thread (QueuedCommand.run); this one takes them.
        Threads.start(named: "queued.signals") {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            var received: Int32 = 0
            sigwait(&signals, &received)
            done.signal()
        }
        done.wait()
        let restarting = restartAsked.isSet
        logger.info(restarting ? "restarting (daemon.restart)" : "shutting down")
        supervision.stop(restarting: restarting)
        triggers.runner.stop()
        capFeeds.stop()
        server?.shutdown()
        alerts.stop()
        // Before the engine stops: its shutdown is not a change to keep (the next start resumes).
        writer?.close()
        zones.stopAll()
        plays.flush()
        if let failure = writer?.failure { logger.error("state: changes were not all kept: \(failure)") }
        engine.shutdown()
        webPages.stop()
        return restarting
    }

    /// The trigger rules: `--trigger` (and the config's `trigger` lines) when given, else those kept from
    /// triggers.set; keys of the window go to them. Started once the socket answers (their calls go through it).
    private func makeTriggers(
        engine: PlayerEngine, video: VideoSink?, socketPath: String?, stateDirectory: String?, outputs: OutputRunner,
        outputsFile: String?
    ) -> TriggerControl {
        let file = stateDirectory.map { $0 + "/triggers.json" }
        let lines = options.triggers.isEmpty ? RuleFile.read(file) : options.triggers
        var rules: [TriggerRule] = []
        for line in lines {
            do { rules.append(try TriggerRule(parsing: line)) } catch { logger.error("trigger \(line): \(error); left out") }
        }
        let calls = TriggerCalls(socketPath: socketPath)
        let runner = TriggerRunner(
            rules: rules, logger: Logger(label: "queued.triggers"),
            nowPlaying: { engine.status().currentID.map { Int64($0.rawValue) } }
        ) { method, params in try calls.call(method, params) }
        (video as? SDLVideoSink)?.setKeyListener { name in runner.input(.key(name)) }
        if !rules.isEmpty { logger.info("\(rules.count) trigger rules") }
        return TriggerControl(
            runner: runner, keep: { lines in try RuleFile.write(lines, to: file) }, outputs: outputs,
            keepOutputs: { lines in try RuleFile.write(lines, to: outputsFile) })
    }

    /// A program installed beside this one (the same build or package), else its name for PATH to find.
    static func besideThisProgram(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return name }
        let beside = String(path[..<slash]) + "/" + name
        return access(beside, X_OK) == 0 ? beside : name
    }

    /// The zones beside the main one: each gets the daemon's settings, a clock of its own (silent, or the
    /// music zone's own audio stream, ducked), its rectangle of the window and its own state directory.
    private func makeZones(
        main: PlayerEngine, video: VideoSink?, config: EngineConfig, stateRoot: String?, server: ControlServer?,
        eventLog: EventLog, zonesBox: MadeLater<DaemonZones>, plays: PlayRecording
    ) -> DaemonZones {
        let compositor = video as? SDLVideoSink
        compositor?.setZoneWake { main.wakePresenter() }
        let geometry = options.parsedGeometry ?? (1280, 720)
        let budget =
            options.decodeBudget.map { DecodeBudget(pixelsPerSecond: $0 * 1_000_000) }
            ?? DecodeBudget.software(width: geometry.width, height: geometry.height)
        let options = self.options
        let logger = self.logger
        return DaemonZones(
            main: main, compositor: compositor, budget: budget,
            outputSize: {
                let size = compositor?.outputSize
                return (size?.width ?? geometry.width, size?.height ?? geometry.height)
            },
            stateRoot: stateRoot, logger: Logger(label: "queued.zones")
        ) { zone in
            // The state first: a directory that cannot be taken leaves nothing open behind it.
            let state = try stateRoot.map { try DurableState(path: "\($0)/zones/\(zone.name)", logger: logger) }
            var duck: DuckedAudioSink?
            let audio: AudioSink
            if zone.isMusic {
                let sink: AudioSink =
                    options.untimed
                    ? NullAudioSink(mode: .untimed)
                    : try Outputs.audio(options.audio, server: options.pulseServer, buffer: options.audioBuffer, logger: logger) { change in
                        logger.notice("zone \(zone.name): \(change.output) output \(change.state.rawValue)")
                    }.0
                duck = DuckedAudioSink(sink, depth: zone.duck, rampSeconds: zone.duckRamp)
                audio = duck!
            } else {
                audio = NullAudioSink(mode: options.untimed ? .untimed : .realtime(buffer: 0.2))
            }
            let zoneVideo: VideoSink? =
                zone.isMusic ? nil : compositor?.surface(forZone: zone.name) ?? (options.video == .null ? NullVideoSink() : nil)
            let name = zone.name
            let engine = PlayerEngine(
                config: config, audio: audio, video: zoneVideo, queueLoops: 1, queue: state?.queue,
                logger: Logger(label: "queued.zone.\(name)")
            ) { event in
                server?.publish(.zoned(name, event))
                eventLog.log(.zoned(name, event))
                plays.observe(event, zone: name)
                zonesBox.value?.zoneEvent(name, event)
            }
            let writer = state.map { $0.makeWriter(engine: engine, policy: options.sync == .always ? .always : .batch) }
            if let player = state?.restored.player {
                engine.restore(player, resumeAt: options.resume == .none ? nil : options.resume == .item ? 0 : player.position)
            }
            if !zone.isMusic {
                engine.setFit(VideoFit(rawValue: zone.fit.rawValue) ?? .fit)
                engine.setRotation(VideoRotation(rawValue: zone.rotate) ?? .upright)
            }
            do {
                try engine.start()
            } catch {
                // The writer's thread never started: nothing to close (closing would wait for it forever).
                engine.shutdown()
                throw error
            }
            if let state, let writer {
                do {
                    try state.start(writer)
                } catch {
                    engine.shutdown()
                    throw error
                }
            }
            return ZoneRuntime(engine: engine, writer: writer, state: state, duck: duck)
        }
    }

    /// The main engine's settings for another zone's engine: no window of its own to close, no screen power
    /// (the main zone's), no per-picture trace.
    private static func zoneConfig(_ config: EngineConfig) -> EngineConfig {
        var zone = config
        zone.onWindowClosed = nil
        zone.onFramePresented = nil
        zone.onPlayScheduled = nil
        zone.displaySchedule = DisplaySchedule()
        zone.displayCommands = nil
        zone.scheduleFallback = .black
        return zone
    }

    /// `--layout FILE`: the zones as layout.set takes them ({"zones": [...]} or {"layouts": [...]}); a file
    /// that cannot be read stops the start.
    private static func readLayout(_ path: String) throws -> LayoutPlan {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationFailure("--layout: cannot read \(path)") }
        do {
            return try LayoutFile.plan(from: [UInt8](data))
        } catch {
            throw ValidationFailure("--layout \(path): \(error)")
        }
    }

    private func makeServer() throws -> ControlServer? {
        guard !options.noSocket else { return nil }
        let path: String
        do {
            path = try SocketPath.resolve(explicit: options.socket, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationFailure("\(error) (or run with --no-socket)")
        }
        var config = ControlServerConfig(
            socketPath: path,
            ownsDirectory: options.socket == nil && ProcessInfo.processInfo.environment["QUEUED_SOCKET"] == nil)
        if let groupName = options.socketGroup {
            guard let group = getgrnam(groupName) else { throw ValidationFailure("no group named \(groupName)") }
            config.access = PeerAccess(group: group.pointee.gr_gid)
        }
        return ControlServer(config: config, logger: Logger(label: "queued.control"))
    }

}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Logs events as readable lines; status only when the state changes, progress at the log's own
/// interval. Events arrive one at a time, in order (the engine serialises delivery), so the fields
/// need no lock of their own.
final class EventLog: @unchecked Sendable {
    private let logger: Logger
    private let progressInterval: Double
    private var lastState: PlayerState?
    private var lastDisplay: ScreenPowerStatus?
    private var lastProgress = -Double.infinity

    init(logger: Logger, progressInterval: Double) {
        self.logger = logger
        self.progressInterval = progressInterval
    }

    /// "display off (schedule; on at 2026-11-25T07:00:00Z)" when the screen's power changes.
    private func logDisplay(_ display: ScreenPowerStatus) {
        defer { lastDisplay = display }
        guard let lastDisplay, lastDisplay.on != display.on || lastDisplay.source != display.source else { return }
        let next = display.nextChange.map {
            "; \(display.on ? "off" : "on") at \(Date(timeIntervalSince1970: $0).formatted(.iso8601))"
        }
        logger.notice("display \(display.on ? "on" : "off") (\(display.source.rawValue)\(next ?? ""))")
    }

    func log(_ event: DaemonEvent) {
        switch event {
        case .zoned(let zone, let engineEvent):
            logZone(zone, engineEvent)
        case .engine(.statusChanged(let status)):
            logDisplay(status.display)
            guard status.state != lastState else { return }
            lastState = status.state
            logger.info("status \(status.state.rawValue)\(status.error.map { ": \($0)" } ?? "")")
        case .engine(.progress(let id, let position, let duration, let play, _)):
            guard progressInterval > 0, abs(position - lastProgress) >= progressInterval - 0.01 else { return }
            lastProgress = position
            logger.info(
                "progress item \(id) play \(play): \(position.fixed(1))s / \(duration.map { $0.fixed(1) } ?? "?")s"
            )
        case .engine(.itemStarted(let id, let play, _, _, let interrupt, _, _, _, _)):
            lastProgress = -Double.infinity
            logger.info("started \(interrupt ? "interrupt" : "item") \(id) play \(play)")
        case .engine(.itemEnded(let id, let play, let reason, let error, let interrupt)):
            logger.info(
                "ended \(interrupt ? "interrupt" : "item") \(id) play \(play): \(reason.rawValue)\(error.map { " (\($0))" } ?? "")")
        case .engine(.itemSkipped(let id, let play, let reason)):
            logger.info("skipped item \(id) play \(play): \(reason.rawValue)")
        case .engine(.queueChanged(let version)):
            logger.debug("queue version \(version)")
        case .outputMessage:
            break  // the output runner says what it did
        case .output(let change):
            logger.notice("\(change.output) output \(change.state.rawValue)\(change.message.map { ": \($0)" } ?? "")")
        case .engine(.itemLoading(let id, let play, let status, let error, _)):
            logger.debug("item \(id) play \(play) \(status.rawValue)\(error.map { ": \($0)" } ?? "")")
        case .engine(.itemStalled(let id, let play, let reason, _)):
            logger.warning("item \(id) play \(play): stream stalled: \(reason); reconnecting")
        case .engine(.itemResumed(let id, let play, let after, _)):
            logger.notice("item \(id) play \(play): stream resumed after \(after.fixed(1)) s")
        case .engine(.buffering(let report)):
            logger.notice(
                report.likelyToKeepUp
                    ? "item \(report.id): playing on (buffering over)"
                    : "item \(report.id): buffering (waiting for the download\(report.bufferEmpty ? ", nothing left to play" : ""))"
            )
        case .cache(let id, .complete):
            logger.info("item \(id): cached completely")
        case .cache(let id, .error(let reason, let retryIn)):
            logger.warning(
                "item \(id): download failed: \(reason)\(retryIn.map { "; retrying in \(Int($0)) s" } ?? "")")
        case .cache(_, .progress):
            break
        case .played(let record):
            logger.debug("kept the record of a play (seq \(record["seq"]?.intValue ?? 0))")
        }
    }

    /// Another zone's plays, errors and stalls (its status and progress stay out of the log).
    private func logZone(_ zone: String, _ event: PlayerEvent) {
        switch event {
        case .itemStarted(let id, let play, _, _, let interrupt, _, _, _, _):
            logger.info("zone \(zone): started \(interrupt ? "interrupt" : "item") \(id) play \(play)")
        case .itemEnded(let id, let play, let reason, let error, _):
            logger.info("zone \(zone): ended item \(id) play \(play): \(reason.rawValue)\(error.map { " (\($0))" } ?? "")")
        case .itemStalled(let id, _, let reason, _):
            logger.warning("zone \(zone): item \(id): stream stalled: \(reason); reconnecting")
        default:
            break
        }
    }
}

/// Something made after the main engine whose hooks reach it (the zones, the alert controller): set once, read
/// from any thread (the engine's event thread above all).
final class MadeLater<Value: Sendable>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var made: Value?
    var value: Value? {
        get { lock.withLock { made } }
        set { lock.withLock { made = newValue } }
    }
}

/// A flag set once from any thread: whether playback has begun (--exit-when-done waits for an idle state that
/// follows playing), whether daemon.restart asked for the shutdown.
final class SetOnceFlag: @unchecked Sendable {
    private let lock = ThreadLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
