// The video half of MediaReader: decoded pictures with item-relative times. The last picture at or before
// the start is shown at the start (a window or seek rarely lands on a frame), pictures at or past the
// item's end are not shown.
import CFFmpeg
import DequeModule

final class VideoTrack {
    let index: Int
    let decoder: Decoder
    let converter = VideoConverter()
    let frameDuration: Double
    var packets = Deque<Packet>()
    var startAt: Double = 0
    /// The latest picture at or before `startAt`, shown at `startAt` once the next one proves it current.
    var preroll: VideoFrame?
    /// A picture decoded while the preroll was being handed out.
    var stash: VideoFrame?
    var lastTime: Double?
    var sentEndOfStream = false
    var finished = false
    /// The end of the last picture handed out (its time plus its duration).
    var endTime: Double?

    init(index: Int, decoder: Decoder, frameDuration: Double) {
        self.index = index
        self.decoder = decoder
        self.frameDuration = frameDuration
    }

    func restart(at seconds: Double) {
        packets.removeAll()
        decoder.flush()
        startAt = seconds
        preroll = nil
        stash = nil
        lastTime = nil
        sentEndOfStream = false
        finished = false
        endTime = nil
    }
}

extension MediaReader {
    /// The next picture for the item, or nil when there are no more (or the item has no video).
    public func readVideo() throws(MediaError) -> VideoFrame? {
        guard let track = video else { return nil }
        if let stash = track.stash {
            track.stash = nil
            return handOut(stash, track: track)
        }
        guard !track.finished else { return nil }
        while true {
            switch try track.decoder.receive() {
            case .frame(let frame):
                let duration = frame.pointee.pkt_duration > 0
                    ? Double(frame.pointee.pkt_duration) * av_q2d(track.decoder.timeBase) : track.frameDuration
                let time = track.decoder.seconds(of: frame).map { $0 - origin } ?? ((track.lastTime ?? -track.frameDuration) + track.frameDuration)
                track.lastTime = time
                if let end = timing.end, time >= end - 1e-6 {
                    return finish(track)
                }
                if time <= track.startAt + 1e-6 {
                    track.preroll = try track.converter.makeFrame(from: frame, pts: track.startAt, duration: duration)
                    continue
                }
                let picture = try track.converter.makeFrame(from: frame, pts: time, duration: duration)
                if let preroll = track.preroll {
                    track.preroll = nil
                    track.stash = picture
                    return handOut(preroll, track: track)
                }
                return handOut(picture, track: track)
            case .needInput:
                if track.packets.isEmpty, try !demux(until: track.index) {
                    if !track.sentEndOfStream {
                        track.sentEndOfStream = true
                        _ = try track.decoder.send(nil)
                    }
                    continue
                }
                if let packet = track.packets.first, try track.decoder.send(packet) {
                    track.packets.removeFirst()
                }
            case .finished:
                try checkComplete(reachedTime: (track.lastTime ?? 0) + track.frameDuration, declaredEnd: timing.videoEnd)
                return finish(track)
            }
        }
    }

    /// Where the item's picture ends: the planned end, or the end of the last picture once all are out.
    public var videoEnd: Double? { timing.end ?? video?.endTime }

    private func finish(_ track: VideoTrack) -> VideoFrame? {
        track.finished = true
        guard let preroll = track.preroll else { return nil }
        track.preroll = nil
        return handOut(preroll, track: track)
    }

    private func handOut(_ picture: VideoFrame, track: VideoTrack) -> VideoFrame {
        track.endTime = max(track.endTime ?? 0, picture.pts + picture.duration)
        return picture
    }
}
