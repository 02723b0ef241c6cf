// The decode thread's state of the play it is feeding: where it sits on the timeline and how far each
// track is written. Decode thread only.

import Media
import QueueModel

final class ActiveItem {
    let cursor: Cursor
    let reader: any ItemReader
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
    /// How it comes in over the play before it and goes out into the next (PlayCrossfade).
    var crossfade: PlayCrossfade
    /// A stream follows: the item time from which it is opened ahead (DecodeLoop.prepareNext).
    var prepareStreamAt: Double?

    init(
        cursor: Cursor, reader: any ItemReader, serial: Int, startFrame: Int64, itemOffset: Double, showsVideo: Bool,
        rate: Double, tempo: AudioTempo?, pictureQueueLimit: Int, comingIn: (mix: CrossfadeMix, leaving: ActiveItem)? = nil
    ) {
        crossfade = PlayCrossfade(comingIn: comingIn)
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
