// Hands decoded pictures to sinks as VideoFrames: formats SDL takes as they are (yuv420p, nv12, rgba) pass
// through with no copy; anything else is converted to yuv420p with libswscale (or, for overlay images, to
// rgba, so that alpha survives). A still bigger than its screen needs is scaled down here (StillScale), so
// the full-size picture is let go as soon as it is decoded. Decode thread only.

import CFFmpeg

final class VideoConverter {
    private var sws: OpaquePointer?
    private var key: (width: Int32, height: Int32, format: Int32, to: PixelSize)?
    /// Every picture comes out as rgba.
    private let rgba: Bool
    /// A still's screen: pictures come out no bigger than filling it needs (nil: as decoded).
    private let output: PixelSize?
    /// The still's size in the file (reported as the picture's size when it is handed out smaller).
    private let fileSize: PixelSize?

    init(rgba: Bool = false, scaledFor output: PixelSize? = nil, fileSize: PixelSize? = nil) {
        self.rgba = rgba
        self.output = output
        self.fileSize = fileSize
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
        let decoded = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        let scaled = output.flatMap { StillScale.size(of: decoded, for: $0) }
        guard let owned = av_frame_alloc() else { throw MediaError(operation: "decode", message: "out of memory") }
        if let layout = passThrough, scaled == nil {
            av_frame_move_ref(owned, frame)
            return VideoFrame(
                taking: owned, layout: layout, pts: pts, duration: duration, orientation: orientation,
                sampleAspect: sampleAspect, fileSize: fileSize)
        }
        let target = scaled ?? decoded
        owned.pointee.width = Int32(target.width)
        owned.pointee.height = Int32(target.height)
        owned.pointee.format = (rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P).rawValue
        do {
            try check(av_frame_get_buffer(owned, 0), "convert picture")
            try configure(for: frame, to: target)
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
        // The decoded picture goes back to its decoder now (a still's full size is not kept).
        av_frame_unref(frame)
        return VideoFrame(
            taking: owned, layout: rgba ? .rgba : .yuv420p, pts: pts, duration: duration, orientation: orientation,
            sampleAspect: sampleAspect, fileSize: fileSize)
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>, to target: PixelSize) throws(MediaError) {
        if let key, key.width == frame.pointee.width, key.height == frame.pointee.height,
            key.format == frame.pointee.format, key.to == target
        {
            return
        }
        // Forget the old key with the old context: a failed rebuild must not leave a key that matches
        // while `sws` is nil (the next picture of the old shape would scale with no context).
        sws_freeContext(sws)
        sws = nil
        key = nil
        let shrinks = target.width < Int(frame.pointee.width)
        // Area averaging when a still shrinks (no aliasing on fine detail); bilinear for a format change.
        sws = sws_getContext(
            frame.pointee.width, frame.pointee.height, AVPixelFormat(frame.pointee.format),
            Int32(target.width), Int32(target.height), rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P,
            shrinks ? SWS_AREA : SWS_BILINEAR, nil, nil, nil)
        guard sws != nil else {
            throw MediaError(operation: "convert picture", message: "unsupported pixel format \(frame.pointee.format)")
        }
        key = (frame.pointee.width, frame.pointee.height, frame.pointee.format, target)
    }
}
