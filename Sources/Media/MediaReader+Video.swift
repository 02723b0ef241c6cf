// The video half of MediaReader: decoded pictures with item-relative times. The last picture at or before
// the start is shown at the start (a window or seek rarely lands on a frame), pictures at or past the
// item's end are not shown.

import CFFmpeg
import DequeModule

final class VideoTrack {
    let input: TrackInput
    let converter: VideoConverter
    let frameDuration: Double
    /// The turn the stream's display matrix asks for (read once at open).
    let orientation: PictureOrientation
    var startAt: Double = 0
    /// The latest picture at or before `startAt`, shown at `startAt` once the next one proves it current.
    var preroll: VideoFrame?
    /// A picture decoded while the preroll was being handed out.
    var stash: VideoFrame?
    var lastTime: Double?
    var finished = false
    /// The end of the last picture handed out (its time plus its duration).
    var endTime: Double?

    init(input: TrackInput, frameDuration: Double, converter: VideoConverter, orientation: PictureOrientation) {
        self.input = input
        self.orientation = orientation
        self.converter = converter
        self.frameDuration = frameDuration
    }

    func restart(at seconds: Double) {
        input.restart()
        startAt = seconds
        preroll = nil
        stash = nil
        lastTime = nil
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
            if track.input.decoder.softwareWanted != nil { try switchToSoftware(track) }
            switch try track.input.decoder.receive() {
            case .frame(let frame):
                var duration =
                    frame.pointee.pkt_duration > 0
                    ? Double(frame.pointee.pkt_duration) * av_q2d(track.input.decoder.timeBase) : track.frameDuration
                let stamped = track.input.decoder.seconds(of: frame).map { $0 - origin }
                var time = stamped ?? ((track.lastTime ?? -track.frameDuration) + track.frameDuration)
                if drift != nil, let stamped {
                    // A live stream's pictures are placed by its pace, as its sound is (MediaReader+Drift);
                    // without sound they steer it.
                    if !hasAudio { steer(at: stamped) }
                    time = mappedTime(stamped)
                    duration /= drift?.pace ?? 1
                }
                track.lastTime = time
                try lookAhead(past: time + duration)
                if let end = knownEnd, time >= end - 1e-6 {
                    return finish(track)
                }
                let look = look(of: frame, streamOrientation: track.orientation, stream: track.input.index)
                if time <= track.startAt + 1e-6 {
                    track.preroll = try track.converter.makeFrame(
                        from: frame, pts: track.startAt, duration: duration, orientation: look.orientation,
                        sampleAspect: look.sampleAspect)
                    continue
                }
                let picture = try track.converter.makeFrame(
                    from: frame, pts: time, duration: duration, orientation: look.orientation,
                    sampleAspect: look.sampleAspect)
                if let preroll = track.preroll {
                    track.preroll = nil
                    track.stash = picture
                    return handOut(preroll, track: track)
                }
                return handOut(picture, track: track)
            case .needInput:
                try supply(track.input)
            case .finished:
                // No picture from a track that got packets is damage; a video track with no packet at all
                // beside an audio track is an empty track: the item plays its sound.
                guard track.input.decoder.producedFrame || (hasAudio && !track.input.decoder.receivedPacket) else {
                    throw track.input.decoder.nothingDecoded(
                        isStill ? "the image could not be decoded" : "the video track yielded no picture"
                    ).at(path)
                }
                try checkComplete(
                    reachedTime: (track.lastTime ?? 0) + track.frameDuration, declaredEnd: videoCheckEnd)
                return finish(track)
            }
        }
    }

    /// The hardware gave up on the running decode: software takes over, from the packets it was sent before
    /// its first picture, or from the next keyframe (the last picture shown holds until then).
    private func switchToSoftware(_ track: VideoTrack) throws(MediaError) {
        guard let wanted = track.input.decoder.softwareWanted else { return }
        let (replacement, replay) = try track.input.decoder.softwareReplacement()
        track.input.replaceDecoder(replacement, replay: replay, skipToKeyframe: wanted.resume == .nextKeyframe)
        videoDecoding = VideoDecoding(codec: videoDecoding?.codec ?? "", hwdec: nil, fallback: wanted.reason)
        decodingChanged = true
    }

    /// The video's decoder, when it changed since the last call (a hardware decode gave up mid-item).
    public func takeDecodingChange() -> VideoDecoding? {
        guard decodingChanged else { return nil }
        decodingChanged = false
        return videoDecoding
    }

    /// Where the item's picture ends: the planned (or learned) end, or the end of the last picture once all
    /// are out.
    public var videoEnd: Double? { knownEnd ?? video?.endTime }

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
