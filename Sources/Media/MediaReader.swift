// One item's media, opened from a ByteSource and read as two timed streams on the item timeline: audio as
// interleaved Float32 chunks at the output format, pictures as VideoFrames. Owned and used by the engine's
// decode thread only (not thread-safe). Packets of the stream not being asked for wait in a per-stream
// queue, so audio and video can be pulled at their own pace whatever the file's interleaving.

import CFFmpeg
import MediaPaths
import DecodeChoice
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
    /// Seconds of sound the outputs hold, written and not yet heard: a live stream's latency counts them.
    public var outputDelay: (@Sendable () -> Double)?
    /// Hardware decoding for the video (nil: software): the daemon's devices and what failed.
    public var hwdec: HWDecodeRegistry?
    /// The output a still is shown on: the still is decoded and kept no bigger than filling it needs
    /// (StillScale), so it costs memory in proportion to the screen, not to the file. nil: full size.
    public var stillOutput: PixelSize?
    public init() {}
}

/// Which decoder the video got, and why software when hardware was asked for.
public struct VideoDecoding: Sendable, Hashable {
    /// FFmpeg's codec name (h264, hevc, vp9…).
    public var codec: String
    /// The hardware method decoding it; nil in software.
    public var hwdec: HWMethod?
    /// Why software, when hardware decoding was asked for (nil otherwise).
    public var fallback: String?
}

public final class MediaReader {
    public let path: String
    /// The video's decoder as opened (nil without decoded pictures), or software after a hardware decode
    /// gave up while the item played.
    public internal(set) var videoDecoding: VideoDecoding?
    /// Set when `videoDecoding` changed while the item played (see `takeDecodingChange`).
    var decodingChanged = false
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
    /// Media time of item time 0 (moved once for a stream that goes on at a later item time: `continueStream`).
    private(set) var origin: Double
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
    /// Reading ahead has settled what it can (the file's end, or a track left far behind).
    var lookAheadSettled = false
    /// A live stream's pace (MediaReader+Drift); nil for files and on-demand streams.
    var drift: DriftCorrector?
    /// The part of a frame the sound's compensation still owes (MediaReader+Drift).
    var driftCarry = 0.0
    /// Stream time of the last latency told (MediaReader+Drift).
    var lastLatencyNews: Double?

    public convenience init(path: String, options: MediaReaderOptions = MediaReaderOptions()) throws(MediaError) {
        try self.init(source: FileByteSource(path: path, limits: options.sourceLimits), path: path, options: options)
    }

    public convenience init(source: ByteSource, path: String, options: MediaReaderOptions) throws(MediaError) {
        try self.init(demuxer: Demuxer(source: source, path: path), path: path, options: options)
    }

    /// A stream FFmpeg reads itself (StreamKind): it plays for `stream.duration` (`options.end` is set to
    /// it) or until it ends, reconnecting after a drop (Demuxer+Stream).
    public convenience init(stream: StreamPlayback, options: MediaReaderOptions) throws(MediaError) {
        var options = options
        options.start = nil
        options.end = stream.duration
        options.shortestTrack = false
        let demuxer = try Demuxer(stream: stream, limits: options.sourceLimits)
        try self.init(demuxer: demuxer, path: demuxer.path, options: options)
    }

    // A stream's reader thread ends with its reader, whoever lets it go (a cut, a prefetched play unused).
    deinit { demuxer.closeStream() }

    /// Whether the item is a stream FFmpeg reads itself (no seeking; drops reconnect).
    public var isStream: Bool { demuxer.live != nil }
    /// A stream with no end of its own (it follows its sender's clock).
    public var isLiveStream: Bool { demuxer.live?.isLive ?? false }

    /// A stream's play goes on at item time `position` (after an interrupt, or a restart): there is nothing to
    /// seek to, so what it sends now is placed there, and it plays what is left of its duration.
    public func continueStream(at position: Double) {
        guard isStream, position > 0 else { return }
        origin -= position
        drift?.restart(item: position, stream: position)
        audio?.restart(at: position)
        video?.restart(at: position)
        video?.input.skippingToKeyframe = true
    }

    /// A live stream prepared ahead of its turn: it reads from now on (its connection drained), keeping its
    /// last `latency` seconds (from a keyframe of its picture), so at its join it starts that far behind its
    /// live edge with its first picture at hand. Any thread, before the play reads its first packet.
    public func readAhead() {
        // HLS and DASH deliver in segments: opened is prepared (its playlist read), and reading on would
        // only fetch segments to throw away.
        guard let live = demuxer.live, live.isLive, live.playback.kind != .hls, live.playback.kind != .dash else {
            return
        }
        let keep = live.playback.latency ?? StreamPlayback.defaultLatency
        demuxer.startPump(preroll: (keep, video?.input.index ?? audio?.input.index))
    }

    /// A reader opened ahead becomes the play's: its waits end when `isCancelled` (the play was cut) says
    /// so. Any thread.
    public func adopt(isCancelled: @escaping @Sendable () -> Bool) { demuxer.pump?.adopt(isCancelled: isCancelled) }

    /// A stream's play is fully written: a datagram stream's port is freed now (the next play may bind the
    /// same one before this reader is released).
    public func closeStream() { demuxer.closeStream() }

    init(demuxer: Demuxer, path: String, options: MediaReaderOptions) throws(MediaError) {
        self.path = path
        self.options = options
        let origin = demuxer.startTime + (options.start ?? 0)
        self.demuxer = demuxer
        self.origin = origin

        // A stream's `program` (a multi-program TS): its picture and sound only, chosen among its streams.
        var programStreams: [Int]?
        if let program = demuxer.live?.playback.program {
            guard let streams = Demuxer.streams(ofProgram: program, in: demuxer.format) else {
                let programs = demuxer.programNumbers
                throw MediaError(
                    operation: "open", path: path,
                    message: "no program \(program) in the stream"
                        + (programs.isEmpty ? " (it has no programs)" : " (it has \(programs.map(String.init).joined(separator: ", ")))"))
            }
            programStreams = streams
        }
        var videoStream =
            programStreams.map { demuxer.firstStream(AVMEDIA_TYPE_VIDEO, among: $0) } ?? demuxer.bestStream(AVMEDIA_TYPE_VIDEO)
        if let found = videoStream,
            demuxer.stream(found.index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        {
            videoStream = nil  // cover art, not a video track
        }
        // A stream's sound is the one of its picture's program (a multi-program TS, an HLS variant); a file
        // keeps FFmpeg's own choice.
        let audioStream =
            programStreams.map { demuxer.firstStream(AVMEDIA_TYPE_AUDIO, among: $0) }
            ?? demuxer.bestStream(AVMEDIA_TYPE_AUDIO, relatedTo: demuxer.live != nil ? (videoStream?.index ?? -1) : -1)
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
        let streamOrientation = videoStream.map { Self.orientation(of: demuxer.stream($0.index)) } ?? .upright
        displaySize = videoStream.flatMap { found -> (width: Int, height: Int)? in
            let stream = demuxer.stream(found.index)
            let width = Int(stream.pointee.codecpar.pointee.width)
            let height = Int(stream.pointee.codecpar.pointee.height)
            guard width > 0, height > 0 else { return nil }
            let aspect = Self.sampleAspect(of: stream, frame: nil, format: demuxer.format)
            return PictureOrientation.displayedSize(
                width: width, height: height, sampleAspect: aspect, orientation: streamOrientation)
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
            let countsSamples = base.num > 0 && Double(base.den) / Double(base.num) >= Double(codecRate)
            audioEndIsExact = declared?.inStreamClock == true && countsSamples
        }
        var videoEnd: Double?
        if isStill {
            videoEnd = options.stillDuration
        } else if let videoStream {
            let declared = demuxer.declaredEnd(ofStream: videoStream.index).map { $0.seconds - origin }
            videoEnd = declared ?? (onlyTrack ? fileEnd : nil)
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
            let stream = demuxer.stream(videoStream.index)
            let coded = PixelSize(
                width: Int(stream.pointee.codecpar.pointee.width), height: Int(stream.pointee.codecpar.pointee.height))
            let stillOutput = isStill && coded.width > 0 && coded.height > 0 ? options.stillOutput : nil
            let decoder: Decoder
            if let stillOutput {
                let steps = StillScale.decoderSteps(
                    for: coded, output: stillOutput, maxSteps: Int(videoStream.codec.pointee.max_lowres))
                decoder = try Decoder(stream: stream, codec: videoStream.codec, path: path, reducedBy: steps)
                videoDecoding = VideoDecoding(codec: String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)))
            } else {
                let opened = try Self.videoDecoder(
                    stream, codec: videoStream.codec, path: path, registry: isStill ? nil : options.hwdec)
                decoder = opened.0
                videoDecoding = opened.1
            }
            let converter = VideoConverter(
                rgba: options.rgbaPictures, scaledFor: stillOutput, fileSize: stillOutput == nil ? nil : coded)
            video = try VideoTrack(
                input: TrackInput(index: videoStream.index, decoder: decoder),
                frameDuration: 1 / rate, converter: converter, orientation: streamOrientation)
        }
        if let start = options.start, start > 0 {
            try demuxer.seek(to: origin)
        }
        if demuxer.live != nil {
            // A stream is joined mid-GOP: pictures start at its first keyframe, not as grey garbage.
            video?.input.skippingToKeyframe = true
            // What is not played is not read: HLS and DASH stop fetching the other variants' segments, a
            // multi-program TS drops the other programs' packets.
            for index in 0..<Int(demuxer.format.pointee.nb_streams) where !trackStreams.contains(index) {
                demuxer.stream(index).pointee.discard = AVDISCARD_ALL
            }
            demuxer.live?.playedStreams = Set(trackStreams)
            // A live stream is played at its sender's pace (DriftCorrector); one with an end of its own is
            // read at ours.
            if let live = demuxer.live, live.isLive { drift = DriftCorrector(target: live.playback.latency) }
        }
    }

    /// The video's decoder: on the device the registry gives for its codec, else in software, with the
    /// reason. A device decoder that cannot be opened is remembered as failed for that codec.
    static func videoDecoder(
        _ stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, path: String, registry: HWDecodeRegistry?
    ) throws(MediaError) -> (Decoder, VideoDecoding) {
        let name = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
        guard let registry, registry.setting.methods != .no else {
            return (try Decoder(stream: stream, codec: codec, path: path), VideoDecoding(codec: name))
        }
        let chosen = registry.device(for: name)
        var fallback = chosen.reason
        if let method = chosen.method {
            let remember: (String) -> Void = { reason in registry.failed(method, codec: name, reason: reason) }
            do throws(MediaError) {
                if let device = chosen.device {
                    if let decoder = try Decoder(stream: stream, codec: codec, path: path, device: device, failed: remember) {
                        return (decoder, VideoDecoding(codec: name, hwdec: method))
                    }
                    fallback = "\(method.rawValue): \(name) has no configuration for its device"
                } else if let wrapper = avcodec_find_decoder_by_name(name + "_v4l2m2m") {
                    return (try Decoder(stream: stream, codec: wrapper, path: path), VideoDecoding(codec: name, hwdec: method))
                }
            } catch {
                fallback = "\(method.rawValue): \(error.message)"
            }
            remember(fallback ?? "unusable")
        }
        return (try Decoder(stream: stream, codec: codec, path: path), VideoDecoding(codec: name, fallback: fallback))
    }

    /// The item's length in seconds as far as the file declares it before playing it through: where the
    /// play ends when that is known, else the latest end anything declares (the container's duration too).
    public var duration: Double? {
        let latest = [timing.audioEnd, timing.videoEnd, fileEnd].compactMap { $0 }.max()
        return timing.end ?? ItemTiming.earlier(latest, timing.windowEnd)
    }

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
                if demuxer.live != nil {
                    // A stream that is over (its end, or down beyond its time) ends the item where its
                    // packets reached, not at its planned duration (which would be filled with silence).
                    let reached = mappedTime((demuxer.furthestPacketEnd ?? origin) - origin)  // at its pace
                    learnedEnd = min(learnedEnd ?? reached, reached)
                }
                return false
            }
            if let start = demuxer.trimmedStart {
                // A stream prepared ahead kept only its last moments: the play starts at the first of them.
                demuxer.trimmedStart = nil
                origin = start
            }
            if demuxer.takeReconnected() {
                // A stream came back: what was queued belongs to the lost connection, and the decoders start
                // again (pictures from the next keyframe: a new connection joins mid-GOP).
                audio?.input.restart()
                video?.input.restart()
                video?.input.skippingToKeyframe = true
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
        guard let packet = input.packets.first else { return }
        if input.skippingToKeyframe {
            guard packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else {
                input.packets.removeFirst()
                return
            }
            input.skippingToKeyframe = false
        }
        if try input.decoder.send(packet) {
            input.packets.removeFirst()
        }
    }

    func formatted(_ seconds: Double) -> String {
        String(Double((seconds * 100).rounded()) / 100)
    }
}
