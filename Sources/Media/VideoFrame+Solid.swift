// Single-colour frames for tests and placeholders: lets sink tests build real AVFrame-backed pictures
// without a decoder. Any thread; the returned frame owns its AVFrame like a decoded one.

import CFFmpeg

extension VideoFrame {
    /// A frame filled with one colour given as 8-bit limited-range Y'CbCr. For `.rgba` the colour is
    /// converted with BT.601 limited range (what SDL uses for SD YUV) and alpha is 255, so the same
    /// (y, u, v) looks the same in every layout. `topLeftQuarter`, when given, paints the picture's top-left
    /// quarter in another colour (to tell which way up a picture is shown). Nil if a dimension is not
    /// positive or allocation fails.
    public static func solid(
        width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8,
        layout: PixelLayout = .yuv420p, topLeftQuarter: (y: UInt8, u: UInt8, v: UInt8)? = nil, pts: Double = 0,
        duration: Double = 0.04, orientation: PictureOrientation = .upright, sampleAspect: Double = 1
    ) -> VideoFrame? {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else { return nil }
        guard let frame = av_frame_alloc() else { return nil }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        switch layout {
        case .yuv420p: frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        case .nv12: frame.pointee.format = AV_PIX_FMT_NV12.rawValue
        case .rgba: frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        case .bgra: frame.pointee.format = AV_PIX_FMT_BGRA.rawValue
        }
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
            return nil
        }
        paint(frame, layout: layout, width: width, height: height, y: y, u: u, v: v)
        if let marker = topLeftQuarter {
            paint(frame, layout: layout, width: width / 2, height: height / 2, y: marker.y, u: marker.u, v: marker.v)
        }
        frame.pointee.color_range = layout.isPacked ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT470BG
        return VideoFrame(
            taking: frame, layout: layout, pts: pts, duration: duration, orientation: orientation,
            sampleAspect: sampleAspect)
    }

    /// Paints the frame's top-left `width` x `height` pixels in one colour.
    private static func paint(
        _ frame: UnsafeMutablePointer<AVFrame>, layout: PixelLayout, width: Int, height: Int, y: UInt8, u: UInt8,
        v: UInt8
    ) {
        let chromaHeight = (height + 1) / 2
        let chromaWidth = (width + 1) / 2
        switch layout {
        case .yuv420p:
            fill(frame, plane: 0, rows: height, pattern: [y], count: width)
            fill(frame, plane: 1, rows: chromaHeight, pattern: [u], count: chromaWidth)
            fill(frame, plane: 2, rows: chromaHeight, pattern: [v], count: chromaWidth)
        case .nv12:
            fill(frame, plane: 0, rows: height, pattern: [y], count: width)
            fill(frame, plane: 1, rows: chromaHeight, pattern: [u, v], count: chromaWidth)
        case .rgba:
            let (r, g, b) = bt601LimitedToRGB(y: y, u: u, v: v)
            fill(frame, plane: 0, rows: height, pattern: [r, g, b, 255], count: width)
        case .bgra:
            let (r, g, b) = bt601LimitedToRGB(y: y, u: u, v: v)
            fill(frame, plane: 0, rows: height, pattern: [b, g, r, 255], count: width)
        }
    }

    /// Fills the first `rows` rows of a plane with `pattern` repeated `count` times.
    private static func fill(
        _ frame: UnsafeMutablePointer<AVFrame>, plane: Int, rows: Int, pattern: [UInt8], count: Int
    ) {
        let stride = Int(frame.planeStrides[plane])
        guard let base = frame.planePointers[plane], stride >= count * pattern.count else { return }
        for row in 0..<rows {
            let line = base + row * stride
            for index in 0..<count {
                for (offset, byte) in pattern.enumerated() { line[index * pattern.count + offset] = byte }
            }
        }
    }

    /// BT.601 limited-range Y'CbCr to full-range R'G'B', rounded and clamped.
    public static func bt601LimitedToRGB(y: UInt8, u: UInt8, v: UInt8) -> (UInt8, UInt8, UInt8) {
        let luma = 1.164 * (Double(y) - 16)
        let cb = Double(u) - 128
        let cr = Double(v) - 128
        func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        return (clamp(luma + 1.596 * cr), clamp(luma - 0.392 * cb - 0.813 * cr), clamp(luma + 2.017 * cb))
    }
}
