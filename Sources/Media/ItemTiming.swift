// Decides where an item ends, from what each track declares and the item's options. Pure: no FFmpeg.
//
// Times are item-relative seconds: 0 is the item's first instant (the window start, or the file's origin).
// A track's declared end is what that track says of itself (its stream duration, or Matroska's per-track
// DURATION tag); the container's duration is one track's end only when the file has one track. A track
// whose end nobody declared ends where its packets end, which MediaReader learns while reading.

public struct ItemTiming: Sendable, Equatable {
    /// Where the audio stream ends as declared (nil: unknown, or no audio).
    public var audioEnd: Double?
    /// The audio's declared end counts in samples (MP4, FLAC, WAV…), so cutting there removes encoder
    /// padding; a coarse clock (Matroska's milliseconds) would cut real samples at the last play's end.
    public var audioEndIsExact: Bool
    /// Where the video stream ends as declared, or a still's display duration (nil: unknown, or no video).
    public var videoEnd: Double?
    /// The end of the play window (`end - start`), when the item has one.
    public var windowEnd: Double?
    /// The item plays a sound track (declared end or not).
    public var hasAudio: Bool
    /// The item has a picture track (declared end or not).
    public var hasVideo: Bool
    /// End at the shortest track rather than the longest.
    public var shortestTrack: Bool

    public init(
        audioEnd: Double?, audioEndIsExact: Bool = true, videoEnd: Double?, windowEnd: Double?,
        hasAudio: Bool? = nil, hasVideo: Bool? = nil, shortestTrack: Bool
    ) {
        self.audioEnd = audioEnd
        self.audioEndIsExact = audioEndIsExact
        self.videoEnd = videoEnd
        self.windowEnd = windowEnd
        self.hasAudio = hasAudio ?? (audioEnd != nil)
        self.hasVideo = hasVideo ?? (videoEnd != nil)
        self.shortestTrack = shortestTrack && self.hasAudio && self.hasVideo
    }

    /// Where the item ends, when that can be known before decoding to the end. Shortest: the earliest
    /// declared end (a track that ends sooner unannounced ends the item there, learned while reading).
    /// Longest: the latest end, known only when every track declares one.
    public var end: Double? {
        let declared = [hasAudio ? audioEnd : nil, hasVideo ? videoEnd : nil].compactMap { $0 }
        let tracks = hasAudio && hasVideo ? 2 : 1
        let tracksEnd = shortestTrack ? declared.min() : (declared.count == tracks ? declared.max() : nil)
        return Self.earlier(tracksEnd, windowEnd)
    }

    /// Where audio samples stop being handed out (nil: at the track's own end). The item's end, except that
    /// a coarse declared end of the track that ends the item last is not trusted to the sample.
    public var audioCut: Double? {
        guard hasAudio, let end else { return windowEnd }
        if shortestTrack || audioEndIsExact || audioEnd.map({ $0 < end }) ?? true { return end }
        return windowEnd
    }

    /// Whether audio must be padded with silence after its own end: only when a longer video track
    /// keeps the item going (an audio-only item never gets silence added).
    public var padsAudio: Bool {
        guard let videoEnd, let audioEnd else { return false }
        return !shortestTrack && videoEnd > audioEnd
    }

    /// The earlier of two ends, either of which may be unknown.
    static func earlier(_ a: Double?, _ b: Double?) -> Double? {
        switch (a, b) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }
}
