// The output timeline: one continuous run of audio frames (the master clock) on which every play of an
// item occupies a segment. The decode thread appends segments as it feeds the sinks; EngineState announces
// them (started/ended) as the presenter reports the listener reaching them. Guarded by EngineCore's lock.
import Media
import QueueModel

struct Segment {
    let serial: Int
    let cursor: Cursor
    /// First frame of the segment on the output timeline.
    let startFrame: Int64
    /// Item time at `startFrame` (0, or where a seek landed).
    let itemOffset: Double
    /// The item's length when known (for progress and status).
    var duration: Double?
    /// Item seconds per timeline second.
    var rate: Double = 1
    /// Set by the decode thread once the whole item has been written.
    var endFrame: Int64?
    /// Whether pictures will be shown for it: then it "starts" when its first picture is on screen.
    /// Cleared by the decode thread when the play ends with no picture left to show.
    var showsVideo: Bool
    /// A seek continues the same play: no started event again.
    let continuesPlay: Bool
    /// Why it ended, when not at its natural end (a failed open or a read error).
    var failure: String?
    var announcedStart = false
    var announcedEnd = false
}

/// A decoded picture waiting for its moment on the output timeline.
struct TimedFrame {
    let serial: Int
    let cursor: Cursor
    /// Seconds on the output timeline.
    let time: Double
    let frame: VideoFrame
}

/// What the decode thread must start next: set by commands, taken by the decode thread.
struct StartRequest {
    let serial: Int
    let cursor: Cursor
    let position: Double
    let continuesPlay: Bool
}
