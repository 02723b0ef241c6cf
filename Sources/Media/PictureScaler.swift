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
    /// ARGB8888 on little-endian). The colours are converted exactly as SDL's automatic mode converts a YUV
    /// texture (BT.601 up to 576 lines, else BT.709, limited range), so that a picture looks the same
    /// whichever way it is drawn. False when libswscale refuses the picture or the size.
    public func scale(
        _ frame: VideoFrame, width: Int, height: Int, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int
    ) -> Bool {
        let source = frame.avFrame
        sws = sws_getCachedContext(
            sws, source.pointee.width, source.pointee.height, AVPixelFormat(source.pointee.format), Int32(width),
            Int32(height), AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil)
        guard let sws else { return false }
        if !frame.layout.isPacked {
            let space = source.pointee.height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
            let coefficients = sws_getCoefficients(space)
            _ = sws_setColorspaceDetails(
                sws, coefficients, 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        var destination: [UnsafeMutablePointer<UInt8>?] = [pixels.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var strides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let planes = UnsafeRawPointer(source.planePointers).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let rows = sws_scale(sws, planes, source.planeStrides, 0, source.pointee.height, &destination, &strides)
        return rows == Int32(height)
    }
}
