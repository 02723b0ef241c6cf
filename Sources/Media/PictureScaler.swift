// Scales a picture to the size it is drawn at, as B,G,R,A bytes, into memory its caller owns (an SDL
// streaming texture's pixels). For SDL's software renderer: given a YUV picture it keeps the planes and a
// whole RGB copy at the picture's size (11 MB at 1080p) and stretches that copy on every draw; scaled here
// once per picture, a 1080p picture on a 720p window costs one 3.7 MB texture and one pass of libswscale.
// Owned and used by one thread (the presenter's).

import CFFmpeg

public final class PictureScaler {
    private var sws: OpaquePointer?

    public init() {}

    deinit { sws_freeContext(sws) }

    /// Scales `frame` to `width`×`height` into `pixels` (`bytesPerRow` apart), bytes B,G,R,A (SDL's
    /// ARGB8888 on little-endian). The colours are converted as SDL converts them (BT.601 up to 576 lines,
    /// else BT.709, unless the file says which; full range for JPEG-range pictures). False when libswscale
    /// refuses the picture's format.
    public func scale(
        _ frame: VideoFrame, width: Int, height: Int, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int
    ) -> Bool {
        let source = frame.avFrame
        let format = AVPixelFormat(source.pointee.format)
        sws = sws_getCachedContext(
            sws, source.pointee.width, source.pointee.height, format, Int32(width), Int32(height), AV_PIX_FMT_BGRA,
            SWS_BILINEAR, nil, nil, nil)
        guard let sws else { return false }
        if frame.layout != .rgba {
            let space: Int32
            switch source.pointee.colorspace {
            case AVCOL_SPC_BT709: space = SWS_CS_ITU709
            case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: space = SWS_CS_ITU601
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: space = SWS_CS_BT2020
            default: space = source.pointee.height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
            }
            let fullRange: Int32 = source.pointee.color_range == AVCOL_RANGE_JPEG || format == AV_PIX_FMT_YUVJ420P ? 1 : 0
            _ = sws_setColorspaceDetails(
                sws, sws_getCoefficients(space), fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        var destination: [UnsafeMutablePointer<UInt8>?] = [pixels.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var strides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let planes = UnsafeRawPointer(source.planePointers).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        return sws_scale(sws, planes, source.planeStrides, 0, source.pointee.height, &destination, &strides) == Int32(height)
    }
}
