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
// Decode thread only (the MediaReader's); the backoff wait sleeps in slices, polling cancellation.

import CFFmpeg
import MediaPaths
import Glibc
import SystemClock

extension Demuxer {
    /// The next packet of a stream, its timestamps on the first connection's timeline; nil when the item's
    /// stream is over (its end, or a drop that outlasted the time it had). Throws when cancelled, and when
    /// a playlist's requests blew the fuse.
    func readStreamPacket() throws(MediaError) -> Packet? {
        guard let live, !live.closed else { return nil }
        while true {
            let packet = try Packet()
            live.connection.interrupt.arm(live.playback.readTimeout)
            let result = av_read_frame(format, packet.pointer)
            live.connection.interrupt.endWait()
            if result >= 0 {
                let index = Int(packet.pointer.pointee.stream_index)
                guard index < Int(format.pointee.nb_streams) else { continue }
                let timeBase = format.pointee.streams[index]!.pointee.time_base
                if live.isRepeat(packet.pointer.pointee, timeBase: timeBase) { continue }
                if live.outage != nil { endOutage(live) }
                let original = packet.pointer.pointee.dts != AVCodes.noPTS ? packet.pointer.pointee.dts : packet.pointer.pointee.pts
                if index < live.lastOriginal.count, original != AVCodes.noPTS {
                    live.lastOriginal[index] = Double(original) * av_q2d(timeBase)
                }
                rebase(packet, live)
                notePacketEnd(packet.pointer.pointee)
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

    /// Seconds of the item played so far (where its packets reach).
    private func playedSeconds(_ live: LiveStream) -> Double {
        max(0, (furthestPacketEnd ?? live.initialStart) - live.initialStart)
    }

    /// Whether a new connection still has the play's streams where it had them: for a `program`, they are
    /// that program's (a TS lists its streams in the order their tables arrived: two programs alike in codecs
    /// may have swapped places).
    private static func keepsPlayedStreams(_ context: UnsafeMutablePointer<AVFormatContext>, _ live: LiveStream) -> Bool {
        guard let program = live.playback.program else { return true }
        guard let streams = Demuxer.streams(ofProgram: program, in: context) else { return false }
        return live.playedStreams.isSubset(of: streams)
    }

    /// Counts a packet's bytes; once a window is full, tells the bitrate and how far the packets reach.
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
        let received = (furthestPacketEnd ?? live.itemOrigin) - live.itemOrigin  // in item time
        live.limits.onStreamNews?(.figures(bitrate: bitrate, received: received))
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
                guard next.codecs == live.codecs, Self.keepsPlayedStreams(next.context, live) else {
                    live.limits.onStreamNews?(.stalled(reason: "the stream came back with other tracks"))
                    return giveUp()
                }
                for index in 0..<Int(next.context.pointee.nb_streams) where !live.playedStreams.contains(index) {
                    next.context.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
                }
                live.replace(with: next)
                format = next.context
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
        let from = format.pointee.streams[index]!.pointee.time_base
        let to = live.timeBases[index]
        if live.rebasePending {
            live.rebasePending = false
            let first = packet.pointer.pointee.pts != AVCodes.noPTS ? packet.pointer.pointee.pts : packet.pointer.pointee.dts
            let firstSeconds = live.connection.startSeconds ?? (first == AVCodes.noPTS ? 0 : Double(first) * av_q2d(from))
            live.offset = (furthestPacketEnd ?? live.initialStart) - firstSeconds
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
                live.offset += (furthestPacketEnd ?? last) - time
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

    /// Ends a stream's play: nothing more is read, and its port is free at once. The decode thread calls it
    /// once the play is fully written.
    func closeStream() { live?.close() }

    /// Whether a reconnect happened since the last call (the decoders must start again at a keyframe).
    func takeReconnected() -> Bool {
        guard let live, live.reconnected else { return false }
        live.reconnected = false
        return true
    }
}

extension AVRational: @retroactive Equatable {
    public static func == (lhs: AVRational, rhs: AVRational) -> Bool { lhs.num == rhs.num && lhs.den == rhs.den }
}
