// What the engine tells its observers (the control layer, the daemon's log, tests), in the order it happened.

import Media
import QueueModel

public enum PlayerState: String, Sendable, Codable, CaseIterable {
    case idle  // nothing to play: empty queue, or played through
    case playing
    case paused
    case stopped  // stopped by the user, or because every item failed (then `error` says why)
}

public struct PlayerStatus: Sendable, Equatable {
    public var state: PlayerState = .idle
    public var currentID: ItemID?
    /// The current item's title, uri and loop count as queued (nil when there is no current item), so a
    /// client can name it without another request.
    public var title: String?
    public var uri: String?
    public var loops: Int?
    /// Seconds into the current item.
    public var position: Double = 0
    public var duration: Double?
    public var play: Int = 0
    /// 0...100.
    public var volume: Int = 100
    public var muted = false
    /// Playback speed, 0.5...2.0 (pitch preserved).
    public var rate = 1.0
    public var fit = VideoFit.fit
    public var fullscreen = false
    public var rotation = VideoRotation.upright
    public var queueLoops = 1
    public var queueVersion: UInt64 = 0
    /// The desired-state revision the queue was last replaced with (`queue.replace` `rev`); nil: never.
    public var appliedRev: Int64?
    /// Why playback stopped on its own, when it did.
    public var error: String?
    /// Pictures dropped because they were late, since the daemon started. Counted without raising
    /// `statusChanged` (a struggling machine should not also flood its clients).
    public var droppedFrames = 0
    /// Playing, but the current item's bytes have not arrived (a network item ahead of its download):
    /// picture and sound hold until they do. `state` stays `playing` (what the user asked for), as mpv's
    /// `paused-for-cache` and AVPlayer's `waitingToPlayAtSpecifiedRate` sit beside their play state.
    public var buffering = false
    /// Playing, but every item is outside its schedule: the fallback picture shows until a window opens.
    public var waitingForSchedule = false
    /// A synchronized start (`play(at:)`) prepared and waiting: the instant (Unix seconds) its first picture
    /// is shown; nil otherwise. `state` is already `playing`.
    public var startsAt: Double?
    /// The current item is an interrupt (`queue.interrupt`), not a queue item; the queue resumes after it.
    public var interrupt = false
    /// The current play's video decoder (nil without decoded pictures).
    public var decoder: VideoDecoding?
    /// The current play's stream, when it is one (nil for files).
    public var stream: StreamState?
    /// The current play's web page, as it was loaded for the play (nil for everything else).
    public var web: WebPageStatus?
    /// The screen's power (off: black, silent, decoding paused; `state` keeps what the user asked for).
    public var display = ScreenPowerStatus()
    public init() {}

    /// The current play's fields, all from its segment (every place a play becomes current says it so).
    mutating func describe(_ segment: Segment) {
        currentID = segment.cursor.id
        play = segment.cursor.play
        duration = segment.duration
        decoder = segment.decoding
        stream = segment.stream?.withoutFigures
        web = segment.web
    }

    /// No current play: every field of one cleared together (idle, stopped, waiting for a window).
    mutating func describeNoPlay() {
        currentID = nil
        play = 0
        duration = nil
        decoder = nil
        stream = nil
        web = nil
    }
}

public enum PlayerEvent: Sendable, Equatable {
    case statusChanged(PlayerStatus)
    /// `interrupt` (here and in the three below): a play of an interrupt (`queue.interrupt`), not of the queue.
    case progress(id: ItemID, position: Double, duration: Double?, play: Int, interrupt: Bool = false)
    /// `wallClock` is when the first picture was on screen (first sample heard for audio-only items), in
    /// seconds since the Unix epoch; `timeline` is the same instant on the output timeline; `item` what it
    /// plays, as queued (or as interrupted with), for records of what played.
    case itemStarted(
        id: ItemID, play: Int, wallClock: Double, timeline: Double, interrupt: Bool = false, size: PictureSize? = nil,
        item: MediaItem? = nil, decoder: VideoDecoding? = nil, web: WebPageStatus? = nil)
    case itemEnded(id: ItemID, play: Int, reason: EndReason, error: String?, interrupt: Bool = false)
    /// A play passed over without starting (not a failure: the item stays queued for its next turn).
    case itemSkipped(id: ItemID, play: Int, reason: SkipReason)
    case queueChanged(version: UInt64)
    /// An item is being opened for a play (`loading`), can play (`ready`), or could not be opened.
    case itemLoading(id: ItemID, play: Int, status: LoadStatus, error: String?, interrupt: Bool = false)
    /// The current play waits for bytes (`likelyToKeepUp` false), or goes on again (true).
    case buffering(BufferingReport)
    /// A stream item dropped or stalled (`reason`); it reconnects within its time.
    case itemStalled(id: ItemID, play: Int, reason: String, interrupt: Bool = false)
    /// A stream item plays again after `after` seconds down.
    case itemResumed(id: ItemID, play: Int, after: Double, interrupt: Bool = false)
}

public enum LoadStatus: String, Sendable {
    case loading, ready, failed
}

/// The current play's wait for a network item's bytes.
public struct BufferingReport: Sendable, Equatable {
    public var id: ItemID
    /// Seconds of sound (and pictures) queued for the outputs beyond what is heard now.
    public var bufferedAhead: Double
    /// False while the play waits for bytes; true once they arrived and it goes on.
    public var likelyToKeepUp: Bool
    /// Nothing left to show or play: the listener hears the wait.
    public var bufferEmpty: Bool
    public init(id: ItemID, bufferedAhead: Double, likelyToKeepUp: Bool, bufferEmpty: Bool) {
        self.id = id
        self.bufferedAhead = bufferedAhead
        self.likelyToKeepUp = likelyToKeepUp
        self.bufferEmpty = bufferEmpty
    }
}

/// A stream item's play as the status shows it.
public struct StreamState: Sendable, Equatable {
    /// It follows its sender's clock (no end of its own); false for an on-demand HLS, DASH or RTSP.
    public var live: Bool
    /// Drops in this play so far.
    public var stalls: Int
    /// Down now (reconnecting).
    public var down: Bool
    /// Bits per second of what it delivered over the last 2 s (nil until then).
    public var bitrate: Int?
    /// Seconds received and not yet heard (queued, decoded, in the outputs' buffers), smoothed over 10 s,
    /// as the decode thread last measured it (every 2 s; nil until measured, and on-demand streams).
    public var latency: Double?
    /// The pace a live stream plays at to keep its latency in its band: 1, or 1 ± 0.005 while it is
    /// brought back (nil until measured; DriftCorrector).
    public var pace: Double?
    public init(
        live: Bool, stalls: Int = 0, down: Bool = false, bitrate: Int? = nil, latency: Double? = nil,
        pace: Double? = nil
    ) {
        self.live = live
        self.stalls = stalls
        self.down = down
        self.bitrate = bitrate
        self.latency = latency
        self.pace = pace
    }
    /// Without its figures: what the engine's status (and so its events) holds; a command's status reads the
    /// figures from the play's segment.
    public var withoutFigures: StreamState { StreamState(live: live, stalls: stalls, down: down) }
}

/// What happened to an output.
public struct OutputChange: Sendable, Equatable {
    public enum State: String, Sendable { case lost, restored }
    /// "audio" or "video".
    public var output: String
    public var state: State
    /// Why it was lost, or how long it was away.
    public var message: String?
    public init(output: String, state: State, message: String?) {
        self.output = output
        self.state = state
        self.message = message
    }
}

/// A picture as the presenter showed it, for tests and probes: which item, where on the output timeline.
public struct PresentedFrame: Sendable {
    public var id: ItemID
    public var play: Int
    /// Seconds on the output timeline at which the picture was due.
    public var timeline: Double
    /// The picture's time within its item.
    public var itemTime: Double
    /// The picture itself (tests read its pixels).
    public var frame: VideoFrame
}
