// Decides where an item ends, from what the container declares and the item's options. Pure: no FFmpeg.
//
// Times are item-relative seconds: 0 is the item's first instant (the window start, or the file's origin).

public struct ItemTiming: Sendable, Equatable {
    /// Where the audio stream ends as declared (nil: unknown, or no audio).
    public var audioEnd: Double?
    /// Where the video stream ends as declared, or a still's display duration (nil: unknown, or no video).
    public var videoEnd: Double?
    /// The end of the play window (`end - start`), when the item has one.
    public var windowEnd: Double?
    /// End at the shortest track rather than the longest.
    public var shortestTrack: Bool

    public init(audioEnd: Double?, videoEnd: Double?, windowEnd: Double?, shortestTrack: Bool) {
        self.audioEnd = audioEnd
        self.videoEnd = videoEnd
        self.windowEnd = windowEnd
        self.shortestTrack = shortestTrack
    }

    /// Where the item ends, when that can be known before decoding to the end.
    public var end: Double? {
        let tracks = [audioEnd, videoEnd].compactMap { $0 }
        let tracksEnd = shortestTrack ? tracks.min() : tracks.max()
        switch (tracksEnd, windowEnd) {
        case let (track?, window?): return min(track, window)
        case let (track?, nil): return track
        case let (nil, window?): return window
        case (nil, nil): return nil
        }
    }

    /// Whether audio must be padded with silence after its own end: only when a longer video track
    /// keeps the item going (an audio-only item never gets silence added).
    public var padsAudio: Bool {
        guard let videoEnd, let audioEnd else { return false }
        return !shortestTrack && videoEnd > audioEnd
    }
}
