// The picture layout of video fixtures, and how to read it back. Every frame carries:
//   top half:    8 equal-width blocks, bit i of (frame number mod 256) in block i from the left,
//                white (luma 235) = 1, black (luma 16) = 0, neutral chroma;
//   bottom half: mid-grey luma (128) with the clip's chroma (its VideoHue).
// So a decoded or displayed frame tells which clip and which frame it is, which lets tests check
// ordering, seeking, dropped/duplicated frames and clip transitions without timing guesses.

public enum VideoFrameStamp {
    public static let bitCount = 8
    public static let blackLuma = 16
    public static let whiteLuma = 235
    public static let bottomLuma = 128

    /// The lavfi filter chain (after a `color=` source) that paints the stamp, via geq.
    /// geq evaluates W, H, X, Y per plane, so `H/2` is the middle in the chroma planes too.
    public static func geqFilter(hue: VideoHue) -> String {
        let bit = "if(eq(mod(floor(N/pow(2,floor(X*\(bitCount)/W))),2),1),\(whiteLuma),\(blackLuma))"
        return "format=yuv420p,geq=lum='if(lt(Y,H/2),\(bit),\(bottomLuma))'"
            + ":cb='if(lt(Y,H/2),128,\(hue.chroma.cb))':cr='if(lt(Y,H/2),128,\(hue.chroma.cr))'"
    }

    /// Where to sample bit `index`: the centre of its block in the top half.
    public static func bitSamplePoint(_ index: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        ((2 * index + 1) * width / (2 * bitCount), height / 4)
    }

    /// Where to sample the hue: the centre of the bottom half.
    public static func huePoint(width: Int, height: Int) -> (x: Int, y: Int) {
        (width / 2, 3 * height / 4)
    }

    /// The frame number (mod 256) of a picture, given its brightness at a pixel: luma, or any
    /// RGB channel (the bit blocks are neutral grey, so all channels agree).
    public static func frameNumber(width: Int, height: Int, brightness: (_ x: Int, _ y: Int) -> Int) -> Int {
        var value = 0
        for index in 0..<bitCount {
            let point = bitSamplePoint(index, width: width, height: height)
            if brightness(point.x, point.y) >= 128 { value |= 1 << index }
        }
        return value
    }

    /// Frame number and hue from a planar YUV 4:2:0 picture (e.g. an AVFrame's three planes).
    public static func read(
        width: Int, height: Int,
        y: UnsafePointer<UInt8>, yStride: Int,
        cb: UnsafePointer<UInt8>, cbStride: Int,
        cr: UnsafePointer<UInt8>, crStride: Int
    ) -> (frame: Int, hue: VideoHue) {
        let frame = frameNumber(width: width, height: height) { x, row in Int(y[row * yStride + x]) }
        let point = huePoint(width: width, height: height)
        let u = Int(cb[(point.y / 2) * cbStride + point.x / 2])
        let v = Int(cr[(point.y / 2) * crStride + point.x / 2])
        return (frame, VideoHue.nearest(cb: u, cr: v))
    }

    /// Frame number and hue from packed RGB pixels (e.g. SDL_RenderReadPixels, an x11grab PNG),
    /// given a pixel accessor returning (r, g, b).
    public static func read(
        width: Int, height: Int,
        rgb: (_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int)
    ) -> (frame: Int, hue: VideoHue) {
        let frame = frameNumber(width: width, height: height) { x, y in rgb(x, y).g }
        let point = huePoint(width: width, height: height)
        let pixel = rgb(point.x, point.y)
        return (frame, VideoHue.nearest(r: pixel.r, g: pixel.g, b: pixel.b))
    }
}
