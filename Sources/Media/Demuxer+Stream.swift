// Reading a stream: every read is bounded by a deadline, and a drop is not the end of the item. When the
// stream stops (an error, no data for `readTimeout`, or a live stream's end while the item still has
// time), the reader says so (`StreamNews.stalled`) and reconnects with backoff — 0.5 s doubling to 10 s —
// while the item's time lasts: its `duration` less what it played and what it was down, or, without a
// duration, `reconnectWindow` per drop. Meanwhile the decode thread writes nothing, so the outputs hold the
// last picture with silence (never a repeated buffer) and the engine shows `buffering`. A new connection's
// timestamps are moved to go on where the last packet ended, so the item's timeline runs on unbroken; the
// reader then restarts its decoders (MediaReader.demux, on `takeReconnected`). The drop ends with the first
// packet the play has not had (`StreamNews.resumed`): a reopened live HLS or DASH playlist that stopped
// updating gives its last segments again, and those are passed over, not played twice.
//
// Reading and reconnecting run on the stream's reader thread (StreamPump), which owns LiveStream and its
// contexts; the decode thread takes the packets (`takeStreamPacket`). The backoff wait sleeps in slices,
// polling cancellation (a cut, or the pump's stop).

import CFFmpeg
import MediaPaths
import Glibc
import SystemClock

extension Demuxer {
    /// Decode thread: the stream's next packet from its reader thread (started by the first call), or nil
    /// when the item's stream is over; throws what ended the reading (a cut, a fused playlist).
    func takeStreamPacket(_ live: LiveStream) throws(MediaError) -> Packet? {
        guard let pump, !live.closed else { return nil }
        startPump(preroll: nil)
        guard let delivery = try pump.next() else { return nil }
        if let start = pump.takeTrimmedStart() { trimmedStart = start }
        if delivery.restarted { restartTaken = true }
        notePacketEnd(delivery.packet.pointer.pointee)
        return delivery.packet
    }

    /// Starts the stream's reader thread unless it runs: a stream prepared ahead (`preroll`: keep that many
    /// seconds, cut at a keyframe of that stream, until the play takes its first packet), or the play's
    /// first packet asked for. The thread that opened the stream, or the decode thread after it.
    func startPump(preroll: (seconds: Double, keyStream: Int?)?) {
        guard let pump, !pumpStarted else { return }
        pumpStarted = true
        let reader = StreamReaderHandle(demuxer: self)
        pump.start(
            read: { () throws(MediaError) -> Packet? in try reader.demuxer.readStreamPacket() },
            takeRestarted: { reader.demuxer.live?.takeReconnected() ?? false },
            end: { packet in reader.demuxer.span(of: packet.pointer.pointee).map { ($0.start, $0.end) } },
            preroll: preroll)
    }

    /// Reader thread: the next packet of a stream, its timestamps on the first connection's timeline; nil
    /// when the item's stream is over (its end, or a drop that outlasted the time it had). Throws when
    /// cancelled, and when a playlist's requests blew the fuse.
    func readStreamPacket() throws(MediaError) -> Packet? {
        guard let live, !live.closed else { return nil }
        while true {
            let packet = try Packet()
            let context = live.connection.context
            live.connection.interrupt.arm(live.playback.readTimeout)
            let result = av_read_frame(context, packet.pointer)
            live.connection.interrupt.endWait()
            if result >= 0 {
                let index = Int(packet.pointer.pointee.stream_index)
                guard index < Int(context.pointee.nb_streams) else { continue }
                let timeBase = context.pointee.streams[index]!.pointee.time_base
                if live.isRepeat(packet.pointer.pointee, timeBase: timeBase) { continue }
                if live.outage != nil { endOutage(live) }
                let original = packet.pointer.pointee.dts != AVCodes.noPTS ? packet.pointer.pointee.dts : packet.pointer.pointee.pts
                if index < live.lastOriginal.count, original != AVCodes.noPTS {
                    live.lastOriginal[index] = Double(original) * av_q2d(timeBase)
                }
                rebase(packet, live)
                if let span = span(of: packet.pointer.pointee) { live.noteReceived(until: span.end) }
                noteFigures(live, bytes: Int(packet.pointer.pointee.size))
                return packet
            }
            let interrupt = live.connection.interrupt
            if interrupt.why == .cancelled || interrupt.cancelledNow() {
                throw MediaError(code: result, operation: "read", path: path, message: "interrupted")
            }
            let ended = result == AVCodes.eof && interrupt.why == nil
            // An on-demand stream's end is the item's; a live one without a duration ends when its server ends it.
            if ended && (!live.isLive || live.playback.duration == nil) {
                if live.outage != nil {
                    // Reopened and ended with nothing new: the drop's wait is over with the item.
                    live.outage = nil
                    live.limits.onWaiting?(false)
                }
                return nil
            }
            if interrupt.fused {
                // A looping playlist is not a drop: reconnecting would loop again. The item fails.
                throw StreamConnection.error(
                    result, interrupt: interrupt, operation: "read", budget: live.playback.readTimeout,
                    url: live.playback.url)
            }
            let reason: String
            if ended {
                reason = "the stream ended"
            } else if interrupt.why == .deadline {
                reason = "no data for \(StreamConnection.formatted(live.playback.readTimeout)) s"
            } else {
                reason = MediaError.text(for: result)
            }
            if live.playback.endsAtFirstDrop {
                live.limits.onStreamNews?(.stalled(reason: reason + "; the item ends (onStall: skip)"))
                return nil
            }
            if live.outage == nil {
                // A new drop (a reopened connection that fails again is the same one, still under way).
                live.outage = (Monotonic.now(), StreamPlayback.firstBackoff)
                // The wait first, then the news: a client told of the stall finds the status `buffering`.
                live.limits.onWaiting?(true)
                live.limits.onStreamNews?(.stalled(reason: reason))
            }
            guard try reconnect(live) else { return nil }
        }
    }

    /// Seconds of the item played so far: what the play took from the pump (not what waits in its queue,
    /// nor what a stream opened ahead read and let go before its turn).
    private func playedSeconds(_ live: LiveStream) -> Double { pump?.takenSeconds ?? 0 }

    /// Whether a new connection still has the play's streams where it had them: for a `program`, they are
    /// that program's (a TS lists its streams in the order their tables arrived: two programs alike in codecs
    /// may have swapped places).
    private static func keepsPlayedStreams(_ context: UnsafeMutablePointer<AVFormatContext>, _ live: LiveStream) -> Bool {
        guard let program = live.playback.program else { return true }
        guard let streams = Demuxer.streams(ofProgram: program, in: context) else { return false }
        return live.playedStreams.isSubset(of: streams)
    }

    /// Counts a packet's bytes; once a window is full, tells the bitrate.
    private func noteFigures(_ live: LiveStream, bytes: Int) {
        let now = Monotonic.now()
        guard live.figuresSince > 0 else {
            live.figuresSince = now
            live.figureBytes = 0
            return
        }
        live.figureBytes += bytes
        let elapsed = now - live.figuresSince
        guard elapsed >= LiveStream.figuresWindow else { return }
        let bitrate = Int((Double(live.figureBytes) * 8 / elapsed).rounded())
        live.figuresSince = now
        live.figureBytes = 0
        live.limits.onStreamNews?(.figures(bitrate: bitrate))
    }

    /// The drop under way is over: a packet the play had not had arrived.
    private func endOutage(_ live: LiveStream) {
        guard let outage = live.outage else { return }
        live.outage = nil
        live.figuresSince = 0  // the bitrate's window does not span the drop
        let after = Monotonic.now() - outage.since
        live.downTime += after
        live.limits.onStreamNews?(.resumed(after: after))
        live.limits.onWaiting?(false)
    }

    /// Waits out the drop's backoff and reconnects until a connection with the same tracks opens (true: the
    /// drop ends with its first new packet), or the item's time for it is spent (false). Throws when the
    /// play is cancelled.
    private func reconnect(_ live: LiveStream) throws(MediaError) -> Bool {
        guard let outage = live.outage else { return true }
        live.connection.releasePort(of: live.playback.kind)  // the new connection binds it again
        live.limits.onWaiting?(true)
        var backoff = outage.backoff
        var lastWaitNews = Monotonic.now()
        func remaining(_ now: Double) -> Double {
            if let duration = live.playback.duration {
                return duration - playedSeconds(live) - live.downTime - (now - outage.since)
            }
            return live.playback.reconnectWindow - (now - outage.since)
        }
        func giveUp() -> Bool {
            live.downTime += Monotonic.now() - outage.since
            live.outage = nil
            live.limits.onWaiting?(false)
            return false
        }
        while true {
            // The backoff, in slices: a cancel ends it at once, and the engine hears the wait go on.
            let wakeAt = Monotonic.now() + min(backoff, max(0, remaining(Monotonic.now())))
            while Monotonic.now() < wakeAt {
                if live.limits.isCancelled?() == true {
                    throw MediaError(operation: "read", path: path, message: "interrupted")
                }
                if Monotonic.now() - lastWaitNews >= 0.3 {
                    live.limits.onWaiting?(true)
                    lastWaitNews = Monotonic.now()
                }
                usleep(UInt32(max(0.001, min(0.05, wakeAt - Monotonic.now())) * 1_000_000))
            }
            let left = remaining(Monotonic.now())
            guard left > 0 else { return giveUp() }
            backoff = min(backoff * 2, StreamPlayback.maxBackoff)
            live.outage?.backoff = backoff
            do throws(MediaError) {
                let next = try StreamConnection(
                    url: live.playback.url, kind: live.playback.kind, budget: min(live.playback.openTimeout, left),
                    isCancelled: live.limits.isCancelled, onWaiting: live.limits.onWaiting)
                next.interrupt.reportWaits(to: live.readWaiting)
                guard next.codecs == live.codecs, Self.keepsPlayedStreams(next.context, live) else {
                    live.limits.onStreamNews?(.stalled(reason: "the stream came back with other tracks"))
                    return giveUp()
                }
                for index in 0..<Int(next.context.pointee.nb_streams) where !live.playedStreams.contains(index) {
                    next.context.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
                }
                live.replace(with: next)
                return true
            } catch {
                if error.message == "interrupted" { throw error }
            }
        }
    }

    /// Moves `packet`'s timestamps onto the first connection's timeline (and time bases): a new connection
    /// goes on where the last packet ended.
    private func rebase(_ packet: Packet, _ live: LiveStream) {
        let index = Int(packet.pointer.pointee.stream_index)
        guard index < live.timeBases.count else { return }
        let from = live.connection.context.pointee.streams[index]!.pointee.time_base
        let to = live.timeBases[index]
        if live.rebasePending {
            live.rebasePending = false
            let first = packet.pointer.pointee.pts != AVCodes.noPTS ? packet.pointer.pointee.pts : packet.pointer.pointee.dts
            let firstSeconds = live.connection.startSeconds ?? (first == AVCodes.noPTS ? 0 : Double(first) * av_q2d(from))
            live.offset = (live.receivedEnd ?? live.initialStart) - firstSeconds
            live.lastDecodeTime = live.lastDecodeTime.map { _ in nil }
        }
        let original = packet.pointer.pointee
        func moved(_ stamp: Int64) -> Int64 {
            guard stamp != AVCodes.noPTS else { return stamp }
            return av_rescale_q(stamp, from, to) &+ Int64((live.offset / av_q2d(to)).rounded())
        }
        let decodeStamp = original.dts != AVCodes.noPTS ? original.dts : original.pts
        if decodeStamp != AVCodes.noPTS, let last = live.lastDecodeTime[index] {
            let time = Double(moved(decodeStamp)) * av_q2d(to)
            if time < last - LiveStream.backwardJump || time > last + LiveStream.forwardJump {
                // Timestamps jumped within one connection: go on where the packets reached, as after a
                // reconnect (the decoders start again at a keyframe: it is most often a new encoder).
                live.offset += (live.receivedEnd ?? last) - time
                live.lastDecodeTime = live.lastDecodeTime.map { _ in nil }
                live.reconnected = true
            }
        }
        packet.pointer.pointee.pts = moved(original.pts)
        packet.pointer.pointee.dts = moved(original.dts)
        if from != to { packet.pointer.pointee.duration = av_rescale_q(original.duration, from, to) }
        let decoded = packet.pointer.pointee.dts != AVCodes.noPTS ? packet.pointer.pointee.dts : packet.pointer.pointee.pts
        if decoded != AVCodes.noPTS { live.lastDecodeTime[index] = Double(decoded) * av_q2d(to) }
    }

    /// Ends a stream's play: its reader thread stops, nothing more is read, and a datagram stream's port is
    /// free at once. The decode thread calls it once the play is fully written, and the reader's owner when
    /// it goes. Idempotent.
    func closeStream() {
        guard let live else { return }
        // A datagram stream's port must be free before the next play binds it: its reader is waited for (an
        // interrupt poll, 0.1 s at most). Any other stream's reader ends on its own within a poll, its
        // connection closed as it goes, and the next play starts at once.
        let waits = live.playback.kind == .udp || live.playback.kind == .rtp || !pumpStarted
        pump?.stop(waiting: waits)
        if waits { live.close() }
    }

    /// Decode thread: whether the connection restarted before the packets taken since the last call (the
    /// decoders must start again at a keyframe).
    func takeReconnected() -> Bool {
        guard restartTaken else { return false }
        restartTaken = false
        return true
    }
}

/// The demuxer as its stream's reader thread holds it: that thread uses only the connection side
/// (readStreamPacket, LiveStream, the immutable packet clocks) while the decode thread takes packets from
/// the pump — the split StreamPump describes, which the compiler cannot see.
private struct StreamReaderHandle: @unchecked Sendable {
    let demuxer: Demuxer
}

extension AVRational: @retroactive Equatable {
    public static func == (lhs: AVRational, rhs: AVRational) -> Bool { lhs.num == rhs.num && lhs.den == rhs.den }
}
