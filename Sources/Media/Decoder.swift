// Owns an AVCodecContext for one stream. Fed packets and drained of frames by MediaReader on the decode
// thread (FFmpeg may run its own codec threads inside). With a hardware device (issue 27) it decodes on the
// device and copies each picture back to memory (`av_hwframe_transfer_data`: NV12 for 8-bit video, which the
// SDL output takes as it is); a profile or size the device refuses goes on in software in the same decoder
// (get_format offers a software format), and a failure is handed to `failed` so that later items do not try
// again. When the hardware gives up while the item plays (three errors in a row, a failed copy-back, no first
// picture in time: HWDecodeMonitor), the decoder says so (`softwareWanted`) and its owner swaps in
// `softwareReplacement()`: before the first picture it is sent again the packets sent so far (nothing lost);
// after it, it starts at the next keyframe while the last picture holds. Where FFmpeg's choice for the stream
// is a software-only decoder (libdav1d for AV1), the device gets FFmpeg's own decoder of the codec, which has
// the device configurations but cannot go on in software: a refused profile then replays into the stream's
// software decoder instead of going on in the same one.

import CFFmpeg
import DecodeChoice
import SystemClock

final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let timeBase: AVRational
    /// The stream's parameters as opened (a copy: a live stream's context is replaced, and freed, by its
    /// reader thread at a reconnect) and its software codec, for a software replacement.
    private let description: StreamDescription
    private let softwareCodec: UnsafePointer<AVCodec>
    private let path: String
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The last error a corrupt packet caused (skipped, as FFmpeg's tools do), to explain a track that
    /// yields nothing at all.
    private(set) var lastSkippedError: Int32?
    /// Whether any frame came out of the decoder since it was opened or flushed.
    private(set) var producedFrame = false
    /// Whether any packet went in since it was opened or flushed (an empty track gets none).
    private(set) var receivedPacket = false
    /// Decoding on a device: the session get_format and receive consult (nil: software).
    private let hardware: HardwareSession?
    /// Hardware pictures are copied back into this frame.
    private var transferred: UnsafeMutablePointer<AVFrame>?

    /// What get_format needs, found through the codec context's `opaque` (it is called from FFmpeg's code
    /// on the decode thread); owned by the Decoder, so it outlives every call.
    final class HardwareSession {
        /// Packets kept for a replay before the first picture; past this many, software starts at a keyframe.
        static let replayLimit = 256

        let method: HWMethod
        let format: AVPixelFormat
        let firstPictureTimeout: Double
        /// Whether the decoder can go on in software when get_format finds no device format (FFmpeg's own
        /// H.264, HEVC, VP9 decoders can; its AV1 decoder cannot, so a refusal replays into libdav1d).
        let softwareInSameDecoder: Bool
        var monitor: HWDecodeMonitor
        /// Told once when the hardware gives up on this stream (the reason), on the decode thread.
        let failed: (String) -> Void
        /// Where software must take over, once the monitor gave up on a running decode (nil: it goes on, or
        /// get_format already turned the same decoder to software).
        private(set) var wanted: (resume: HWDecodeMonitor.Resume, reason: String)?
        /// The packets sent before the first picture (references), to send a replacement again.
        private(set) var sentBeforeFirstPicture: [Packet] = []
        private var replayOverflowed = false

        init(
            method: HWMethod, format: AVPixelFormat, firstPictureTimeout: Double = 2, softwareInSameDecoder: Bool = true,
            failed: @escaping (String) -> Void
        ) {
            self.method = method
            self.softwareInSameDecoder = softwareInSameDecoder
            self.format = format
            self.firstPictureTimeout = firstPictureTimeout
            self.failed = failed
            monitor = HWDecodeMonitor(method: method, started: Monotonic.now(), firstPictureTimeout: firstPictureTimeout)
        }

        /// A packet the decoder took. The first starts the first-picture clock (the reader may be opened well
        /// before it plays).
        func sent(_ packet: Packet, first: Bool) {
            if first {
                monitor = HWDecodeMonitor(method: method, started: Monotonic.now(), firstPictureTimeout: firstPictureTimeout)
            }
            guard monitor.pictures == 0, !replayOverflowed else { return }
            if sentBeforeFirstPicture.count < Self.replayLimit {
                sentBeforeFirstPicture.append(packet)
            } else {
                replayOverflowed = true
                sentBeforeFirstPicture = []
            }
        }

        func take(_ event: HWDecodeMonitor.Event) {
            if case .picture = event, !sentBeforeFirstPicture.isEmpty { sentBeforeFirstPicture = [] }
            guard case .software(let reason, let resume) = monitor.take(event, now: Monotonic.now()) else { return }
            failed(reason)
            switch resume {
            case .sameDecoder:
                // A refusal after pictures (a new sequence mid-stream) has nothing kept to replay.
                guard !softwareInSameDecoder else { break }
                wanted = (monitor.pictures == 0 && !replayOverflowed ? .replayPackets : .nextKeyframe, reason)
            case .replayPackets: wanted = (replayOverflowed ? .nextKeyframe : .replayPackets, reason)
            case .nextKeyframe: wanted = (.nextKeyframe, reason)
            }
        }
    }

    /// The device's picture format for `codec`, when the codec can decode on that kind of device.
    static func hardwareFormat(_ codec: UnsafePointer<AVCodec>, method: HWMethod) -> AVPixelFormat? {
        guard let type = HWDevice.deviceType(method) else { return nil }
        var index: Int32 = 0
        while let config = avcodec_get_hw_config(codec, index) {
            if config.pointee.device_type == type
                && config.pointee.methods & Int32(AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) != 0
            {
                return config.pointee.pix_fmt
            }
            index += 1
        }
        return nil
    }

    /// FFmpeg's choice of picture format: the device's if offered; otherwise the stream's profile or size is
    /// refused by the device, and the first software format lets the same decoder go on without it (where
    /// it can: FFmpeg's AV1 decoder cannot, and its session then asks for a software replacement).
    private static let chooseFormat:
        @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPixelFormat>?) -> AVPixelFormat = {
            context, formats in
            guard let context, let formats else { return AV_PIX_FMT_NONE }
            guard let opaque = context.pointee.opaque else { return formats.pointee }
            let session = Unmanaged<HardwareSession>.fromOpaque(opaque).takeUnretainedValue()
            var index = 0
            var software: AVPixelFormat?
            while formats[index] != AV_PIX_FMT_NONE {
                let format = formats[index]
                if format == session.format && !session.monitor.gaveUp { return format }
                if software == nil, let description = av_pix_fmt_desc_get(format),
                    description.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0
                {
                    software = format
                }
                index += 1
            }
            let profile = avcodec_profile_name(context.pointee.codec_id, context.pointee.profile).map { String(cString: $0) }
            session.take(.formatRefused("\(profile.map { $0 + " " } ?? "")\(context.pointee.width)x\(context.pointee.height)"))
            return software ?? formats.pointee
        }

    /// The decoder to open on a `method` device for a stream whose software decoder is `software`, and the
    /// device's picture format; nil when neither it nor FFmpeg's own decoder of the codec (found by the
    /// codec's name: `av1` beside libdav1d) has a configuration for that kind of device.
    static func deviceDecoder(
        for stream: UnsafeMutablePointer<AVStream>, software: UnsafePointer<AVCodec>, method: HWMethod
    ) -> (codec: UnsafePointer<AVCodec>, format: AVPixelFormat)? {
        let own = avcodec_find_decoder_by_name(avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
        for codec in [software, own].compactMap({ $0 }) {
            if let format = hardwareFormat(codec, method: method) { return (codec, format) }
        }
        return nil
    }

    /// A decoder on `device`, or nil when the stream's codec cannot use that kind of device.
    convenience init?(
        stream: UnsafeMutablePointer<AVStream>, codec software: UnsafePointer<AVCodec>, path: String, device: HWDevice,
        failed: @escaping (String) -> Void
    ) throws(MediaError) {
        guard let (codec, format) = Self.deviceDecoder(for: stream, software: software, method: device.method) else {
            return nil
        }
        let session = HardwareSession(
            method: device.method, format: format, softwareInSameDecoder: codec == software, failed: failed)
        try self.init(stream: stream, codec: codec, softwareCodec: software, path: path, hardware: (session, device))
    }

    /// Tests: a software decoder watched as if it ran on `method` (there is no device here), so that the
    /// give-up paths — a replay, a keyframe restart — run on real FFmpeg decodes. `session` drives it.
    /// With `softwareCodec` other than `codec`, `codec` is watched as a device's decoder that cannot decode
    /// in software (FFmpeg's AV1): get_format finds no device format, and the replay goes to `softwareCodec`.
    static func watchedSoftware(
        stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, softwareCodec: UnsafePointer<AVCodec>? = nil,
        path: String, method: HWMethod, firstPictureTimeout: Double, failed: @escaping (String) -> Void
    ) throws(MediaError) -> (decoder: Decoder, session: HardwareSession) {
        let software = softwareCodec ?? codec
        let session = HardwareSession(
            method: method, format: AV_PIX_FMT_NONE, firstPictureTimeout: firstPictureTimeout,
            softwareInSameDecoder: software == codec, failed: failed)
        let decoder = try Decoder(
            stream: stream, codec: codec, softwareCodec: software, path: path, hardware: (session, nil))
        return (decoder, session)
    }

    /// `reducedBy`: halvings of the picture the decoder makes as it decodes (FFmpeg's `lowres`, which only
    /// some decoders, JPEG's among them, offer: see `max_lowres`); 0 decodes at full size.
    convenience init(
        stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, path: String, reducedBy steps: Int = 0
    ) throws(MediaError) {
        try self.init(stream: stream, codec: codec, softwareCodec: codec, path: path, hardware: nil, lowres: Int32(steps))
    }

    private convenience init(
        stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, softwareCodec: UnsafePointer<AVCodec>,
        path: String,
        hardware: (session: HardwareSession, device: HWDevice?)?, lowres: Int32 = 0
    ) throws(MediaError) {
        try self.init(
            description: StreamDescription(stream, path: path), codec: codec, softwareCodec: softwareCodec, path: path,
            hardware: hardware, lowres: lowres)
    }

    private init(
        description: StreamDescription, codec: UnsafePointer<AVCodec>, softwareCodec: UnsafePointer<AVCodec>,
        path: String,
        hardware: (session: HardwareSession, device: HWDevice?)?, lowres: Int32 = 0
    ) throws(MediaError) {
        // Allocated one at a time so a failure frees what was allocated; once both are stored, a throw
        // below runs `deinit`, which alone frees them.
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError(operation: "open decoder", path: path, message: "out of memory")
        }
        guard let frame = av_frame_alloc() else {
            var optional: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&optional)
            throw MediaError(operation: "open decoder", path: path, message: "out of memory")
        }
        self.context = context
        self.frame = frame
        self.hardware = hardware?.session
        self.description = description
        self.softwareCodec = softwareCodec
        self.path = path
        timeBase = description.timeBase
        do {
            try check(avcodec_parameters_to_context(context, description.parameters), "open decoder")
            context.pointee.pkt_timebase = description.timeBase
            if codec.pointee.type == AVMEDIA_TYPE_VIDEO {
                // One decoding thread keeps up with up to 1080p60 on one core at the least CPU and memory
                // (frame threads cost ~10% more CPU and a frame pool each); bigger pictures get one per core.
                let parameters = description.parameters.pointee
                let rate = av_q2d(description.frameRate)
                let load = Double(parameters.width) * Double(parameters.height) * (rate > 0 ? rate : 30)
                context.pointee.thread_count = load <= 1920 * 1088 * 60 ? 1 : 0
            }
            if let hardware, hardware.device != nil || !hardware.session.softwareInSameDecoder {
                // On the device, one thread: get_format is called on the decode thread, no frame-thread pools.
                // (In tests, a watched decoder playing FFmpeg's AV1 on a device has no device but this get_format.)
                context.pointee.thread_count = 1
                context.pointee.opaque = Unmanaged.passUnretained(hardware.session).toOpaque()
                context.pointee.get_format = Self.chooseFormat
            }
            if let hardware, let device = hardware.device {
                context.pointee.hw_device_ctx = av_buffer_ref(device.buffer)
                transferred = av_frame_alloc()
            }
            context.pointee.lowres = min(lowres, Int32(codec.pointee.max_lowres))
            try check(avcodec_open2(context, codec, nil), "open decoder")
        } catch {
            throw error.at(path)
        }
    }

    deinit {
        var optionalContext: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&optionalContext)
        var optionalFrame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&optionalFrame)
        var optionalTransferred = transferred
        av_frame_free(&optionalTransferred)
    }


    /// Sends a packet (nil = end of stream, to drain). Returns false if the decoder is full (receive first).
    func send(_ packet: Packet?) throws(MediaError) -> Bool {
        let first = !receivedPacket
        let result = avcodec_send_packet(context, packet?.pointer)
        if packet != nil { receivedPacket = true }
        if result == AVCodes.again { return false }  // not taken: it comes again
        if let hardware, let packet { hardware.sent(packet, first: first) }
        if result == AVCodes.eof { return true }
        // A corrupt packet is not fatal for the item: FFmpeg's own tools skip it too.
        if result == qd_averror(EINVAL) || result == qd_averror(ENOMEM) { try check(result, "decode") }
        if result < 0 {
            lastSkippedError = result
            hardware?.take(.decodeError(MediaError.text(for: result)))
        }
        return true
    }

    enum Output {
        case frame(UnsafeMutablePointer<AVFrame>)  // valid until the next receive; the caller may move its refs
        case needInput
        case finished
    }

    func receive() throws(MediaError) -> Output {
        av_frame_unref(frame)
        let result = avcodec_receive_frame(context, frame)
        if result == AVCodes.again {
            hardware?.take(.tick)
            return .needInput
        }
        if result == AVCodes.eof { return .finished }
        if result < 0, let hardware, !hardware.monitor.gaveUp || hardware.wanted != nil {
            // Counted, not fatal: the monitor gives up after three in a row, and the owner swaps in software.
            hardware.take(.decodeError(MediaError.text(for: result)))
            return .needInput
        }
        try check(result, "decode")
        producedFrame = true
        if let hardware, frame.pointee.format == hardware.format.rawValue, let transferred {
            // Back to memory (NV12 for 8-bit video), with the picture's times and side data.
            av_frame_unref(transferred)
            let copied = av_hwframe_transfer_data(transferred, frame, 0)
            guard copied >= 0, av_frame_copy_props(transferred, frame) >= 0 else {
                if !hardware.monitor.gaveUp {
                    hardware.take(.transferFailed(MediaError.text(for: copied)))
                    return .needInput
                }
                throw MediaError(code: copied, operation: "decode", message: "copying a hardware picture back failed")
            }
            hardware.take(.picture)
            return .frame(transferred)
        }
        hardware?.take(.picture)
        return .frame(frame)
    }

    /// Why and how software must take over this decode, once the hardware gave up on it while it ran.
    var softwareWanted: (resume: HWDecodeMonitor.Resume, reason: String)? { hardware?.wanted }

    /// A software decoder for the same stream, and the packets to send it first (those this one was sent
    /// before its first picture, for a replay; none when it must start at the next keyframe).
    func softwareReplacement() throws(MediaError) -> (decoder: Decoder, replay: [Packet]) {
        let replacement = try Decoder(
            description: description, codec: softwareCodec, softwareCodec: softwareCodec, path: path, hardware: nil)
        guard let wanted = softwareWanted, wanted.resume == .replayPackets else { return (replacement, []) }
        return (replacement, hardware?.sentBeforeFirstPicture ?? [])
    }

    func flush() {
        avcodec_flush_buffers(context)
        producedFrame = false
        receivedPacket = false
    }

    /// The error for a track whose decoder finished without producing a single frame.
    func nothingDecoded(_ what: String) -> MediaError {
        let reason = lastSkippedError.map { " (\(MediaError.text(for: $0)))" } ?? ""
        return MediaError(code: lastSkippedError ?? 0, operation: "decode", message: what + reason)
    }

    /// A frame's presentation time in seconds, when it has one.
    func seconds(of frame: UnsafeMutablePointer<AVFrame>) -> Double? {
        let pts =
            frame.pointee.best_effort_timestamp != AVCodes.noPTS
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        return pts == AVCodes.noPTS ? nil : Double(pts) * av_q2d(timeBase)
    }
}

/// A stream's parameters, time base and frame rate, copied at open: what a decoder is opened from, owned
/// apart from the demuxer's context.
final class StreamDescription {
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    let frameRate: AVRational

    init(_ stream: UnsafeMutablePointer<AVStream>, path: String) throws(MediaError) {
        guard let parameters = avcodec_parameters_alloc() else {
            throw MediaError(operation: "open decoder", path: path, message: "out of memory")
        }
        let copied = avcodec_parameters_copy(parameters, stream.pointee.codecpar)
        guard copied >= 0 else {
            var optional: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&optional)
            throw MediaError(code: copied, operation: "open decoder", path: path, message: MediaError.text(for: copied))
        }
        self.parameters = parameters
        timeBase = stream.pointee.time_base
        frameRate = stream.pointee.avg_frame_rate
    }

    deinit {
        var optional: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&optional)
    }
}
