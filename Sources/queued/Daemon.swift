// Wires outputs, engine and signals together and logs what happens. Runs on the main thread, which only
// waits: playback lives on the engine's threads.
import Foundation
import Logging
import Playback
import QueueModel

struct Daemon {
    let options: QueuedCommand
    let logger: Logger

    func run() throws {
        let (audio, audioName) = options.untimed
            ? (NullAudioSink(mode: .untimed), "untimed")
            : try Outputs.audio(options.audio, server: options.pulseServer, logger: logger)
        let (video, videoName) = Outputs.video(options, logger: logger)
        var config = EngineConfig()
        config.shortestTrack = options.shortestTrack
        config.stillDuration = options.stillDuration
        config.progressInterval = options.progressInterval
        config.untimed = options.untimed
        let done = DispatchSemaphore(value: 0)
        let eventLog = EventLog(logger: Logger(label: "queued.events"))
        let exitWhenDone = options.exitWhenDone
        let played = PlayedFlag()
        let engine = PlayerEngine(config: config, audio: audio, video: video, queueLoops: options.loops, logger: logger) {
            event in
            eventLog.log(event)
            guard exitWhenDone, case .statusChanged(let status) = event else { return }
            if status.state == .playing { played.set() }
            if played.isSet && (status.state == .idle || status.state == .stopped) { done.signal() }
        }
        try engine.start()
        logger.info("queued started: audio \(audioName), video \(videoName), queue loops \(options.loops)")
        let items = options.files.map { file -> MediaItem in
            let path = file.hasPrefix("/") || file.hasPrefix("file://")
                ? file : FileManager.default.currentDirectoryPath + "/" + file
            return MediaItem(uri: path, loops: options.itemLoops)
        }
        if !items.isEmpty {
            try engine.add(items)
            engine.setVolume(options.volume)
            try engine.setRate(options.rate)
            try engine.play()
        } else {
            logger.info("queue is empty; waiting")
        }
        let signals = [SIGINT, SIGTERM].map { signalNumber -> DispatchSourceSignal in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            return source
        }
        done.wait()
        logger.info("shutting down")
        engine.shutdown()
        _ = signals
    }
}

/// Logs events as readable lines; status only when the state changes. Events arrive one at a time, in
/// order (the engine serialises delivery), so `lastState` needs no lock of its own.
final class EventLog: @unchecked Sendable {
    private let logger: Logger
    private var lastState: PlayerState?

    init(logger: Logger) { self.logger = logger }

    func log(_ event: PlayerEvent) {
        switch event {
        case .statusChanged(let status):
            guard status.state != lastState else { return }
            lastState = status.state
            logger.info("status \(status.state.rawValue)\(status.error.map { ": \($0)" } ?? "")")
        case .progress(let id, let position, let duration, let play):
            logger.info("progress item \(id) play \(play): \(String(format: "%.1f", position))s / \(duration.map { String(format: "%.1f", $0) } ?? "?")s")
        case .itemStarted(let id, let play, _, _):
            logger.info("started item \(id) play \(play)")
        case .itemEnded(let id, let play, let reason, let error):
            logger.info("ended item \(id) play \(play): \(reason.rawValue)\(error.map { " (\($0))" } ?? "")")
        case .queueChanged(let version):
            logger.debug("queue version \(version)")
        }
    }
}

/// Whether playback has begun: --exit-when-done waits for an idle state that follows playing.
final class PlayedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
