// Hands decoded pictures to sinks as VideoFrames: formats SDL takes as they are (yuv420p, nv12, rgba) pass
// through with no copy; anything else is converted to yuv420p with libswscale (or, for overlay images, to
// rgba, so that alpha survives). Decode thread only.

import CFFmpeg

final class VideoConverter {
    private var sws: OpaquePointer?
    private var key: (width: Int32, height: Int32, format: Int32)?
    /// Every picture comes out as rgba.
    private let rgba: Bool

    init(rgba: Bool = false) {
        self.rgba = rgba
    }

    deinit { sws_freeContext(sws) }

    /// Takes the frame's references (leaving `frame` empty) and returns an owned VideoFrame.
    func makeFrame(
        from frame: UnsafeMutablePointer<AVFrame>, pts: Double, duration: Double,
        orientation: PictureOrientation = .upright, sampleAspect: Double = 1
    ) throws(MediaError) -> VideoFrame {
        let passThrough: PixelLayout?
        switch AVPixelFormat(frame.pointee.format) {
        case _ where rgba && frame.pointee.format != AV_PIX_FMT_RGBA.rawValue: passThrough = nil
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: passThrough = .yuv420p
        case AV_PIX_FMT_NV12: passThrough = .nv12
        case AV_PIX_FMT_RGBA: passThrough = .rgba
        default: passThrough = nil
        }
        guard let owned = av_frame_alloc() else { throw MediaError(operation: "decode", message: "out of memory") }
        if let layout = passThrough {
            av_frame_move_ref(owned, frame)
            return VideoFrame(
                taking: owned, layout: layout, pts: pts, duration: duration, orientation: orientation,
                sampleAspect: sampleAspect)
        }
        owned.pointee.width = frame.pointee.width
        owned.pointee.height = frame.pointee.height
        owned.pointee.format = (rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P).rawValue
        do {
            try check(av_frame_get_buffer(owned, 0), "convert picture")
            try configure(for: frame)
            let source = UnsafeRawPointer(frame.planePointers).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            try check(
                sws_scale(
                    sws, source, frame.planeStrides, 0, frame.pointee.height, owned.planePointers, owned.planeStrides),
                "convert picture")
        } catch {
            var optional: UnsafeMutablePointer<AVFrame>? = owned
            av_frame_free(&optional)
            throw error
        }
        return VideoFrame(
            taking: owned, layout: rgba ? .rgba : .yuv420p, pts: pts, duration: duration, orientation: orientation,
            sampleAspect: sampleAspect)
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        if let key, key.width == frame.pointee.width, key.height == frame.pointee.height,
            key.format == frame.pointee.format
        {
            return
        }
        // Forget the old key with the old context: a failed rebuild must not leave a key that matches
        // while `sws` is nil (the next picture of the old shape would scale with no context).
        sws_freeContext(sws)
        sws = nil
        key = nil
        sws = sws_getContext(
            frame.pointee.width, frame.pointee.height, AVPixelFormat(frame.pointee.format),
            frame.pointee.width, frame.pointee.height, rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P, SWS_BILINEAR,
            nil, nil, nil)
        guard sws != nil else {
            throw MediaError(operation: "convert picture", message: "unsupported pixel format \(frame.pointee.format)")
        }
        key = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
    }
}
