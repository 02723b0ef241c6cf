// The colour that identifies a video clip: the chroma (Cb, Cr) of the lower half of every frame.
// The six pairs are at least ~49 levels apart in the Cb/Cr plane, far more than codec or scaler
// error, so a test can tell which clip a displayed frame came from.

public enum VideoHue: String, Sendable, CaseIterable {
    case red, green, blue, yellow, magenta, cyan

    /// Limited-range (BT.601) chroma written into the fixture.
    public var chroma: (cb: Int, cr: Int) {
        switch self {
        case .red: return (100, 200)
        case .green: return (80, 60)
        case .blue: return (185, 95)
        case .yellow: return (70, 150)
        case .magenta: return (170, 180)
        case .cyan: return (150, 60)
        }
    }

    /// Full-range RGB of the lower half (luma 128, BT.601 limited-range → full-range RGB, the
    /// conversion swscale and SDL apply by default), clamped to 0…255.
    public var rgb: (r: Int, g: Int, b: Int) {
        VideoHue.rgb(y: VideoFrameStamp.bottomLuma, cb: chroma.cb, cr: chroma.cr)
    }

    /// The hue whose chroma is nearest to (cb, cr).
    public static func nearest(cb: Int, cr: Int) -> VideoHue {
        allCases.min { a, b in
            distance(a.chroma.cb - cb, a.chroma.cr - cr) < distance(b.chroma.cb - cb, b.chroma.cr - cr)
        }!
    }

    /// The hue whose RGB is nearest to (r, g, b), for pixels read back from a renderer or grab.
    public static func nearest(r: Int, g: Int, b: Int) -> VideoHue {
        allCases.min { x, y in
            distance(x.rgb.r - r, x.rgb.g - g, x.rgb.b - b) < distance(y.rgb.r - r, y.rgb.g - g, y.rgb.b - b)
        }!
    }

    /// BT.601 limited-range YCbCr → full-range RGB.
    public static func rgb(y: Int, cb: Int, cr: Int) -> (r: Int, g: Int, b: Int) {
        let luma = 1.164 * Double(y - 16)
        let u = Double(cb - 128), v = Double(cr - 128)
        func clamp(_ x: Double) -> Int { Int(min(255, max(0, x.rounded()))) }
        return (clamp(luma + 1.596 * v), clamp(luma - 0.392 * u - 0.813 * v), clamp(luma + 2.017 * u))
    }

    private static func distance(_ parts: Int...) -> Int {
        parts.reduce(0) { $0 + $1 * $1 }
    }
}
