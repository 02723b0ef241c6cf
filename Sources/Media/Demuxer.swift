// Owns an AVFormatContext reading from a ByteSource — or, for a stream (Demuxer+Stream), the connection
// FFmpeg opened on its URL. Used by one MediaReader on the decode thread; hands out packets per stream and
// never touches decoders. A file's context is freed in one place only, `deinit` (which also runs when
// `init` throws after setting every stored property); a stream's with its StreamConnection.

import CFFmpeg
import MediaPaths
import Glibc

final class Demuxer {
    var format: UnsafeMutablePointer<AVFormatContext>
    private let io: AVIOBridge?
    /// A stream's connection and reconnects (nil for bytes read through `io`). Its reader thread's once the
    /// pump runs.
    let live: LiveStream?
    /// A stream's reader thread and the packets it read (nil for a file).
    private(set) var pump: StreamPump?
    /// A stream's: per stream of the first connection, its own and its codec's pixel aspect, read at open —
    /// the decode thread never reads the stream's context once the reader thread may replace it.
    private(set) var aspectHints: [(stream: AVRational, codec: AVRational)] = []
    /// Decode thread: the connection restarted before the packet last taken (see `takeReconnected`).
    var restartTaken = false
    /// The pump's reader thread was started (by the first packet asked for, or ahead of the play's turn).
    var pumpStarted = false
    /// Decode thread: where a stream prepared ahead now starts, its beginning cut (StreamPump's preroll).
    var trimmedStart: Double?
    let path: String

    init(source: ByteSource, path: String) throws(MediaError) {
        self.path = path
        live = nil
        pump = nil
        let io = try AVIOBridge(source: source)
        self.io = io
        guard let context = avformat_alloc_context() else {
            throw MediaError(operation: "open", path: path, message: "out of memory")
        }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Formats that name other files or URLs (HLS, DASH, concat lists, image sequences) make FFmpeg open
        // them itself through io_open: refused, so an item can only ever play the bytes it was given.
        context.pointee.io_open = { _, _, _, _, _ in -EPERM }
        // The concat demuxer opens its entries as inputs of their own, with FFmpeg's default io_open but
        // this context's protocol whitelist: one no protocol is on (the item's bytes need none; they come
        // from `io`). Freed with the context.
        context.pointee.protocol_whitelist = av_strdup("none")
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        // The path is only a hint for probing by extension; bytes come from `io`.
        let opened = avformat_open_input(&optional, path, nil, nil)
        guard opened >= 0, let opened_ = optional else {
            // avformat_open_input frees the context on failure.
            throw (io.lastError ?? MediaError(code: opened, operation: "open", message: MediaError.text(for: opened)))
                .at(path)
        }
        // From here on every stored property is set, so a throw runs `deinit`: it alone closes the input.
        format = opened_
        let info = avformat_find_stream_info(format, nil)
        if info < 0 {
            throw MediaError(code: info, operation: "find stream info", path: path, message: MediaError.text(for: info))
        }
        notePacketClocks()
    }

    /// A stream: FFmpeg opens `stream.url` itself (see StreamConnection), and reconnects are read through
    /// by its reader thread (StreamPump), started with the first packet asked for.
    init(stream: StreamPlayback, limits: SourceLimits) throws(MediaError) {
        path = StreamKind.redacted(stream.url)
        io = nil
        let pump = StreamPump()
        var limits = limits
        let cancelled = limits.isCancelled
        // Every wait of the reader (its reads, opens, backoff) ends at a stop as at a cut.
        limits.isCancelled = { pump.isStopping || cancelled?() == true }
        let connection = try StreamConnection.openRetrying(
            stream, isCancelled: limits.isCancelled, onWaiting: limits.onWaiting)
        let live = LiveStream(playback: stream, limits: limits, connection: connection)
        // The reader waiting for the network is heard only once the queue has run dry (a live HLS waits at
        // its edge for every segment while a queue of them plays); a drop is told as such, at once.
        let told = limits.onWaiting
        live.readWaiting = { waiting in if !waiting || pump.isEmpty { told?(waiting) } }
        connection.interrupt.reportWaits(to: live.readWaiting)
        self.live = live
        self.pump = pump
        format = connection.context
        notePacketClocks()
        aspectHints = (0..<Int(format.pointee.nb_streams)).map { index in
            let stream = format.pointee.streams[index]!.pointee
            return (stream.sample_aspect_ratio, stream.codecpar.pointee.sample_aspect_ratio)
        }
    }

    private func notePacketClocks() {
        packetClocks = (0..<Int(format.pointee.nb_streams)).map { index in
            let s = format.pointee.streams[index]!.pointee
            let rate = s.avg_frame_rate
            let isVideo = s.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && rate.num > 0 && rate.den > 0
            return PacketClock(secondsPerTick: av_q2d(s.time_base), pictureSeconds: isVideo ? 1 / av_q2d(rate) : 0)
        }
        packetEnds = Array(repeating: nil, count: packetClocks.count)
    }

    deinit {
        // A stream's context is its connection's to close.
        guard live == nil else { return }
        var optional: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&optional)
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        format.pointee.streams[index]!
    }

    /// The best stream of a kind with a decoder available, or nil.
    /// `related`: a stream of the same program is preferred (a multi-program TS, an HLS variant: the sound
    /// that goes with the picture).
    func bestStream(_ type: AVMediaType, relatedTo related: Int = -1) -> (index: Int, codec: UnsafePointer<AVCodec>)? {
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, type, -1, Int32(related), &codec, 0)
        guard index >= 0, let codec else { return nil }
        return (Int(index), codec)
    }

    /// The numbers of the programs a multi-program source (an MPEG-TS) declares, in its order.
    var programNumbers: [Int] {
        (0..<Int(format.pointee.nb_programs)).compactMap { format.pointee.programs[$0].map { Int($0.pointee.id) } }
    }

    /// The streams of program `number` in `context`, or nil when it has no such program with streams.
    static func streams(ofProgram number: Int, in context: UnsafeMutablePointer<AVFormatContext>) -> [Int]? {
        for index in 0..<Int(context.pointee.nb_programs) {
            guard let program = context.pointee.programs[index]?.pointee, Int(program.id) == number,
                program.nb_stream_indexes > 0
            else { continue }
            return (0..<Int(program.nb_stream_indexes)).map { Int(program.stream_index[$0]) }
        }
        return nil
    }

    /// The first stream of a kind among `indexes` with a decoder available (not cover art), or nil: a
    /// program's own choice (FFmpeg's best-stream search starts from a stream, and a stream shared with an
    /// earlier program would lead it there).
    func firstStream(_ type: AVMediaType, among indexes: [Int]) -> (index: Int, codec: UnsafePointer<AVCodec>)? {
        for index in indexes where index < Int(format.pointee.nb_streams) {
            let candidate = stream(index).pointee
            guard candidate.codecpar.pointee.codec_type == type,
                candidate.disposition & AV_DISPOSITION_ATTACHED_PIC == 0,
                let codec = avcodec_find_decoder(candidate.codecpar.pointee.codec_id)
            else { continue }
            return (index, codec)
        }
        return nil
    }

    /// Whether the file has a stream of this kind at all (decodable or not).
    func hasStream(_ type: AVMediaType) -> Bool {
        (0..<Int(format.pointee.nb_streams)).contains { stream($0).pointee.codecpar.pointee.codec_type == type }
    }

    /// The next packet, or nil at the end of the file.
    func readPacket() throws(MediaError) -> Packet? {
        if let live { return try takeStreamPacket(live) }
        let packet = try Packet()
        let result = av_read_frame(format, packet.pointer)
        if result == AVCodes.eof { return nil }
        if result < 0 {
            throw (io?.lastError ?? MediaError(code: result, operation: "read", message: MediaError.text(for: result)))
                .at(path)
        }
        notePacketEnd(packet.pointer.pointee)
        return packet
    }

    /// A stream's clock, read once at open so that noting a packet's end costs no lookups.
    private struct PacketClock {
        var secondsPerTick: Double
        /// How long a picture without a packet duration lasts (a browser's WebM); 0 for other streams.
        var pictureSeconds: Double
    }

    /// Per stream found at open; never changed after (the reader thread of a stream reads it too).
    private var packetClocks: [PacketClock] = []
    /// Per stream found at open, the furthest end (timestamp + duration, seconds from the file's time
    /// origin) of the packets read so far: once the file is read through, where each stream really ends.
    private var packetEnds: [Double?] = []

    /// Where `stream`'s packets read so far end (nil: none read, or a stream that appeared later).
    func packetEnd(of stream: Int) -> Double? { stream < packetEnds.count ? packetEnds[stream] : nil }

    /// The furthest any stream's packets read so far reach.
    var furthestPacketEnd: Double? { packetEnds.compactMap { $0 }.max() }

    func notePacketEnd(_ packet: AVPacket) {
        guard let span = span(of: packet) else { return }
        if span.end > packetEnds[span.index] ?? -.infinity { packetEnds[span.index] = span.end }
    }

    /// Where `packet` starts and ends (seconds from the file's time origin). Any thread: the clocks are
    /// read once at open and never change (a stream's reader thread uses it too).
    func span(of packet: AVPacket) -> (index: Int, start: Double, end: Double)? {
        let index = Int(packet.stream_index)
        guard index < packetClocks.count else { return nil }
        let stamp = packet.pts != AVCodes.noPTS ? packet.pts : packet.dts
        guard stamp != AVCodes.noPTS else { return nil }
        // In Double: a hostile timestamp near Int64.max must not trap. A picture without a duration lasts
        // one frame, or its stream would seem to end a frame early.
        let clock = packetClocks[index]
        let duration = packet.duration > 0 ? Double(packet.duration) * clock.secondsPerTick : clock.pictureSeconds
        let start = Double(stamp) * clock.secondsPerTick
        let end = start + duration
        guard start.isFinite, end.isFinite else { return nil }
        return (index, start, end)
    }

    /// Seeks so that the next packets start at or before `seconds` (from the file's time origin).
    func seek(to seconds: Double) throws(MediaError) {
        let timestamp = Int64(seconds * Double(AV_TIME_BASE))
        do {
            try check(avformat_seek_file(format, -1, Int64.min, timestamp, timestamp, 0), "seek")
        } catch {
            throw error.at(path)
        }
    }

    /// The file's start time in seconds (0 when unknown).
    var startTime: Double {
        if let live { return live.initialStart }
        let start = format.pointee.start_time
        return start == AVCodes.noPTS ? 0 : Double(start) / Double(AV_TIME_BASE)
    }

    /// A stream's declared end in seconds (start + duration), when the stream itself says: its own
    /// duration, or (Matroska, WebM) its DURATION tag. Not the container's duration, which is only the
    /// longest stream's, and not a duration FFmpeg guessed from the bit rate.
    func declaredEnd(ofStream index: Int) -> (seconds: Double, inStreamClock: Bool)? {
        let s = stream(index).pointee
        let start = s.start_time == AVCodes.noPTS ? 0 : s.start_time
        let base = av_q2d(s.time_base)
        if s.duration != AVCodes.noPTS, s.duration > 0,
            format.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
        {
            return ((Double(start) + Double(s.duration)) * base, true)
        }
        // FFmpeg's muxer writes the tag as where the track's last block ends (its largest timestamp +
        // duration); mkvmerge as the track's length from its first timestamp.
        if let tag = av_dict_get(s.metadata, "DURATION", nil, 0),
            let length = MatroskaDurationTag.seconds(String(cString: tag.pointee.value))
        {
            return (writtenByFFmpeg ? length : Double(start) * base + length, false)
        }
        return nil
    }

    /// The file says FFmpeg's libavformat wrote it (Matroska's muxing app, as FFmpeg exports it).
    private var writtenByFFmpeg: Bool {
        guard let tag = av_dict_get(format.pointee.metadata, "encoder", nil, 0) else { return false }
        return String(cString: tag.pointee.value).hasPrefix("Lavf")
    }

    /// The container's duration as an end in seconds from the file's time origin (nil: unknown, or only
    /// guessed from the bit rate).
    var declaredFileEnd: Double? {
        let duration = format.pointee.duration
        guard duration > 0, format.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE else {
            return nil
        }
        return Double(duration) / Double(AV_TIME_BASE) + startTime
    }
}
