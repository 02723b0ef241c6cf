// The pa_stream side of PulseAudioSink: opening it, moving samples from the ring to the server, reading
// its clock, and the C callbacks. Everything here runs with the mainloop lock held: on libpulse's
// mainloop thread (callbacks) or on the caller's thread (the public API, which takes the lock).

import CPulse
import Logging
import Playback

extension PulseAudioSink {
    /// Creates the S16 stream and waits until it is READY. Lock held.
    func openStreamLocked(config: PulseConfig, deadline: UInt64) throws {
        let fail = { (reason: String) in PulseError(stage: .stream, server: config.server, reason: reason) }
        guard let context = connection.context else { throw fail("connection closed") }
        var spec = pa_sample_spec(
            format: qd_pa_s16ne(), rate: UInt32(clamping: format.sampleRate), channels: UInt8(clamping: channels))
        guard pa_sample_spec_valid(&spec) != 0 else {
            throw fail("unsupported format \(format.sampleRate) Hz × \(channels) channels")
        }
        guard let stream = pa_stream_new(context, config.streamName, &spec, nil) else {
            throw fail(connection.errorText())
        }
        self.stream = stream
        let mainloop = UnsafeMutableRawPointer(connection.mainloop)
        pa_stream_set_state_callback(stream, PulseConnection.signalMainloop, mainloop)
        let me = Unmanaged.passUnretained(self).toOpaque()  // valid until closeStreamLocked clears the callbacks
        pa_stream_set_write_callback(stream, PulseAudioSink.onWriteRequest, me)
        pa_stream_set_underflow_callback(stream, PulseAudioSink.onUnderflow, me)
        pa_stream_set_latency_update_callback(stream, PulseAudioSink.onTimingUpdate, me)

        let tlength = UInt32(clamping: pa_usec_to_bytes(UInt64(max(0.005, config.targetLatency) * 1e6), &spec))
        let minreq = UInt32(clamping: (Int(tlength) / 4 / frameBytes) * frameBytes)
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: tlength, prebuf: tlength, minreq: minreq, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_ADJUST_LATENCY.rawValue)
        guard pa_stream_connect_playback(stream, nil, &attr, flags, nil, nil) == 0 else {
            throw fail(connection.errorText())
        }
        connection.waitLocked(deadline: deadline) { pa_stream_get_state(stream) != PA_STREAM_CREATING }
        switch pa_stream_get_state(stream) {
        case PA_STREAM_READY: break
        case PA_STREAM_CREATING: throw fail("stream not ready within \(config.connectTimeout) s")
        default: throw fail(connection.errorText())
        }
        let granted = pa_stream_get_buffer_attr(stream).pointee
        logger.info(
            "PulseAudio stream ready",
            metadata: [
                "server": "\(config.server ?? "default")",
                "device": "\(pa_stream_get_device_name(stream).map { String(cString: $0) } ?? "?")",
                "rate": "\(format.sampleRate)", "channels": "\(channels)",
                "tlength": "\(Int(granted.tlength) / frameBytes)", "prebuf": "\(Int(granted.prebuf) / frameBytes)",
                "minreq": "\(Int(granted.minreq) / frameBytes)",
            ])
    }

    /// Disconnects the stream after clearing its callbacks, so libpulse never calls into a dead sink.
    func closeStreamLocked() {
        guard let stream else { return }
        if let check = rewriteCheck {
            pa_operation_cancel(check.operation)
            pa_operation_unref(check.operation)
            rewriteCheck = nil
        }
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_underflow_callback(stream, nil, nil)
        pa_stream_set_latency_update_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
        pa_stream_unref(stream)
        self.stream = nil
    }

    /// The context and the stream are both READY. Lock held.
    var streamReadyLocked: Bool {
        guard let stream, connection.isReadyLocked else { return false }
        return pa_stream_get_state(stream) == PA_STREAM_READY
    }

    /// True while samples can flow; logs the first failure (server gone, stream killed).
    func usableLocked() -> Bool {
        guard !closed else { return false }
        if streamReadyLocked { return true }
        if !failureLogged {
            failureLogged = true
            logger.error(
                "PulseAudio stream failed",
                metadata: [
                    "server": "\(connection.server ?? "default")", "error": "\(connection.errorText())",
                ])
        }
        return false
    }

    /// Moves samples from the ring to the server: as much as it asked for, or everything (`drain`, or a
    /// rewrite, which goes out whole). Only real samples: when the ring runs dry we send nothing and the
    /// underrun is the server's.
    func pumpLocked(everything: Bool = false) {
        guard let stream, !ring.isEmpty, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
        // A pending rewrite's first write seeks back from the server's write index (the end of what it was
        // sent) to the cut; the rewrite is over once that write is made.
        var seekFrames: Int64 = 0
        if let rewrite {
            guard rewriteDueLocked(rewrite, everything: everything) else { return }
            seekFrames = rewrite.start - rewrite.staleEnd
        }
        let writable = everything || seekFrames != 0 ? Int.max : pa_stream_writable_size(stream)
        guard writable > 0 else { return }  // 0: nothing requested; -1 (size_t max): error
        var frames = min(writable / frameBytes, ring.count / channels)
        var moved = false
        while frames > 0 {
            var data: UnsafeMutableRawPointer?
            var bytes = frames * frameBytes
            guard pa_stream_begin_write(stream, &data, &bytes) == 0, let data else { break }
            let chunk = min(bytes / frameBytes, frames)
            guard chunk > 0 else {
                pa_stream_cancel_write(stream)
                break
            }
            let out = data.assumingMemoryBound(to: Int16.self)
            let gain = self.gain
            ring.consume(chunk * channels) { piece, at in
                S16Converter.convert(piece, gain: gain, into: out + at)
            }
            let seek = seekFrames * Int64(frameBytes)
            guard pa_stream_write(stream, data, chunk * frameBytes, nil, seek, PA_SEEK_RELATIVE) == 0 else {
                logger.error("pa_stream_write failed", metadata: ["error": "\(connection.errorText())"])
                break
            }
            if seekFrames != 0 {
                seekFrames = 0
                if let cut = rewrite?.start { checkRewriteLocked(cut: cut) }
                rewrite = nil
            }
            frames -= chunk
            moved = true
        }
        if moved { connection.signalLocked() }  // room in the ring for a blocked write
    }

    /// Whether a pending rewrite goes out now: once the ring holds as much as the server held past the cut
    /// (or as much as the ring holds), so that the server is left as far ahead of its sink as it was (old
    /// samples past the new write index are never played — the server re-enters prebuffering there — but
    /// running out of new ones would be an underrun: silence); sooner when the sink is about to read up to
    /// the cut (judged from where it read at the retract, moving with the listener). Logs a rewrite that
    /// comes after the sink read past the cut: a sink that cannot rewind played old samples there.
    func rewriteDueLocked(_ rewrite: PendingRewrite, everything: Bool) -> Bool {
        let held = Int64(ring.count / channels)
        let enough = everything || held >= min(rewrite.staleEnd - rewrite.start, Int64(ring.capacity / channels))
        let read = playedLocked() + rewrite.readAhead
        let soon = Int64(format.sampleRate / 200)  // 5 ms
        guard enough || read >= rewrite.start - soon else { return false }
        if read > rewrite.start {
            logger.warning(
                "audio splice late: the sink may have read past the cut",
                metadata: ["lateFrames": "\(read - rewrite.start)"])
        }
        return true
    }

    /// Asks the server where its sink reads, right after the rewrite's seek to `cut` went out. Our own guess
    /// (`rewriteDueLocked`) misses a sink that reads in blocks and caught up after a stall (a starved machine):
    /// the server's answer comes after it took the write, so a read index past the cut there means the sink
    /// played old samples where the new ones start, and dropped that many of them.
    func checkRewriteLocked(cut: Int64) {
        guard rewriteCheck == nil, let stream else { return }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        guard let operation = pa_stream_update_timing_info(stream, Self.onRewriteTimed, userdata) else { return }
        rewriteCheck = (cut, operation)
    }

    func rewriteTimedLocked() {
        guard let check = rewriteCheck else { return }
        rewriteCheck = nil
        pa_operation_unref(check.operation)
        guard let stream, let info = pa_stream_get_timing_info(stream)?.pointee, info.read_index_corrupt == 0 else {
            return
        }
        let read = info.read_index / Int64(frameBytes) - timeline.offset
        if read > check.cut {
            stats.lateSplices += 1
            logger.warning(
                "audio splice late: the sink had read past the cut when the new samples arrived",
                metadata: ["lateFrames": "\(read - check.cut)"])
        }
    }

    /// The heard position: the stream's interpolated, latency-corrected clock on our timeline, but never
    /// ahead of what the server's last timing report allows (see ServerClock). Held while paused.
    func playedLocked() -> Int64 {
        guard !paused, !flushing, !flushRequested, !closed, let stream, pa_stream_get_state(stream) == PA_STREAM_READY
        else {
            return timeline.played
        }
        var usec: pa_usec_t = 0
        guard pa_stream_get_time(stream, &usec) == 0, let bound = clock.estimate(at: pa_rtclock_now()),
            let smoothed = OutputTimeline.frames(usec: usec, sampleRate: format.sampleRate)
        else {
            return timeline.played
        }
        // libpulse's smoother is smooth but can race ahead before the server really plays; our estimate
        // is right then but steps a few ms at each timing report. Take the smoother unless it is clearly
        // ahead (> 20 ms), so the clock pictures follow has no steps in steady state.
        let slack = Int64(format.sampleRate / 50)
        return timeline.played(atServerFrame: smoothed <= bound + slack ? smoothed : bound)
    }

    /// A timing report arrived (auto updates, or ours after a flush): re-anchor our clock.
    func timingUpdatedLocked() {
        guard let stream, let info = pa_stream_get_timing_info(stream)?.pointee, info.read_index_corrupt == 0 else {
            return
        }
        clock.update(
            readIndexFrames: info.read_index / Int64(frameBytes), sinkLatencyUsec: info.sink_usec,
            transportUsec: info.transport_usec, playing: info.playing != 0, now: pa_rtclock_now())
    }

    func diagnosticsLocked() -> PulseDiagnostics {
        var result = PulseDiagnostics()
        result.writeRequests = stats.writeRequests
        result.underflows = stats.underflows
        result.ringFrames = ring.count / channels
        result.writtenFrames = timeline.written
        result.playedFrames = playedLocked()
        result.estimatedLatency =
            Double(timeline.written - Int64(result.ringFrames) - result.playedFrames)
            / Double(format.sampleRate)
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return result }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &usec, &negative) == 0 {
            result.latency = Double(usec) / 1e6 * (negative != 0 ? -1 : 1)
        }
        if pa_stream_get_time(stream, &usec) == 0 {
            result.streamTimeFrames = OutputTimeline.frames(usec: usec, sampleRate: format.sampleRate)
        }
        let attr = pa_stream_get_buffer_attr(stream).pointee
        result.tlengthFrames = Int(attr.tlength) / frameBytes
        result.prebufFrames = Int(attr.prebuf) / frameBytes
        result.minreqFrames = Int(attr.minreq) / frameBytes
        result.timelineOffset = timeline.offset
        return result
    }

    // MARK: C callbacks: libpulse's mainloop thread, lock held; userdata is the sink, not retained.

    static let onWriteRequest: pa_stream_request_cb_t = { _, _, userdata in
        guard let userdata else { return }
        Unmanaged<PulseAudioSink>.fromOpaque(userdata)._withUnsafeGuaranteedRef { sink in
            sink.stats.writeRequests += 1
            sink.pumpLocked()
        }
    }

    static let onTimingUpdate: pa_stream_notify_cb_t = { _, userdata in
        guard let userdata else { return }
        Unmanaged<PulseAudioSink>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.timingUpdatedLocked() }
    }

    static let onRewriteTimed: pa_stream_success_cb_t = { _, _, userdata in
        guard let userdata else { return }
        Unmanaged<PulseAudioSink>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.rewriteTimedLocked() }
    }

    static let onUnderflow: pa_stream_notify_cb_t = { _, userdata in
        guard let userdata else { return }
        Unmanaged<PulseAudioSink>.fromOpaque(userdata)._withUnsafeGuaranteedRef { sink in
            sink.stats.underflows += 1
            sink.logger.debug("PulseAudio underflow", metadata: ["played": "\(sink.timeline.played)"])
        }
    }
}

/// Samples the server holds that `retract` took back: timeline frames `start..<staleEnd`, to be replaced by
/// the ring's samples, written from `start` on. `readAhead`: how far ahead of the listener the sink was
/// reading at the retract. Guarded by the mainloop lock.
struct PendingRewrite: Equatable {
    var start: Int64
    var staleEnd: Int64
    var readAhead: Int64 = 0
}

/// Counters kept by the callbacks. Guarded by the mainloop lock.
struct PulseStatistics {
    var writeRequests = 0
    var underflows = 0
    /// Rewrites that arrived after the sink had read past their cut (see `checkRewriteLocked`).
    var lateSplices = 0
}

/// What the stream looks like now. Frames are on the output timeline unless said otherwise.
public struct PulseDiagnostics: Sendable {
    /// pa_stream_get_latency: written to the server but not yet heard, in seconds (libpulse's smoother).
    public var latency: Double?
    /// The same from our positions: frames sent to the server minus `playedFrames`, in seconds.
    public var estimatedLatency = 0.0
    /// The buffer attributes the server granted.
    public var tlengthFrames = 0, prebufFrames = 0, minreqFrames = 0
    /// Write requests (callbacks) and underflows since the stream opened.
    public var writeRequests = 0, underflows = 0
    /// Frames waiting in our ring.
    public var ringFrames = 0
    public var writtenFrames: Int64 = 0, playedFrames: Int64 = 0
    /// pa_stream_get_time in server frames, and the server frame of timeline frame 0.
    public var streamTimeFrames: Int64?
    public var timelineOffset: Int64 = 0
}
