// Owns an AVCodecContext for one stream. Fed packets and drained of frames by MediaReader on the decode
// thread (FFmpeg may run its own codec threads inside).

import CFFmpeg

final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let timeBase: AVRational
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The last error a corrupt packet caused (skipped, as FFmpeg's tools do), to explain a track that
    /// yields nothing at all.
    private(set) var lastSkippedError: Int32?
    /// Whether any frame came out of the decoder since it was opened or flushed.
    private(set) var producedFrame = false
    /// Whether any packet went in since it was opened or flushed (an empty track gets none).
    private(set) var receivedPacket = false

    init(stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, path: String) throws(MediaError) {
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
        timeBase = stream.pointee.time_base
        do {
            try check(avcodec_parameters_to_context(context, stream.pointee.codecpar), "open decoder")
            context.pointee.pkt_timebase = stream.pointee.time_base
            if codec.pointee.type == AVMEDIA_TYPE_VIDEO {
                // One decoding thread keeps up with up to 1080p60 on one core at the least CPU and memory
                // (frame threads cost ~10% more CPU and a frame pool each); bigger pictures get one per core.
                let parameters = stream.pointee.codecpar.pointee
                let rate = av_q2d(stream.pointee.avg_frame_rate)
                let load = Double(parameters.width) * Double(parameters.height) * (rate > 0 ? rate : 30)
                context.pointee.thread_count = load <= 1920 * 1088 * 60 ? 1 : 0
            }
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
    }

    /// Sends a packet (nil = end of stream, to drain). Returns false if the decoder is full (receive first).
    func send(_ packet: Packet?) throws(MediaError) -> Bool {
        let result = avcodec_send_packet(context, packet?.pointer)
        if packet != nil { receivedPacket = true }
        if result == AVCodes.again { return false }
        if result == AVCodes.eof { return true }
        // A corrupt packet is not fatal for the item: FFmpeg's own tools skip it too.
        if result == qd_averror(EINVAL) || result == qd_averror(ENOMEM) { try check(result, "decode") }
        if result < 0 { lastSkippedError = result }
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
        if result == AVCodes.again { return .needInput }
        if result == AVCodes.eof { return .finished }
        try check(result, "decode")
        producedFrame = true
        return .frame(frame)
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
