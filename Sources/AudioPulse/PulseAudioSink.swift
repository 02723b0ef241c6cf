// The PulseAudio output: one long-lived S16 playback stream for the whole queue (gapless: never reopened).
// Threads: the engine's decode thread calls `write` (blocks while our ring is full) and `drain`; libpulse's
// mainloop thread runs every callback (the write request moves samples from the ring to the server,
// converting to S16 with the volume as gain); any thread reads positions, pauses, flushes or sets volume.
// One lock guards everything here: libpulse's threaded-mainloop lock. This sink never writes silence.

import CPulse
import Logging
import Playback

public final class PulseAudioSink: AudioSink, @unchecked Sendable {
    public let format: AudioFormat
    let connection: PulseConnection
    let logger: Logger
    let channels: Int
    /// Bytes per S16 frame on the stream.
    let frameBytes: Int

    /// The pa_stream; nil once closed. Guarded by the mainloop lock, like every var below.
    var stream: OpaquePointer?
    /// Float samples accepted by `write`, not yet sent to the server.
    var ring: SampleRing
    /// Set by `retract` when it took back samples the server holds: the ring's samples go to the server at
    /// that cut, overwriting what it had there.
    var rewrite: PendingRewrite?
    /// A rewrite's seek went out at this timeline frame; the timing report asked right after it says whether
    /// the sink had already read past it (the operation is cancelled with the stream).
    var rewriteCheck: (cut: Int64, operation: OpaquePointer)?
    var timeline = OutputTimeline()
    /// The server's position from its timing reports; bounds pa_stream_get_time.
    var clock: ServerClock
    /// 1 at full volume (bit-exact), 0 when muted.
    var gain: Float = 1
    var paused = false
    var closed = false
    /// Flushes waiting for the server (two threads may flush at once); writes wait for them to finish.
    var flushesInProgress = 0
    /// A `requestFlush` not yet completed by `flush`: the heard position stays where the listener was.
    var flushRequested = false
    var flushing: Bool { flushesInProgress > 0 }
    /// Bumped by `flush`, `requestFlush`, `cancelWrite` and `close`: a `write` or `drain` begun under an older
    /// value gives up.
    var generation: UInt64 = 0
    var failureLogged = false
    var stats = PulseStatistics()

    /// Connects (context then stream, both READY within `config.connectTimeout`) or throws `PulseError`.
    public init(config: PulseConfig, logger: Logger) throws {
        precondition(config.format.channels > 0 && config.format.sampleRate > 0, "invalid audio format")
        format = config.format
        channels = config.format.channels
        frameBytes = 2 * config.format.channels
        self.logger = logger
        clock = ServerClock(sampleRate: config.format.sampleRate)
        let deadline = PulseConnection.deadline(after: config.connectTimeout)
        connection = try PulseConnection(
            server: config.server, applicationName: config.applicationName, timeout: config.connectTimeout)
        let ringFrames = max(1, Int(config.bufferSeconds * Double(format.sampleRate)))
        ring = SampleRing(capacity: ringFrames * channels)
        // If this throws, deinit closes whatever was opened.
        try connection.withLock { try openStreamLocked(config: config, deadline: deadline) }
    }

    deinit {
        close()
    }

    /// Whether a PulseAudio server answers at `server` (nil: libpulse's default) within `timeout` seconds.
    public static func isServerReachable(_ server: String?, timeout: Double = 1) -> Bool {
        (try? PulseConnection(server: server, applicationName: "queued probe", timeout: timeout)) != nil
    }

    // MARK: Decode thread

    public func write(_ samples: [Float]) -> Bool {
        precondition(samples.count % channels == 0, "write takes whole frames")
        return connection.withLock {
            connection.waitLocked { !flushing }
            let generation = self.generation
            var next = 0
            while true {
                guard generation == self.generation, usableLocked() else { return false }
                if next == samples.count { return true }
                let n = min(ring.free, samples.count - next)
                if n == 0 {
                    let room = connection.waitLocked(deadline: PulseConnection.deadline(after: 0.05)) {
                        ring.free > 0 || generation != self.generation || !usableLocked()
                    }
                    if !room && !paused && serverHoldsNothingLocked() {
                        // After a drain the server can sit on an empty buffer without asking for more
                        // (its request accounting still owes the drain's overshoot): push on our own.
                        pumpLocked(everything: true)
                    }
                    continue
                }
                ring.append(samples, next..<next + n)
                timeline.accept(frames: Int64(n / channels))
                next += n
                pumpLocked()
            }
        }
    }

    /// Whether everything sent to the server has been played (the server's buffer ran dry).
    private func serverHoldsNothingLocked() -> Bool {
        timeline.written - Int64(ring.count / channels) <= playedLocked()
    }

    public func drain() {
        connection.withLock {
            let generation = self.generation
            guard !flushing, usableLocked(), let stream else { return }
            // Everything we hold goes to the server now, beyond what it asked for: the end is near.
            pumpLocked(everything: true)
            if let rewrite, ring.isEmpty {
                // Nothing came to replace what was taken back: the server plays it after all.
                logger.warning("audio splice with nothing after it: the old samples play on")
                timeline.accept(frames: rewrite.staleEnd - rewrite.start)
                self.rewrite = nil
            }
            let target = timeline.written
            let outcome = connection.runOperationLocked(
                deadline: nil, abort: { generation != self.generation || !usableLocked() }
            ) { callback, userdata in
                pa_stream_drain(stream, callback, userdata)
            }
            if outcome == .succeeded && generation == self.generation {
                timeline.drained(through: target)
            }
        }
    }

    // MARK: Any thread

    public func writtenFrames() -> Int64 {
        connection.withLock { timeline.written }
    }

    public func playedFrames() -> Int64 {
        connection.withLock { playedLocked() }
    }

    /// Corks or uncorks without waiting for the server's answer (the engine calls this under its lock):
    /// the request is on its way when this returns, and the position holds from now on.
    public func setPaused(_ paused: Bool) {
        connection.withLock {
            guard !closed, paused != self.paused else { return }
            if paused { _ = playedLocked() }  // the position stays where the listener was
            self.paused = paused
            guard usableLocked(), let stream else { return }
            if let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) {
                pa_operation_unref(operation)
            } else {
                logger.warning(
                    "PulseAudio cork failed", metadata: ["paused": "\(paused)", "error": "\(connection.errorText())"])
            }
        }
    }

    /// The first half of `flush`, for any thread and without waiting for the server: drops what we hold,
    /// makes a blocked `write` or `drain` give up, holds the heard position where the listener is, and asks
    /// the server to drop its buffer. The decode thread's next `flush` completes it (waits for the server
    /// and re-bases positions) before anything new is written.
    public func requestFlush() {
        connection.withLock {
            guard !closed else { return }
            _ = playedLocked()
            generation &+= 1
            ring.removeAll()
            rewrite = nil
            timeline.flushed()
            flushRequested = true
            connection.signalLocked()
            guard usableLocked(), let stream, let operation = pa_stream_flush(stream, nil, nil) else { return }
            pa_operation_unref(operation)
        }
    }

    public func flush() {
        connection.withLock {
            guard !closed else { return }
            _ = playedLocked()  // the heard position, now: the timeline continues from here
            generation &+= 1
            flushesInProgress += 1
            ring.removeAll()
            rewrite = nil
            timeline.flushed()
            connection.signalLocked()  // a blocked write or drain gives up
            defer {
                flushesInProgress -= 1
                if flushesInProgress == 0 { flushRequested = false }
                connection.signalLocked()
            }
            // Each wait releases the lock, and `close` may run meanwhile: look at `stream` again after it.
            let deadline = PulseConnection.deadline(after: 2)
            guard usableLocked(), let stream else { return }
            let flushed = connection.runOperationLocked(deadline: deadline) { callback, userdata in
                pa_stream_flush(stream, callback, userdata)
            }
            // The server reset its write index to its read index; ask where that is.
            guard flushed == .succeeded, usableLocked(), let stream = self.stream else {
                if !closed { logger.warning("PulseAudio flush failed", metadata: ["outcome": "\(flushed)"]) }
                return
            }
            let updated = connection.runOperationLocked(deadline: deadline) { callback, userdata in
                pa_stream_update_timing_info(stream, callback, userdata)
            }
            guard updated == .succeeded, usableLocked(), let stream = self.stream,
                let info = pa_stream_get_timing_info(stream), info.pointee.write_index_corrupt == 0
            else {
                if !closed {
                    logger.warning(
                        "PulseAudio timing update after flush failed; positions may be off",
                        metadata: ["outcome": "\(updated)"])
                }
                return
            }
            timeline.rebase(serverWriteFrame: info.pointee.write_index / Int64(frameBytes))
        }
    }

    /// Takes back the samples from timeline frame `frame` on, those the server holds included, but never
    /// those within `lead` of the heard position (an interrupt's splice, heard within milliseconds of the
    /// request), nor what the sink has already read from the stream (a sink that cannot rewind plays it).
    /// The ring's part is simply dropped; the server's part is overwritten by the next samples, whose first
    /// write seeks back to the cut: the server plays them in place of what it had (PulseAudio's "rewrite",
    /// protocol-native's handle_seek; `rewriteDueLocked` says when they go). No flush, so no re-buffering.
    /// Waits for one timing report from the server (a round trip).
    public func retract(from frame: Int64, lead: Double) -> Int64 {
        connection.withLock {
            // A fresh report of how far the sink has read into the stream (waits one round trip). Paused, it
            // reads nothing.
            var reported = paused
            if usableLocked(), !paused, !flushing, !flushRequested, let stream {
                reported =
                    connection.runOperationLocked(deadline: PulseConnection.deadline(after: 0.05)) {
                        callback, userdata in pa_stream_update_timing_info(stream, callback, userdata)
                    } == .succeeded
            }
            let held = Int64(ring.count / channels)
            let sent = rewrite?.start ?? timeline.written - held
            var earliest = sent  // without a report, only what was not sent can go
            var readAhead: Int64 = 0
            if reported && usableLocked() && !flushing && !flushRequested {
                let heard = playedLocked()
                earliest = heard + Int64((lead * Double(format.sampleRate)).rounded(.up))
                // What the sink has read it may have mixed already, and a sink that cannot rewind (PulseAudio's
                // null sink with norewinds, for one) plays it anyway: the cut goes after it.
                if !paused, let stream, let info = pa_stream_get_timing_info(stream)?.pointee,
                    info.read_index_corrupt == 0
                {
                    let read = info.read_index / Int64(frameBytes) - timeline.offset
                    readAhead = max(0, read - heard)
                    earliest = max(earliest, read + Int64(format.sampleRate / 200))  // 5 ms to get there
                }
            }
            let cut = min(timeline.written, max(frame, earliest, timeline.played))
            if cut < sent {
                // Rewritten from `cut`: the server's old samples from there on are replaced.
                rewrite = PendingRewrite(start: cut, staleEnd: rewrite?.staleEnd ?? sent, readAhead: readAhead)
                ring.removeAll()
            } else {
                ring.removeNewest(Int(timeline.written - cut) * channels)
            }
            timeline.retract(frames: timeline.written - cut)
            return timeline.written
        }
    }

    public func cancelWrite() {
        connection.withLock {
            generation &+= 1
            connection.signalLocked()
        }
    }

    public func setVolume(_ volume: Float, muted: Bool) {
        connection.withLock {
            gain = muted || volume.isNaN ? 0 : min(max(volume, 0), 1)
        }
    }

    public func close() {
        connection.withLock {
            guard !closed else { return }
            closed = true
            generation &+= 1
            ring.removeAll()
            rewrite = nil
            closeStreamLocked()
            connection.signalLocked()
        }
        connection.close()
    }

    /// Whether the server or the stream went away (killed, restarted, stream removed): nothing will flow
    /// again on this sink. False once closed on purpose.
    public var hasFailed: Bool {
        connection.withLock { !closed && !streamReadyLocked }
    }

    /// A snapshot of the stream's buffering and timing, for logs and tests.
    public func diagnostics() -> PulseDiagnostics {
        connection.withLock { diagnosticsLocked() }
    }
}
