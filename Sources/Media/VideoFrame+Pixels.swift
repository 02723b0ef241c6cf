// Pictures made from pixels that come from outside FFmpeg (a web page's frames) and a picture shown again at
// another time without copying it. Any thread; the frames own their AVFrames like decoded ones.

import CFFmpeg

extension VideoFrame {
    /// A `.bgra` picture copied from `pixels` (rows of `bytesPerRow` bytes, at least 4 × width). Nil if a
    /// dimension is out of range or allocation fails.
    public static func copyingBGRA(
        _ pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, pts: Double = 0, duration: Double = 0.04
    ) -> VideoFrame? {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384, bytesPerRow >= width * 4,
            let frame = av_frame_alloc()
        else { return nil }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_BGRA.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0, let base = frame.planePointers[0] else {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
            return nil
        }
        let stride = Int(frame.planeStrides[0])
        let row = width * 4
        for line in 0..<height {
            UnsafeMutableRawPointer(base + line * stride).copyMemory(from: pixels + line * bytesPerRow, byteCount: row)
        }
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        return VideoFrame(taking: frame, layout: .bgra, pts: pts, duration: duration)
    }

    /// The same pixels (shared, not copied) shown at `pts` for `duration`. Nil if FFmpeg cannot reference them.
    public func restamped(pts: Double, duration: Double) -> VideoFrame? {
        guard let copy = av_frame_clone(avFrame) else { return nil }
        return VideoFrame(
            taking: copy, layout: layout, pts: pts, duration: duration, orientation: orientation,
            sampleAspect: sampleAspect, fileSize: fileSize)
    }

    /// Whether `other` shows the very same pixels (one shares the other's buffer): a sink may skip uploading it.
    public func sharesPixels(with other: VideoFrame) -> Bool {
        avFrame.pointee.data.0 == other.avFrame.pointee.data.0
    }
}
