// Encodes an RGBA picture as PNG with libavcodec's PNG encoder. Called by the video sink's screenshot path
// on the requesting thread (never the presenter thread, where it would stall video); stateless, any thread.
// Every FFmpeg object is owned here and freed before returning; failures are MediaErrors with FFmpeg's text.

import CFFmpeg

public enum PNGEncoder {
    /// Returns the PNG file bytes for `rgba` (`width * height * 4` bytes, top row first).
    public static func encode(rgba: [UInt8], width: Int, height: Int) throws(MediaError) -> [UInt8] {
        guard width > 0, height > 0, width <= 32_768, height <= 32_768 else {
            throw MediaError(operation: "encode PNG", message: "bad size \(width)x\(height)")
        }
        guard rgba.count == width * height * 4 else {
            throw MediaError(operation: "encode PNG", message: "\(rgba.count) bytes for \(width)x\(height) RGBA")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(operation: "find PNG encoder", message: "this libavcodec has no PNG encoder")
        }

        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let ctx = context else { throw outOfMemory("allocate PNG encoder") }
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGBA
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        try check(avcodec_open2(ctx, codec, nil), "open PNG encoder")

        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let frm = frame else { throw outOfMemory("allocate frame") }
        frm.pointee.width = Int32(width)
        frm.pointee.height = Int32(height)
        frm.pointee.format = AV_PIX_FMT_RGBA.rawValue
        try check(av_frame_get_buffer(frm, 0), "allocate frame buffer")
        copyRows(rgba, width: width, height: height, into: frm)

        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let pkt = packet else { throw outOfMemory("allocate packet") }

        try check(avcodec_send_frame(ctx, frm), "encode PNG")
        try check(avcodec_send_frame(ctx, nil), "flush PNG encoder")
        var png: [UInt8] = []
        while true {
            let rc = avcodec_receive_packet(ctx, pkt)
            if rc == AVCodes.eof { break }
            try check(rc, "receive PNG")
            if let data = pkt.pointee.data, pkt.pointee.size > 0 {
                png.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(pkt.pointee.size)))
            }
            av_packet_unref(pkt)
        }
        guard !png.isEmpty else {
            throw MediaError(operation: "encode PNG", message: "the encoder produced no data")
        }
        return png
    }

    /// Copies packed rows into the frame's (possibly padded) plane.
    private static func copyRows(_ rgba: [UInt8], width: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>) {
        guard let destination = frame.planePointers[0] else { return }
        let destinationStride = Int(frame.planeStrides[0])
        let rowBytes = width * 4
        rgba.withUnsafeBufferPointer { source in
            guard let sourceBase = source.baseAddress else { return }
            for row in 0..<height {
                (destination + row * destinationStride).update(from: sourceBase + row * rowBytes, count: rowBytes)
            }
        }
    }

    private static func outOfMemory(_ operation: String) -> MediaError {
        let code = qd_averror(ENOMEM)
        return MediaError(code: code, operation: operation, message: MediaError.text(for: code))
    }
}
