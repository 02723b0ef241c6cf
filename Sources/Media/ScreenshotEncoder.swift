// Screenshots as files: an RGBA read-back scaled down to a width (a thumbnail for a fleet's view or a phone's
// page) and encoded as PNG (lossless, PNGEncoder) or JPEG (libavcodec's MJPEG encoder: a 1080p screen in
// ~100–200 KB instead of ~2 MB). Scaling and the JPEG's colour conversion are one libswscale pass. Any thread,
// stateless; every FFmpeg object is owned here and freed before returning.

import CFFmpeg

public enum PictureFormat: String, Sendable, CaseIterable {
    case png, jpeg
}

public enum ScreenshotEncoder {
    /// The file bytes and the size they show. `maxWidth`: scaled down to at most this width, keeping the
    /// aspect (never up). JPEG quality is fixed at a visually clean level (qscale 3).
    public static func encode(
        rgba: [UInt8], width: Int, height: Int, as format: PictureFormat, maxWidth: Int? = nil
    ) throws(MediaError) -> (bytes: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, width <= 32_768, height <= 32_768, rgba.count == width * height * 4 else {
            throw MediaError(operation: "encode screenshot", message: "bad picture \(width)x\(height), \(rgba.count) bytes")
        }
        var outWidth = width
        var outHeight = height
        if let maxWidth, maxWidth > 0, maxWidth < width {
            outWidth = maxWidth
            outHeight = max(1, Int((Double(height) * Double(maxWidth) / Double(width)).rounded()))
        }
        switch format {
        case .png:
            var pixels = rgba
            if outWidth != width {
                let frame = try scaled(rgba, width: width, height: height, to: (outWidth, outHeight), format: AV_PIX_FMT_RGBA)
                pixels = packed(frame, width: outWidth, height: outHeight)
            }
            let bytes = try PNGEncoder.encode(rgba: pixels, width: outWidth, height: outHeight)
            return (bytes, outWidth, outHeight)
        case .jpeg:
            // 4:2:0 wants even sizes.
            outWidth = max(2, outWidth & ~1)
            outHeight = max(2, outHeight & ~1)
            let frame = try scaled(rgba, width: width, height: height, to: (outWidth, outHeight), format: AV_PIX_FMT_YUVJ420P)
            defer {
                var owned: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&owned)
            }
            return (try jpeg(frame, width: outWidth, height: outHeight), outWidth, outHeight)
        }
    }

    /// `rgba` converted (and scaled) into a new frame of `format`; the caller frees it.
    private static func scaled(
        _ rgba: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int), format: AVPixelFormat
    ) throws(MediaError) -> UnsafeMutablePointer<AVFrame> {
        guard let frame = av_frame_alloc() else { throw MediaError(operation: "scale screenshot", message: "out of memory") }
        frame.pointee.width = Int32(size.width)
        frame.pointee.height = Int32(size.height)
        frame.pointee.format = format.rawValue
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        do throws(MediaError) {
            _ = try check(av_frame_get_buffer(frame, 0), "allocate screenshot")
            guard
                let sws = sws_getContext(
                    Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(size.width), Int32(size.height), format,
                    SWS_AREA, nil, nil, nil)
            else { throw MediaError(operation: "scale screenshot", message: "libswscale refused the sizes") }
            defer { sws_freeContext(sws) }
            var sourceStride = [Int32(width * 4), 0, 0, 0]
            _ = try rgba.withUnsafeBufferPointer { source throws(MediaError) -> Int32 in
                var planes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                return try check(
                    sws_scale(sws, &planes, &sourceStride, 0, Int32(height), frame.planePointers, frame.planeStrides),
                    "scale screenshot")
            }
        } catch {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
            throw error
        }
        return frame
    }

    /// The frame's rows packed (no padding), then the frame freed: what PNGEncoder takes.
    private static func packed(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> [UInt8] {
        defer {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
        }
        guard let base = frame.planePointers[0] else { return [] }
        let stride = Int(frame.planeStrides[0])
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { destination in
            for row in 0..<height {
                (destination.baseAddress! + row * width * 4).update(from: base + row * stride, count: width * 4)
            }
        }
        return bytes
    }

    private static func jpeg(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(operation: "find JPEG encoder", message: "this libavcodec has no MJPEG encoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let ctx = context else { throw MediaError(operation: "encode JPEG", message: "out of memory") }
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        ctx.pointee.color_range = AVCOL_RANGE_JPEG
        ctx.pointee.time_base = AVRational(num: 1, den: 25)
        ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
        ctx.pointee.global_quality = 3 * FF_QP2LAMBDA
        _ = try check(avcodec_open2(ctx, codec, nil), "open JPEG encoder")
        frame.pointee.quality = ctx.pointee.global_quality
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let pkt = packet else { throw MediaError(operation: "encode JPEG", message: "out of memory") }
        _ = try check(avcodec_send_frame(ctx, frame), "encode JPEG")
        _ = try check(avcodec_send_frame(ctx, nil), "flush JPEG encoder")
        var bytes: [UInt8] = []
        while true {
            let rc = avcodec_receive_packet(ctx, pkt)
            if rc == AVCodes.eof { break }
            _ = try check(rc, "receive JPEG")
            if let data = pkt.pointee.data, pkt.pointee.size > 0 {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(pkt.pointee.size)))
            }
            av_packet_unref(pkt)
        }
        guard !bytes.isEmpty else { throw MediaError(operation: "encode JPEG", message: "the encoder produced no data") }
        return bytes
    }
}
