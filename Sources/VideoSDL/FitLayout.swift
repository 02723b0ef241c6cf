// Where a picture goes in the window for each VideoFit: pure integer geometry, no SDL, any thread.
// The presenter thread computes one per draw from the renderer's output size.
import Playback

struct FitLayout: Equatable {
    struct Rect: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The part of the picture to show (all of it except when `.fill` crops).
    var source: Rect
    /// Where it goes in the output; outside it stays black.
    var destination: Rect

    /// Nil when either size is empty (a minimized window): draw nothing then.
    static func compute(
        fit: VideoFit, picture: (width: Int, height: Int), output: (width: Int, height: Int)
    )
        -> FitLayout?
    {
        let (pw, ph) = picture
        let (ow, oh) = output
        guard pw > 0, ph > 0, ow > 0, oh > 0 else { return nil }
        let whole = Rect(x: 0, y: 0, width: pw, height: ph)
        let window = Rect(x: 0, y: 0, width: ow, height: oh)
        // Compare aspect ratios exactly: ow/oh > pw/ph  <=>  ow*ph > oh*pw.
        let outputIsWider = ow * ph > oh * pw
        switch fit {
        case .stretch:
            return FitLayout(source: whole, destination: window)
        case .fit:
            if outputIsWider {  // pillarbox: full height, bars left and right
                let width = max(1, min(ow, rounded(oh * pw, ph)))
                let destination = Rect(x: (ow - width) / 2, y: 0, width: width, height: oh)
                return FitLayout(source: whole, destination: destination)
            } else {  // letterbox: full width, bars top and bottom
                let height = max(1, min(oh, rounded(ow * ph, pw)))
                let destination = Rect(x: 0, y: (oh - height) / 2, width: ow, height: height)
                return FitLayout(source: whole, destination: destination)
            }
        case .fill:
            if outputIsWider {  // the picture's top and bottom are cut
                let height = max(1, min(ph, rounded(pw * oh, ow)))
                let source = Rect(x: 0, y: (ph - height) / 2, width: pw, height: height)
                return FitLayout(source: source, destination: window)
            } else {  // its left and right are cut
                let width = max(1, min(pw, rounded(ph * ow, oh)))
                let source = Rect(x: (pw - width) / 2, y: 0, width: width, height: ph)
                return FitLayout(source: source, destination: window)
            }
        }
    }

    private static func rounded(_ numerator: Int, _ denominator: Int) -> Int {
        (2 * numerator + denominator) / (2 * denominator)
    }
}
