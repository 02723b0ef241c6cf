// The player: owns the queue and the two playback threads (decode → audio sink and picture queue;
// presenter → video sink and events). Public methods may be called from any thread; each is one decision
// of EngineState under EngineCore's lock, whose actions EngineCore carries out; none waits for a device.

import CacheControl
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Media
import QueueModel

public struct EngineConfig: Sendable {
    /// Where A/V items end by default when their tracks differ (per item `trackEnd` overrides).
    public var trackEnd = TrackEnd.auto
    /// How long a still image is shown when its item gives no duration.
    public var stillDuration = 10.0
    /// Progress events every this many seconds of play (0 = none).
    public var progressInterval = 1.0
    /// Run as fast as possible: pictures shown as soon as decoded (use with an untimed audio sink).
    public var untimed = false
    /// Decoded pictures queued ahead of the clock, at most.
    public var frameQueueCapacity = 6
    /// ...and no more than fit in these bytes (never fewer than 2): 6 pictures of 720p, 3 of 1080p, 2 of
    /// 4K. Each 1080p picture is 3 MB, and three more of them were most of what queued held beyond mpv
    /// playing 1080p; 3 pictures are still 100 ms ahead at 30 fps, where the decode lead is 100 ms.
    public var pictureQueueBytes = 10 << 20
    /// Pictures are decoded this many seconds ahead of the audio written.
    public var videoLead = 0.1
    /// An interrupt starts this many seconds after the heard position (once it is open; and never before
    /// what the audio sink has read): the time its first samples need to reach the audio server, which
    /// plays them in place of what it held from there. 8 ms was too short (the interrupt's first
    /// milliseconds were lost), 15 ms held under load. With pictures, `videoLead` more (they are decoded
    /// before its first samples).
    public var spliceLead = 0.015
    /// Called after each picture is shown (tests and probes). Presenter thread.
    public var onFramePresented: (@Sendable (PresentedFrame) -> Void)?
    /// Called once when the user closes the video window. Presenter thread.
    public var onWindowClosed: (@Sendable () -> Void)?
    /// Decode thread, unlocked: a play was opened and will be heard from monotonic time `heardAt`, with
    /// sound or without (the music zone ducks under plays with sound).
    public var onPlayScheduled: (@Sendable (_ sound: Bool, _ heardAt: Double) -> Void)?
    /// Longest wait for a source's bytes (a FIFO with no writer, or one that stopped writing): the item
    /// then fails "stalled: …".
    public var sourceTimeout = 5.0
    /// Opens the items whose URI is not a local file (http(s): the daemon's network cache); nil: such
    /// items fail with "no network source".
    public var networkSources: (any ByteSourceProvider)?
    /// Renders web items (`type: web`, local .html files); nil: such items fail "web pages are not enabled".
    public var webPages: (any WebPageOpening)?
    /// The URL a stream item's URI opens: a restored item's URL was kept without its credentials, which the
    /// daemon's vault gives back (nil: the URI as it is). Decode threads.
    public var resolveStreamURL: (@Sendable (String) -> String)?
    /// The box's local time, which items' schedules are read in (tests inject one).
    public var localClock = LocalClock.system
    /// Hardware video decoding (`--hwdec`): the daemon's devices and what failed; nil: software.
    public var hwdec: HWDecodeRegistry?
    /// What the screen shows while every item is outside its schedule.
    public var scheduleFallback = ScheduleFallback.black
    /// The transition into items that have none of their own (`--transition`; nil: a cut).
    public var defaultTransition: ItemTransition?
    /// When the screen is on (`--display-schedule`; empty: always).
    public var displaySchedule = DisplaySchedule()
    /// The operator's commands that put the screen to sleep and wake it (nil: the video output's own way).
    public var displayCommands: ScreenPowerCommands?
    /// Runs those commands (tests record them instead).
    public var displayCommandRunner: @Sendable ([String], Double) -> ChildCommand.Outcome = { words, timeout in
        ChildCommand.run(words, timeout: timeout)
    }
    public init() {}
}

public final class PlayerEngine: @unchecked Sendable {
    let core: EngineCore
    let audio: AudioSink
    let video: VideoSink?
    let config: EngineConfig
    /// The live decode loop; replaced when it stalls. Guarded by `decodeLock`.
    private var decodeLoop: DecodeLoop?
    private let decodeLock = ThreadLock()
    /// Counts the live decode thread and the presenter: `shutdown` waits for them (not for abandoned ones).
    private let finished = DispatchGroup()

    public init(
        config: EngineConfig, audio: AudioSink, video: VideoSink?, queueLoops: Int = 1, queue: PlayQueue? = nil,
        logger: Logger, onEvent: @escaping @Sendable (PlayerEvent) -> Void
    ) {
        self.config = config
        self.audio = audio
        self.video = video
        let state = EngineState(
            queue: queue ?? PlayQueue(loops: queueLoops), sampleRate: audio.format.sampleRate, untimed: config.untimed,
            progressInterval: config.progressInterval, localClock: config.localClock,
            displaySchedule: config.displaySchedule, defaultTransition: config.defaultTransition,
            scheduleFallback: config.scheduleFallback)
        core = EngineCore(state: state, audio: audio, logger: logger, observer: onEvent)
        if let commands = config.displayCommands {
            core.screenTeller = ScreenTeller(
                commands: commands, runner: config.displayCommandRunner, logger: logger
            ) { [weak core] on, outcome in
                core?.locked { $0.screenPowerTold(on: on, outcome: outcome) }
            }
        }
    }

    /// Starts the decode and presenter threads. The video sink is opened on the presenter thread; an
    /// error opening it is thrown here.
    public func start() throws {
        let opened = OpenResult()
        let presenter = Presenter(engine: self)
        core.screenTeller?.start()
        finished.enter()
        // Both at once: the first item is opened and decoded while the window is being created.
        Threads.start(named: "queued.present") { [finished] in
            presenter.run(opened: opened)
            finished.leave()
        }
        startDecodeThread(generation: core.locked { $0.decoderGeneration })
        if let error = opened.wait() {
            shutdown()
            throw error
        }
    }

    private func startDecodeThread(generation: Int) {
        let decode = DecodeLoop(engine: self, generation: generation)
        finished.enter()
        decodeLock.withLock { decodeLoop = decode }
        Threads.start(named: "queued.decode", stackSize: 4 << 20) { [finished] in
            decode.run()
            decode.release(from: finished)
        }
    }

    /// Playback made no progress for a while (the owner's stall detector decides): the current play ends
    /// with reason `error` and `message`, the next one starts on a new decode thread, and the stuck thread
    /// is left to leave by itself whenever what holds it returns. False when nothing is playing. A play that
    /// was decoding on a device blames the device (a driver stuck in the kernel, as v4l2m2m can be): its
    /// method is not tried again for that codec while the daemon runs.
    @discardableResult
    public func recoverFromStall(_ message: String) -> Bool {
        var stalledDecoder: VideoDecoding?
        guard
            let generation = core.locked({ shared -> Int? in
                stalledDecoder = shared.status.decoder
                return shared.abandonStalledPlay(message: message) ? shared.decoderGeneration : nil
            })
        else { return false }
        core.logger.error("\(message); playback goes on with a new decode thread")
        if let stalledDecoder, let method = stalledDecoder.hwdec, let registry = config.hwdec {
            registry.failed(method, codec: stalledDecoder.codec, reason: "\(method.rawValue): \(message)")
            core.logger.info("\(stalledDecoder.codec) is decoded in software from now on: \(method.rawValue) stalled")
        }
        if let stalled = decodeLock.withLock({ decodeLoop }) { stalled.release(from: finished) }
        startDecodeThread(generation: generation)
        return true
    }

    /// Stops playback and both threads, closes the sinks. Blocks until the threads are gone.
    public func shutdown() {
        core.locked { shared in
            shared.shuttingDown = true
            shared.wakeWaiters = true
        }
        audio.close()
        core.screenTeller?.stop()
        finished.wait()
    }

    /// Wakes the engine's waiting threads, so that the presenter pumps its video output now (another
    /// zone posted a picture for the window this engine's presenter draws). Any thread.
    public func wakePresenter() {
        core.locked { $0.wakeWaiters = true }
    }

    // MARK: Reading state

    /// The status as a command leaves it: the play it produced is current at once (see EngineState).
    public func status() -> PlayerStatus {
        core.locked { $0.status(heard: audio.playedFrames()) }
    }

    public func queue() -> PlayQueue { core.locked { $0.queue } }

    // MARK: Durable state

    /// From now on the queue's changes and the player's state go to `recorder` (call before `start`).
    public func record(to recorder: StateRecorder) {
        core.startRecording(to: recorder)
    }

    /// Puts the player back where `player` left it (call before `start`): at `position` in its current
    /// item (nil: the item is kept for `play`, nothing starts), paused or playing; settings too.
    public func restore(_ player: PlayerSnapshot, resumeAt position: Double?) {
        core.locked { $0.restore(player, resumeAt: position) }
    }

    /// Hands the player's place to the recorder if it moved since it was last recorded (the once-a-second
    /// position save, and the last one at shutdown).
    public func recordPlaceNow() { core.recordPlaceNow() }

    /// Runs `body` with the queue and the player as they are, under the engine lock, so that nothing can
    /// change between them and whatever `body` notes (it must only copy and note, never wait).
    public func withConsistentState<R>(_ body: (PlayQueue.Snapshot, PlayerSnapshot) -> R) -> R {
        core.locked { state in body(state.queue.snapshot, state.playerSnapshot(heard: audio.playedFrames())) }
    }

    /// The network cache behind http(s) items, when there is one.
    public var networkCache: (any NetworkCacheControl)? { config.networkSources as? any NetworkCacheControl }

    /// The local clock items' schedules are read in.
    public var localClock: LocalClock { config.localClock }
    /// Hardware video decoding's devices and setting (nil: software only).
    public var hwdec: HWDecodeRegistry? { config.hwdec }

    /// Pictures dropped because they were late.
    public func droppedFrames() -> Int { core.locked { $0.status.droppedFrames } }
}

/// The picture shown while playback waits for an item's schedule to open.
public enum ScheduleFallback: Sendable {
    case black
    /// The last picture shown stays up.
    case lastPicture
    /// A still (decoded once, when the daemon starts).
    case still(VideoFrame)
}

/// The presenter thread's answer to "did the video output open?".
final class OpenResult: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var error: Error?

    func succeed() { semaphore.signal() }
    func fail(_ error: Error) {
        self.error = error
        semaphore.signal()
    }
    func wait() -> Error? {
        semaphore.wait()
        return error
    }
}
