// One connection to a stream: an AVFormatContext FFmpeg opened on the URL itself (its own protocols, within
// the kind's whitelists), with the interrupt that bounds its waits. Owns both: `deinit` expires the
// interrupt first, so closing (RTSP's TEARDOWN to a dead camera) does not wait, then closes the input.
// A reconnect is a new StreamConnection; the demuxer swaps to it (Demuxer+Stream). Decode thread only.

import CFFmpeg
import Glibc
import SystemClock
import MediaPaths

final class StreamConnection {
    let context: UnsafeMutablePointer<AVFormatContext>
    let interrupt: StreamInterrupt

    /// Connects and reads the stream's tracks, all within `budget` seconds; throws with the reason
    /// (including "no answer within N s" for our own deadline, and "interrupted" when cancelled).
    init(
        url: String, kind: StreamKind, budget: Double, isCancelled: (@Sendable () -> Bool)?,
        onWaiting: (@Sendable (Bool) -> Void)?
    ) throws(MediaError) {
        let interrupt = StreamInterrupt(isCancelled: isCancelled)
        interrupt.reportWaits(to: onWaiting)
        guard let context = avformat_alloc_context() else {
            throw MediaError(operation: "open", path: url, message: "out of memory")
        }
        // Set before the open, so the connect itself is bounded; freed with the context.
        context.pointee.interrupt_callback = interrupt.callback
        context.pointee.protocol_whitelist = av_strdup(kind.protocolWhitelist)
        context.pointee.format_whitelist = av_strdup(kind.formatWhitelist)
        if kind == .hls || kind == .dash { interrupt.guardRequests(of: context) }
        var options: OpaquePointer?
        for (name, value) in kind.openOptions { av_dict_set(&options, name, value, 0) }
        defer { av_dict_free(&options) }
        interrupt.arm(budget)
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        let opened = avformat_open_input(&optional, url, nil, &options)
        interrupt.endWait()
        guard opened >= 0, let opened_ = optional else {
            // avformat_open_input frees the context on failure.
            throw Self.error(opened, interrupt: interrupt, operation: "open", budget: budget, url: url)
        }
        let info = avformat_find_stream_info(opened_, nil)
        interrupt.endWait()
        if info < 0 {
            interrupt.expire()
            var closing: UnsafeMutablePointer<AVFormatContext>? = opened_
            avformat_close_input(&closing)
            throw Self.error(info, interrupt: interrupt, operation: "find stream info", budget: budget, url: url)
        }
        self.context = opened_
        self.interrupt = interrupt
    }

    deinit {
        interrupt.expire()
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&optional)
    }

    /// Frees a datagram stream's port now (udp, rtp: the next play or connection binds it again) while the
    /// context, which decoders still read their streams' parameters from, lives on until `deinit`.
    func releasePort(of kind: StreamKind) {
        guard kind == .udp || kind == .rtp, context.pointee.flags & AVFMT_FLAG_CUSTOM_IO == 0,
            context.pointee.pb != nil
        else { return }
        interrupt.expire()
        avio_closep(&context.pointee.pb)
    }

    /// The first connection of a play: a refusal or a reset (a publisher starting, a camera rebooting) is
    /// tried again, 0.5 s doubling, until `openTimeout` is spent; anything else (404, no such host, bad
    /// data, our deadline) fails at once. Decode or prefetch thread.
    /// Its waits beyond half a second are told to `onWaiting` (the engine's `buffering`: a stream's open may
    /// take longer than the stall watchdog's 5 s).
    static func openRetrying(
        _ stream: StreamPlayback, isCancelled: (@Sendable () -> Bool)?, onWaiting: (@Sendable (Bool) -> Void)?
    ) throws(MediaError) -> StreamConnection {
        let start = Monotonic.now()
        var backoff = StreamPlayback.firstBackoff
        while true {
            let left = stream.openTimeout - (Monotonic.now() - start)
            do throws(MediaError) {
                return try StreamConnection(
                    url: stream.url, kind: stream.kind, budget: left, isCancelled: isCancelled, onWaiting: onWaiting)
            } catch {
                let transient = [ECONNREFUSED, ECONNRESET, EHOSTUNREACH, ENETUNREACH, EAGAIN].contains(-error.code)
                let retryAt = Monotonic.now() + backoff
                guard transient, retryAt < start + stream.openTimeout - 0.1 else { throw error }
                onWaiting?(true)
                defer { onWaiting?(false) }
                while Monotonic.now() < retryAt {
                    if isCancelled?() == true {
                        throw MediaError(operation: "open", path: error.path, message: "interrupted")
                    }
                    usleep(50_000)
                }
                backoff = min(backoff * 2, StreamPlayback.maxBackoff)
            }
        }
    }

    /// The error for `code`, in our words when our deadline or a cancel cut the wait short.
    static func error(
        _ code: Int32, interrupt: StreamInterrupt, operation: String, budget: Double, url: String
    ) -> MediaError {
        let message: String
        if interrupt.fused {
            return MediaError(
                code: code, operation: operation, path: StreamKind.redacted(url),
                message:
                    "more than \(StreamInterrupt.fuseRequests) requests in \(Int(StreamInterrupt.fuseWindow)) s: the playlist loops (refused)")
        }
        switch interrupt.why {
        case .cancelled: message = "interrupted"
        case .deadline: message = "no answer within \(formatted(budget)) s"
        case nil: message = MediaError.text(for: code)
        }
        return MediaError(code: code, operation: operation, path: StreamKind.redacted(url), message: message)
    }

    static func formatted(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// The codecs of its streams, in order (a reconnect must find the same tracks).
    var codecs: [AVCodecID] {
        (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]!.pointee.codecpar.pointee.codec_id }
    }

    /// Each stream's time base, in order.
    var timeBases: [AVRational] {
        (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]!.pointee.time_base }
    }

    /// Where the stream starts in seconds (its earliest timestamp), when FFmpeg knows.
    var startSeconds: Double? {
        let start = context.pointee.start_time
        return start == AVCodes.noPTS ? nil : Double(start) / Double(AV_TIME_BASE)
    }

    /// Whether it has an end: an on-demand presentation (HLS with ENDLIST, static DASH, RTSP of a file).
    var isOnDemand: Bool {
        context.pointee.duration != AVCodes.noPTS && context.pointee.duration > 0
    }
}
