// The PulseAudio output as the daemon uses it: a PulseAudioSink while a server is there; when it goes
// away (killed, restarted, its stream removed) a NullAudioSink takes over the same timeline on the
// monotonic clock, so the picture goes on and positions keep moving while samples are paced and dropped,
// and a reconnect thread tries the server again with backoff (0.1 s doubling to 5 s; a cheap connect(2)
// probe of the server's socket every 0.25 s cuts the wait short once it listens again). On success the new
// stream continues the timeline where it has got to: sound resumes at the position playback has reached.
//
// Threads: the engine's decode thread calls write/flush/drain; any thread the rest; the reconnect thread
// (`queued.pulse-reconnect`) watches and swaps. `lock` guards the fields below and is held only to read or
// swap them, never across a blocking call of a sink (lock order: this lock, then a sink's own lock).

import Dispatch
import FoundationEssentials
import SystemSupport
import Glibc
import Logging
import Playback
import SystemClock

public final class ReconnectingPulseSink: AudioSink, @unchecked Sendable {
    public let format: AudioFormat
    private let config: PulseConfig
    private let logger: Logger
    /// Told when the server is lost and when it is back (the daemon's event and log).
    private let onChange: @Sendable (OutputChange) -> Void
    private let lock = ThreadCondition()
    /// Guarded by `lock`: the sink in use (the PulseAudioSink, or the null one while offline).
    private var current: AudioSink
    /// Guarded by `lock`: our timeline frame = `current`'s frame + `base`.
    private var base: Int64 = 0
    /// Guarded by `lock`: bumped at every swap, so a write that failed on an old sink tries the new one.
    private var epoch = 0
    private var paused = false
    private var volume: Float = 1
    private var muted = false
    private var closed = false
    private var lostAt: Double?
    private var deadSink: PulseAudioSink?
    /// Guarded by `lock`: reconnections that succeeded.
    private var reconnectCount = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Connects now (throws like PulseAudioSink when no server answers) and starts watching the server.
    public init(
        config: PulseConfig, logger: Logger, onChange: @escaping @Sendable (OutputChange) -> Void = { _ in }
    ) throws {
        self.config = config
        self.logger = logger
        self.onChange = onChange
        format = config.format
        current = try PulseAudioSink(config: config, logger: logger)
        Threads.start(named: "queued.pulse-reconnect") { [self] in
            watch()
            finished.signal()
        }
    }

    /// Times the server was found again after being lost.
    public var reconnects: Int { lock.withLock { reconnectCount } }

    /// Whether sound is reaching a server now.
    public var isConnected: Bool { lock.withLock { current is PulseAudioSink } }

    /// The PulseAudio stream's figures (nil while offline).
    public func diagnostics() -> PulseDiagnostics? {
        (lock.withLock { current } as? PulseAudioSink)?.diagnostics()
    }

    // MARK: AudioSink

    public func write(_ samples: [Float]) -> Bool {
        while true {
            let (sink, epoch) = lock.withLock { (current, self.epoch) }
            if sink.write(samples) { return true }
            if !shouldRetry(on: sink, from: epoch) { return false }
        }
    }

    /// After `sink` gave up on a write or drain begun at `epoch`: true to do it again on the sink now in use
    /// (swapped meanwhile, or the server died and the null sink took over); false when a flush or close
    /// asked for the give-up.
    private func shouldRetry(on sink: AudioSink, from epoch: Int) -> Bool {
        lock.withLock {
            if closed { return false }
            if epoch != self.epoch { return true }
            guard let pulse = sink as? PulseAudioSink, pulse.hasFailed else { return false }
            goOfflineLocked(from: pulse)
            return true
        }
    }

    public func writtenFrames() -> Int64 {
        let (sink, base) = lock.withLock { (current, self.base) }
        return sink.writtenFrames() + base
    }

    public func playedFrames() -> Int64 {
        let (sink, base) = lock.withLock { (current, self.base) }
        return sink.playedFrames() + base
    }

    public func setPaused(_ paused: Bool) {
        lock.withLock {
            self.paused = paused
            current.setPaused(paused)  // returns at once on either sink
        }
    }

    public func flush() {
        lock.withLock { current }.flush()
    }

    /// The PulseAudio sink's retract waits for the server; if the sink was swapped meanwhile, the new one
    /// (which continued from the old one's position before the retract) is asked again.
    public func retract(from frame: Int64, lead: Double) -> Int64 {
        while true {
            let (sink, base, epoch) = lock.withLock { (current, self.base, self.epoch) }
            let cut = sink.retract(from: frame - base, lead: lead) + base
            if lock.withLock({ self.epoch == epoch }) { return cut }
        }
    }

    public func cancelWrite() {
        lock.withLock { current.cancelWrite() }  // never waits on either sink
    }

    public func requestFlush() {
        lock.withLock { current.requestFlush() }  // never waits on either sink
    }

    public func setVolume(_ volume: Float, muted: Bool) {
        lock.withLock {
            self.volume = volume
            self.muted = muted
            current.setVolume(volume, muted: muted)
        }
    }

    public func drain() {
        while true {
            let (sink, epoch) = lock.withLock { (current, self.epoch) }
            sink.drain()
            if !shouldRetry(on: sink, from: epoch) { return }
        }
    }

    public func close() {
        let sink = lock.withLock { () -> AudioSink? in
            guard !closed else { return nil }
            closed = true
            lock.broadcast()
            return current
        }
        guard let sink else { return }
        sink.close()
        finished.wait()
        lock.withLock { deadSink }?.close()
    }

    // MARK: Losing and finding the server

    /// The server is gone: a null sink continues the timeline from what was heard, on the monotonic clock.
    private func goOfflineLocked(from pulse: PulseAudioSink) {
        guard current === pulse else { return }
        let heard = pulse.playedFrames() + base
        let written = pulse.writtenFrames() + base
        current = NullAudioSink(
            format: format, mode: .realtime(buffer: 0.1), continuing: written, heard: heard, paused: paused)
        base = 0
        epoch += 1
        deadSink = pulse  // closed by the reconnect thread: closing stops libpulse's thread, which may take a while
        lostAt = Monotonic.now()
        lock.broadcast()
        let lostMs = Double(written - heard) / Double(format.sampleRate) * 1000
        logger.error(
            "PulseAudio server lost; playing on the system clock and reconnecting",
            metadata: ["server": "\(config.server ?? "default")", "dropped_ms": "\(Int(lostMs))"])
        onChange(OutputChange(output: "audio", state: .lost, message: "the PulseAudio server went away"))
    }

    /// The reconnect thread: notices a dead server even while nothing is written, and reconnects.
    private func watch() {
        var backoff = 0.1
        var nextAttempt = 0.0
        while true {
            let (closed, pulse, dead) = lock.withLock { () -> (Bool, PulseAudioSink?, PulseAudioSink?) in
                _ = lock.wait(seconds: 0.25)
                defer { deadSink = nil }
                return (self.closed, current as? PulseAudioSink, deadSink)
            }
            dead?.close()
            if closed { return }
            if let pulse {
                if pulse.hasFailed { lock.withLock { goOfflineLocked(from: pulse) } }
                backoff = 0.1
                nextAttempt = 0
                continue
            }
            let now = Monotonic.now()
            guard now >= nextAttempt || serverSocketAnswers() else { continue }
            var quick = config
            quick.connectTimeout = 2
            do {
                let fresh = try PulseAudioSink(config: quick, logger: logger)
                if !adopt(fresh) {
                    fresh.close()
                    return
                }
                backoff = 0.1
            } catch {
                logger.debug("PulseAudio reconnect failed: \(error); next try in \(backoff) s")
                nextAttempt = Monotonic.now() + backoff
                backoff = min(backoff * 2, 5)
            }
        }
    }

    /// Makes `fresh` the sink: it continues our timeline where playback has got to. False once closed.
    private func adopt(_ fresh: PulseAudioSink) -> Bool {
        let restoredAfter = lock.withLock { () -> Double? in
            guard !closed, let offline = current as? NullAudioSink else { return nil }
            let heard = offline.playedFrames()
            let written = offline.writtenFrames()
            offline.close()  // a write blocked in it returns false and retries on `fresh`
            fresh.setVolume(volume, muted: muted)
            fresh.setPaused(paused)
            // Frames accepted but not yet heard by the null sink become silence on the new stream, so that
            // the next frame written is heard at its own timeline position (at most the null sink's 0.1 s).
            if written > heard {
                _ = fresh.write([Float](repeating: 0, count: Int(written - heard) * format.channels))
            }
            current = fresh
            base = heard
            epoch += 1
            reconnectCount += 1
            defer { lostAt = nil }
            return lostAt.map { Monotonic.now() - $0 } ?? 0
        }
        guard let restoredAfter else { return false }
        logger.notice(
            "PulseAudio server back; sound resumes",
            metadata: [
                "server": "\(config.server ?? "default")", "offline_s": "\(restoredAfter.fixed(1))",
            ])
        onChange(
            OutputChange(
                output: "audio", state: .restored, message: "away for \(restoredAfter.fixed(1)) s"))
        return true
    }

    /// Whether the server's Unix socket accepts a connection now (a cheap probe before a full connect);
    /// false when the server is not a local socket we can name.
    private func serverSocketAnswers() -> Bool {
        guard let path = Self.socketPath(server: config.server) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Bool in
            guard path.utf8.count < raw.count else { return false }
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            return true
        }
        guard fits else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// The socket libpulse would use: "unix:PATH", a bare absolute path, or (no server given) $PULSE_SERVER,
    /// then $XDG_RUNTIME_DIR/pulse/native.
    static func socketPath(
        server: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> String?
    {
        guard let server = server ?? environment["PULSE_SERVER"] else {
            return environment["XDG_RUNTIME_DIR"].map { $0 + "/pulse/native" }
        }
        if server.hasPrefix("unix:") { return String(server.dropFirst(5)) }
        if server.hasPrefix("/") { return server }
        return nil
    }
}
