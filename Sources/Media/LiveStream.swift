// What one play of a stream is (StreamPlayback: its URL, kind, time and limits) and what its reader keeps
// across connections (LiveStream: the first connection's tracks and clock, the drop under way, what was
// already played). The stream's reader thread only (StreamPump), once it runs; the decode thread sets it up
// before (`playedStreams`) and closes it after the pump stopped.

import CFFmpeg
import MediaPaths

/// How one play of a stream is read.
public struct StreamPlayback: Sendable {
    public var url: String
    public var kind: StreamKind
    /// The item's own time (nil: until the stream ends, or a drop outlasts `reconnectWindow`).
    public var duration: Double?
    /// Connecting and reading the tracks, per attempt.
    public var openTimeout: Double = 10
    /// No packet for this long is a drop. HLS and DASH deliver a segment at a time, so they get longer.
    public var readTimeout: Double
    /// Without a duration: how long one drop may last before the item ends.
    public var reconnectWindow: Double = 60
    /// A drop ends the item at once instead of reconnecting (the item's `onStall: skip`).
    public var endsAtFirstDrop = false
    /// The MPEG-TS program to play (its number); nil: the program of the picture FFmpeg finds best.
    public var program: Int?
    /// A live stream's latency to keep (seconds received and not yet heard; DriftCorrector). nil: learned
    /// from the play's first half minute (HLS and DASH: the segments the playlist keeps behind its edge).
    public var latency: Double?
    public static let firstBackoff = 0.5
    public static let maxBackoff = 10.0

    public init(url: String, kind: StreamKind, duration: Double?) {
        self.url = url
        self.kind = kind
        self.duration = duration
        readTimeout = kind == .hls || kind == .dash ? 15 : 5
        latency = kind == .hls || kind == .dash ? nil : Self.defaultLatency
    }

    /// The latency kept for a stream delivered packet by packet (RTSP, RTMP, SRT, UDP, RTP).
    public static let defaultLatency = 1.0
}

/// A stream's state across its connections. Its reader thread only, once that runs.
final class LiveStream {
    let playback: StreamPlayback
    let limits: SourceLimits
    private(set) var connection: StreamConnection
    /// The play is over (its port freed for the next play).
    private(set) var closed = false
    /// The first connection's start and tracks: every later connection is read in their terms.
    let initialStart: Double
    let codecs: [AVCodecID]
    let timeBases: [AVRational]
    /// Seconds added to the current connection's timestamps (0 for the first).
    var offset = 0.0
    /// The current connection's first packet is still to come (its offset is fixed then).
    var rebasePending = false
    /// Per stream, the last packet's decoding time (seconds, after rebasing): a jump in it is a
    /// discontinuity (an encoder restarted behind the same address, a TS timestamp reset).
    var lastDecodeTime: [Double?] = []
    /// Set by a reconnect (or a jump in timestamps); the pump hands it to the decode thread with the next
    /// packet, which restarts its decoders.
    var reconnected = false
    /// What a connection's reads report their waits to (the pump's filter of `limits.onWaiting`).
    var readWaiting: (@Sendable (Bool) -> Void)?
    /// Where the packets read so far reach (seconds, the first connection's timeline, after rebasing).
    private(set) var receivedEnd: Double?
    /// Seconds the stream was down in this play, drops before the current one.
    var downTime = 0.0
    /// The drop under way: since when, and the next backoff. It lasts until a packet the play has not had
    /// yet arrives — a reopened live playlist that stopped updating gives its last segments again.
    var outage: (since: Double, backoff: Double)?
    /// Per stream, the last packet's decoding time as the connection gave it (before rebasing): what a
    /// segmented stream (HLS, DASH) gives again after a reconnect is at or before it, and is passed over.
    var lastOriginal: [Double?] = []
    /// How many times it dropped in this play.
    private(set) var stalls = 0
    /// The reader's tracks: the rest of every connection is discarded (a multi-program TS's other programs).
    var playedStreams: Set<Int> = []
    /// Packet bytes since `figuresSince` (monotonic seconds; 0: the window starts with the next packet).
    var figureBytes = 0
    var figuresSince = 0.0
    static let figuresWindow = 2.0

    init(playback: StreamPlayback, limits: SourceLimits, connection: StreamConnection) {
        self.playback = playback
        self.limits = limits
        self.connection = connection
        initialStart = connection.startSeconds ?? 0
        isLive = playback.kind.alwaysLive || !connection.isOnDemand
        codecs = connection.codecs
        timeBases = connection.timeBases
        lastDecodeTime = Array(repeating: nil, count: timeBases.count)
        lastOriginal = lastDecodeTime
    }

    /// Whether `packet` (as the connection gave it) is one the play had already: after a reconnect of a
    /// segmented stream, at or before the last one read (within a minute: an encoder that started over far
    /// below is new).
    func isRepeat(_ packet: AVPacket, timeBase: AVRational) -> Bool {
        guard outage != nil, playback.kind == .hls || playback.kind == .dash else { return false }
        let index = Int(packet.stream_index)
        let stamp = packet.dts != AVCodes.noPTS ? packet.dts : packet.pts
        guard index < lastOriginal.count, stamp != AVCodes.noPTS, let last = lastOriginal[index] else { return false }
        let time = Double(stamp) * av_q2d(timeBase)
        return time <= last + 1e-6 && time > last - 60
    }

    /// Beyond these a stream's decoding time jumped (backward: B-frames never reorder decoding times, so
    /// any step back is one; forward: more than a stall's worth).
    static let backwardJump = 0.5
    static let forwardJump = 3.0

    /// Whether the stream has no end of its own: its end is a drop. Read from the first connection at open
    /// (any thread may ask; the connection is the reader thread's).
    let isLive: Bool

    /// Ends the play: nothing more is read, and a datagram stream's port is free at once (the next play of
    /// the same port opens before this reader is released).
    func close() {
        guard !closed else { return }
        closed = true
        connection.releasePort(of: playback.kind)
    }

    func noteReceived(until end: Double) {
        if end > receivedEnd ?? -.infinity { receivedEnd = end }
    }

    /// Whether a restart happened since the last call.
    func takeReconnected() -> Bool {
        defer { reconnected = false }
        return reconnected
    }

    func replace(with next: StreamConnection) {
        connection = next
        rebasePending = true
        reconnected = true
    }
}
