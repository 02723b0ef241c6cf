// One item's media, opened from a ByteSource and read as two timed streams on the item timeline: audio as
// interleaved Float32 chunks at the output format, pictures as VideoFrames. Owned and used by the engine's
// decode thread only (not thread-safe). Packets of the stream not being asked for wait in a per-stream
// queue, so audio and video can be pulled at their own pace whatever the file's interleaving.
import CFFmpeg
import DequeModule

public struct MediaReaderOptions: Sendable {
    public var sampleRate: Int = 48_000
    public var channels: Int = 2
    /// Play only [start, end) of the file (seconds from the file's origin).
    public var start: Double?
    public var end: Double?
    public var shortestTrack: Bool = false
    /// How long a still image is shown.
    public var stillDuration: Double = 10
    /// Decode pictures at all (false with no video output; the video track still shapes the timing).
    public var decodeVideo: Bool = true
    /// Hand every picture out as `.rgba`, alpha kept (overlay images); otherwise formats SDL cannot take
    /// become yuv420p.
    public var rgbaPictures: Bool = false
    /// How long the source may keep the reader waiting (FIFOs), and its cancellation.
    public var sourceLimits = SourceLimits()
    public init() {}
}

public final class MediaReader {
    public let path: String
    public let options: MediaReaderOptions
    public let hasAudio: Bool
    public let hasVideo: Bool
    public let isStill: Bool
    public let timing: ItemTiming
    /// Frames per second of the video track (25 when the file does not say).
    public let frameRate: Double
    /// The picture's size as seen, from its stream (turned, at its pixels' aspect); nil without pictures.
    /// A still's EXIF turn is known only from its decoded picture (`VideoFrame.displaySize`).
    public let displaySize: (width: Int, height: Int)?

    let demuxer: Demuxer
    /// Media time of item time 0.
    let origin: Double
    var audio: AudioTrack?
    var video: VideoTrack?
    var demuxFinished = false
    /// The container's duration on the item timeline (the end of the longest stream, when declared).
    let fileEnd: Double?
    /// Where each track must reach to be complete, when it declares its own end (see checkComplete).
    let audioCheckEnd: Double?
    let videoCheckEnd: Double?
    /// The streams the item plays (audio and video, decoded or not).
    let trackStreams: [Int]
    /// Under shortest track, where the earliest track ends when no declaration said so (see lookAhead).
    var learnedEnd: Double?

    public convenience init(path: String, options: MediaReaderOptions = MediaReaderOptions()) throws(MediaError) {
        try self.init(source: FileByteSource(path: path, limits: options.sourceLimits), path: path, options: options)
    }

    public init(source: ByteSource, path: String, options: MediaReaderOptions) throws(MediaError) {
        self.path = path
        self.options = options
        let demuxer = try Demuxer(source: source, path: path)
        let origin = demuxer.startTime + (options.start ?? 0)
        self.demuxer = demuxer
        self.origin = origin

        let audioStream = demuxer.bestStream(AVMEDIA_TYPE_AUDIO)
        var videoStream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO)
        if let found = videoStream,
            demuxer.stream(found.index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        {
            videoStream = nil  // cover art, not a video track
        }
        guard audioStream != nil || videoStream != nil else {
            let undecodable = demuxer.hasStream(AVMEDIA_TYPE_AUDIO) || demuxer.hasStream(AVMEDIA_TYPE_VIDEO)
            throw MediaError(
                operation: "open", path: path,
                message: undecodable
                    ? "unsupported codec: no decoder for its audio or video" : "no audio or video stream")
        }
        hasAudio = audioStream != nil
        hasVideo = videoStream != nil
        let formatName = String(cString: demuxer.format.pointee.iformat.pointee.name)
        isStill = audioStream == nil && (formatName.hasPrefix("image2") || formatName.hasSuffix("_pipe"))

        var rate = 25.0
        if let videoStream {
            let stream = demuxer.stream(videoStream.index)
            let guess = av_guess_frame_rate(demuxer.format, stream, nil)
            if guess.num > 0 && guess.den > 0 { rate = av_q2d(guess) }
        }
        frameRate = rate
        displaySize = videoStream.flatMap { found -> (width: Int, height: Int)? in
            let stream = demuxer.stream(found.index)
            let width = Int(stream.pointee.codecpar.pointee.width)
            let height = Int(stream.pointee.codecpar.pointee.height)
            guard width > 0, height > 0 else { return nil }
            let ratio = av_guess_sample_aspect_ratio(demuxer.format, stream, nil)
            let aspect = ratio.num > 0 && ratio.den > 0 ? Double(ratio.num) / Double(ratio.den) : 1
            return displayedSize(
                width: width, height: height, sampleAspect: (0.1...10).contains(aspect) ? aspect : 1,
                orientation: Self.orientation(of: stream))
        }

        let windowEnd = options.end.map { $0 - (options.start ?? 0) }
        // The container's duration is the longest stream's: it is a stream's own end only when the file has
        // one stream, and otherwise only says where the file as a whole must reach (see checkComplete).
        let onlyTrack = (audioStream == nil) != (videoStream == nil)
        let fileEnd = demuxer.declaredFileEnd.map { $0 - origin }
        var audioEnd: Double?
        var audioEndIsExact = false
        if let audioStream {
            let declared = demuxer.declaredEnd(ofStream: audioStream.index)
            audioEnd = declared.map { $0.seconds - origin } ?? (onlyTrack ? fileEnd : nil)
            // Exact when the stream's clock counts samples (MP4, FLAC, WAV…): that is where encoder padding is
            // declared; a coarse clock (Matroska's ms) would cut real samples.
            let base = demuxer.stream(audioStream.index).pointee.time_base
            let codecRate = demuxer.stream(audioStream.index).pointee.codecpar.pointee.sample_rate
            audioEndIsExact =
                declared?.inStreamClock == true && base.num > 0 && Double(base.den) / Double(base.num) >= Double(codecRate)
        }
        var videoEnd: Double?
        if isStill {
            videoEnd = options.stillDuration
        } else if let videoStream {
            videoEnd =
                demuxer.declaredEnd(ofStream: videoStream.index).map { $0.seconds - origin } ?? (onlyTrack ? fileEnd : nil)
        }
        timing = ItemTiming(
            audioEnd: audioEnd, audioEndIsExact: audioEndIsExact, videoEnd: videoEnd, windowEnd: windowEnd,
            hasAudio: audioStream != nil, hasVideo: videoStream != nil, shortestTrack: options.shortestTrack)
        self.fileEnd = fileEnd
        // FFmpeg gives a stream it saw no packet of the container's duration as its own: a stream declaring
        // exactly the file's end is judged with the whole file (checkComplete) rather than by itself.
        func ownEnd(_ end: Double?) -> Double? {
            guard let end, let fileEnd, abs(end - fileEnd) < 0.001 else { return end }
            return nil
        }
        audioCheckEnd = ownEnd(audioEnd)
        videoCheckEnd = isStill ? nil : ownEnd(videoEnd)
        trackStreams = [audioStream?.index, videoStream?.index].compactMap { $0 }

        if let audioStream {
            audio = try AudioTrack(
                input: TrackInput(
                    index: audioStream.index,
                    decoder: Decoder(stream: demuxer.stream(audioStream.index), codec: audioStream.codec, path: path)),
                converter: AudioConverter(outputRate: options.sampleRate, outputChannels: options.channels))
        }
        if let videoStream, options.decodeVideo {
            video = try VideoTrack(
                input: TrackInput(
                    index: videoStream.index,
                    decoder: Decoder(stream: demuxer.stream(videoStream.index), codec: videoStream.codec, path: path)),
                frameDuration: 1 / rate, converter: VideoConverter(rgba: options.rgbaPictures),
                orientation: Self.orientation(of: demuxer.stream(videoStream.index)))
        }
        if let start = options.start, start > 0 {
            try demuxer.seek(to: origin)
        }
    }

    /// The item's length in seconds as far as the file declares it before playing it through.
    public var duration: Double? { timing.declaredLength }

    /// Restarts reading at `seconds` of item time (a user's seek).
    public func seek(to seconds: Double) throws(MediaError) {
        try demuxer.seek(to: origin + max(0, seconds))
        demuxFinished = false
        audio?.restart(at: max(0, seconds))
        video?.restart(at: max(0, seconds))
    }

    /// Reads packets until one for `stream` is queued (or `packets` were read); false at the end of the file.
    func demux(until stream: Int, packets: Int = .max) throws(MediaError) -> Bool {
        var budget = packets
        while !demuxFinished && budget > 0 {
            budget -= 1
            guard let packet = try demuxer.readPacket() else {
                demuxFinished = true
                return false
            }
            if packet.streamIndex == audio?.input.index {
                audio?.input.packets.append(packet)
            } else if packet.streamIndex == video?.input.index {
                video?.input.packets.append(packet)
            }
            if packet.streamIndex == stream { return true }
        }
        return false
    }

    /// Gives a track's decoder its next packet (demuxing until one arrives), or the end of the stream.
    func supply(_ input: TrackInput) throws(MediaError) {
        if input.packets.isEmpty, try !demux(until: input.index) {
            if !input.sentEndOfStream {
                input.sentEndOfStream = true
                _ = try input.decoder.send(nil)
            }
            return
        }
        if let packet = input.packets.first, try input.decoder.send(packet) {
            input.packets.removeFirst()
        }
    }

    /// A stream that stops well before the end it declares was cut short (a truncated download or copy):
    /// that is an error for the item, not a normal end. A stream that declares nothing is judged with the
    /// whole file: only when no stream reached the container's duration is the file cut short — a stream
    /// that ends sooner because another one is longer is not damage.
    func checkComplete(reachedTime: Double, declaredEnd: Double?) throws(MediaError) {
        guard !isStill else { return }
        if let declaredEnd {
            try requireReached(reachedTime, of: declaredEnd)
        } else if let fileEnd, demuxFinished {
            let furthest = trackStreams.compactMap { demuxer.packetEnds[$0] }.max().map { $0 - origin }
            try requireReached(max(reachedTime, furthest ?? reachedTime), of: fileEnd)
        }
    }

    private func requireReached(_ reachedTime: Double, of declaredEnd: Double) throws(MediaError) {
        let windowEnd = timing.windowEnd.map { min($0, declaredEnd) } ?? declaredEnd
        if reachedTime < windowEnd - 0.25 {
            throw MediaError(
                operation: "read", path: path,
                message:
                    "the file ends at \(formatted(reachedTime)) s of its declared \(formatted(declaredEnd)) s (truncated?)"
            )
        }
    }

    /// Under shortest track with a track whose end nobody declared, where that track ends is learned by
    /// reading ahead: packets are read (and queued for their decoders) until every played stream has one
    /// reaching past `time`, or the file ends — then the earliest stream end is where the item ends. So
    /// neither track is ever handed out past the other's end, however far ahead the caller reads one.
    func lookAhead(past time: Double) throws(MediaError) {
        guard timing.shortestTrack, timing.audioEnd == nil || timing.videoEnd == nil, learnedEnd == nil else { return }
        func reached(_ stream: Int) -> Bool { (demuxer.packetEnds[stream] ?? -.infinity) - origin > time }
        while !demuxFinished, !trackStreams.allSatisfy(reached) {
            _ = try demux(until: -1, packets: 1)
        }
        if demuxFinished {
            learnedEnd = trackStreams.compactMap { demuxer.packetEnds[$0] }.min().map { $0 - origin }
        }
    }

    /// Where the item ends as known now: declared, or learned by reading ahead.
    public var knownEnd: Double? {
        guard let learnedEnd else { return timing.end }
        return min(timing.end ?? learnedEnd, learnedEnd)
    }

    private func formatted(_ seconds: Double) -> String {
        String(Double((seconds * 100).rounded()) / 100)
    }
}
