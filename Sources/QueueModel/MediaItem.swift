/// Where an item with both sound and picture ends when its tracks differ in length.
public enum TrackEnd: String, Sendable, Equatable, Codable, CaseIterable {
    /// At the shortest track when the same item plays again right after itself (a loop seam, so the picture
    /// never freezes there), at the longest otherwise (nothing of the file is lost).
    case auto
    /// At the end of the shortest track.
    case shortest
    /// At the end of the longest track (the shorter one is held: last picture, or silence).
    case longest
}

/// What a stream item does while it is down (reconnecting within its time).
public enum StreamStall: String, Sendable, Equatable, Codable, CaseIterable {
    /// Hold the last picture, silent, and reconnect (the default).
    case hold
    /// Black while it is down, silent, and reconnect: a frozen camera picture would look live.
    case black
    /// End the item at the first drop: the queue goes on at once.
    case skip
}

/// What the user asked to play: a file plus how to play it. Pure data; `PlayQueue` validates it on the way in.
public struct MediaItem: Sendable, Equatable, Codable {
    /// Absolute path for now.
    public var uri: String
    /// Total plays per queue pass; 0 = forever (until the user moves on).
    public var loops: Int
    /// Seconds: play only [start, end) of the file.
    public var start: Double?
    public var end: Double?
    /// Still images: how long to show; nil lets the engine's default apply.
    public var duration: Double?
    public var title: String?
    /// Where an audio+video item ends when its tracks differ; nil = the daemon's default.
    public var trackEnd: TrackEnd?
    /// http(s) items: the SHA-256 the downloaded file must have (lowercase hex); a mismatch is fetched
    /// again once, then fails the item.
    public var sha256: String?
    /// Dayparting: when the item may play (local wall-clock time); nil = always. Outside its window the
    /// engine skips it.
    public var schedule: ItemSchedule?
    /// How this item is joined to the play before it; nil = the daemon's default (a cut unless set).
    public var transition: ItemTransition?
    /// Stills: a slow pan and zoom across the picture while it is shown (nil: it stands still).
    public var motion: ItemMotion?
    /// Streams: what a drop does (nil: hold).
    public var onStall: StreamStall?
    /// Streams: the MPEG-TS program (its number, as `ffprobe` lists it) to play (nil: the program of the picture FFmpeg finds best).
    public var program: Int?
    /// Live streams: the latency to keep, in seconds received and not yet heard (nil: 1 s for RTSP, RTMP,
    /// SRT, UDP and RTP; for HLS and DASH what the play settles at). 0.2 to 30.
    public var latency: Double?
    /// Web pages (`type: web` on the wire): how the page is loaded and kept; nil for everything else (a local
    /// .html file is a page with the defaults, see `isWebPage`).
    public var web: WebItem?

    public init(
        uri: String, loops: Int = 1, start: Double? = nil, end: Double? = nil, duration: Double? = nil,
        title: String? = nil, trackEnd: TrackEnd? = nil, sha256: String? = nil,
        schedule: ItemSchedule? = nil, transition: ItemTransition? = nil, motion: ItemMotion? = nil,
        onStall: StreamStall? = nil, program: Int? = nil, latency: Double? = nil, web: WebItem? = nil
    ) {
        self.uri = uri
        self.loops = loops
        self.start = start
        self.end = end
        self.duration = duration
        self.title = title
        self.trackEnd = trackEnd
        self.sha256 = sha256
        self.schedule = schedule
        self.transition = transition
        self.motion = motion
        self.onStall = onStall
        self.program = program
        self.latency = latency
        self.web = web
    }

    private enum CodingKeys: String, CodingKey {
        case uri, loops, start, end, duration, title, trackEnd, sha256, schedule, transition, motion, onStall, program, latency, web
    }

    // Written by hand only so that a missing `loops` means 1, as it does in `init`; encoding is synthesized.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uri = try container.decode(String.self, forKey: .uri)
        loops = try container.decodeIfPresent(Int.self, forKey: .loops) ?? 1
        start = try container.decodeIfPresent(Double.self, forKey: .start)
        end = try container.decodeIfPresent(Double.self, forKey: .end)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        trackEnd = try container.decodeIfPresent(TrackEnd.self, forKey: .trackEnd)
        sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
        schedule = try container.decodeIfPresent(ItemSchedule.self, forKey: .schedule)
        transition = try container.decodeIfPresent(ItemTransition.self, forKey: .transition)
        motion = try container.decodeIfPresent(ItemMotion.self, forKey: .motion)
        onStall = try container.decodeIfPresent(StreamStall.self, forKey: .onStall)
        program = try container.decodeIfPresent(Int.self, forKey: .program)
        latency = try container.decodeIfPresent(Double.self, forKey: .latency)
        web = try container.decodeIfPresent(WebItem.self, forKey: .web)
    }

    /// Throws the first rule the item breaks: loops >= 0, start >= 0, end > start (or > 0 without a start),
    /// duration > 0, all finite. Public so the RPC layer can reject a request before touching the queue.
    public func validate() throws {
        guard loops >= 0 else { throw QueueError.invalidLoops(loops) }
        if let start, !(start.isFinite && start >= 0) {
            throw QueueError.invalidWindow("start must be a finite number of seconds >= 0 (got \(start))")
        }
        if let end {
            if let start, !(end.isFinite && end > start) {
                throw QueueError.invalidWindow("end (\(end)) must be after start (\(start))")
            }
            if start == nil, !(end.isFinite && end > 0) {
                throw QueueError.invalidWindow("end must be a finite number of seconds > 0 (got \(end))")
            }
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw QueueError.invalidWindow("duration must be a finite number of seconds > 0 (got \(duration))")
        }
        if let sha256, !Self.isDigest(sha256) {
            throw QueueError.invalidDigest(sha256)
        }
        if let latency, !Self.latencies.contains(latency) {
            throw QueueError.invalidWindow("latency must be between 0.2 and 30 seconds (got \(latency))")
        }
        try transition?.validate()
        try motion?.validate()
        try web?.validate()
    }

    /// The latencies a live stream may be kept at (seconds).
    public static let latencies: ClosedRange<Double> = 0.2...30

    /// 64 lowercase hex digits: how `sha256` is written.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
