// The decode thread's state of the play it is feeding: where it sits on the timeline and how far each
// track is written. Decode thread only.

import Media
import QueueModel

final class ActiveItem {
    let cursor: Cursor
    let reader: MediaReader
    let serial: Int
    let startFrame: Int64
    let itemOffset: Double
    let showsVideo: Bool
    /// Item seconds per timeline second; `tempo` does the audio's part of it (nil at rate 1).
    let rate: Double
    let tempo: AudioTempo?
    /// Frames of this item written to the audio sink (silence included): its length on the timeline.
    var audioFrames: Int64 = 0
    /// Frames of the item's own audio consumed (before the tempo change): its position in item time.
    var itemFrames: Int64 = 0
    var audioSourceDone = false
    var audioDone = false
    var videoDone = false
    /// Item time up to which pictures are queued.
    var videoHorizon: Double
    /// Pictures handed to the picture queue.
    var picturesQueued = 0
    /// Pictures of this play the picture queue may hold: the engine's capacity until the first picture
    /// gives their size, then what fits in its picture budget.
    var pictureQueueLimit: Int
    var failure: String?
    /// A crossfade out: the timeline frame where the next play comes in (as the play's known length puts
    /// it, decided anew for every chunk), and for how many frames the two overlap.
    var crossfadeAt: Int64?
    var crossfadeFrames: Int64 = 0
    /// Once handed over: its samples read past the crossfade's start and not mixed yet.
    var held = HeldSamples()
    /// A crossfade in: the leaving play, and how far its sound has been mixed under this play's.
    var mixIn: CrossfadeMix?
    var mixingWith: ActiveItem?
    /// Set when the play was handed over to the next in a crossfade: where it ends on the timeline
    /// (seconds; its pictures stop there), EngineState having its end already.
    var handedOverAt: Double?
    /// A stream follows: the item time from which it is opened ahead (DecodeLoop.prepareNext).
    var prepareStreamAt: Double?

    init(
        cursor: Cursor, reader: MediaReader, serial: Int, startFrame: Int64, itemOffset: Double, showsVideo: Bool,
        rate: Double, tempo: AudioTempo?, pictureQueueLimit: Int
    ) {
        self.pictureQueueLimit = pictureQueueLimit
        self.rate = rate
        self.tempo = tempo
        self.cursor = cursor
        self.reader = reader
        self.serial = serial
        self.startFrame = startFrame
        self.itemOffset = itemOffset
        self.showsVideo = showsVideo
        videoHorizon = itemOffset
        videoDone = !showsVideo
    }
}
