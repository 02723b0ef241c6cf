// The output timeline: one continuous run of audio frames (the master clock) on which every play of an
// item occupies a segment (segments follow each other; a crossfade's two overlap). The decode thread appends segments as it feeds the sinks; EngineState announces
// them (started/ended) as the presenter reports the listener reaching them. Guarded by EngineCore's lock.

import Media
import QueueModel

struct Segment: Equatable {
    /// Retagged when an interrupt keeps what was decoded ahead (see EngineState+Interrupt).
    var serial: Int
    let cursor: Cursor
    /// First frame of the segment on the output timeline.
    let startFrame: Int64
    /// Item time at `startFrame` (0, or where a seek landed).
    let itemOffset: Double
    /// The item's length when known (for progress and status).
    var duration: Double?
    /// The picture's size as seen (its stream's at open; its first picture's once decoded); nil for sound.
    var pictureSize: PictureSize?
    /// Which decoder the play's video got (nil without decoded pictures).
    var decoding: VideoDecoding?
    /// A web item's page as loaded for the play.
    var web: WebPageStatus?
    /// A stream's play (what the status shows of it); nil for files.
    var stream: StreamState?
    /// Its item says `onStall: black`: the screen goes black while the stream is down.
    var blackWhileDown = false
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
    /// An interrupt cut it short here: its end suspends the play (no itemEnded; it resumes later).
    var suspends = false
    /// A still (its one picture stays up for the play's length; a motion may move across it).
    var isStill = false
    /// It follows the play before it on its own, with no cut between (set by the decode thread).
    var joinsPrevious = false
    /// The fade or dip it joins the play before it with (set when it is opened; nil: a cut).
    var fadeIn: ItemTransition?
    /// A crossfade: it starts this many frames before the play before it ends, the two overlapping (set by
    /// the decode thread; 0: none). Its pictures are drawn over the other's at a mix rising from 0 to 1.
    var overlapFrames: Int64 = 0
    /// How far the listener has been told: nothing yet, started, or started and ended.
    var heard = Heard.ahead

    enum Heard: Equatable {
        case ahead, started, ended
    }
}

/// A decoded picture waiting for its moment on the output timeline.
struct TimedFrame {
    var serial: Int
    let cursor: Cursor
    /// Seconds on the output timeline.
    let time: Double
    let frame: VideoFrame
}

/// What the decode thread must start next: set by commands, taken by the decode thread.
struct StartRequest: Equatable {
    let serial: Int
    let cursor: Cursor
    let position: Double
    let continuesPlay: Bool
    /// An interrupt: nothing is flushed; the play goes where the audio output's unsent samples began
    /// (what was already sent plays on), so what is heard runs straight into it.
    var splice = false
    /// With `splice`: the new play never starts before this frame (the end of an interrupt still queued).
    var spliceAfter: Int64 = 0
    /// With `splice`: the queue's play the decode thread was about to open when the interrupt came (where
    /// playback goes back to when the splice lands past everything written).
    var openingBeforeSplice: NextPlay?
}

/// What the decode thread opens next: a play, from where, and whether it goes on with a play already
/// started (a seek, or an interrupted play resuming: no second itemStarted).
struct NextPlay: Equatable {
    var cursor: Cursor
    var position: Double = 0
    var continuesPlay = false
}
