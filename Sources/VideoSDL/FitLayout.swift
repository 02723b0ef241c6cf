// Where a picture goes in the window for each VideoFit and VideoRotation: pure geometry, no SDL, any thread.
// The presenter thread computes one per draw from the renderer's output size. A picture is fitted as the
// screen shows it — stretched to its pixels' aspect (anamorphic), mirrored and turned as its file says and
// turned by the panel's rotation (a quarter turn swaps its width and height) — then mapped back to the
// texture's own pixels, so that SDL does all of it in the one copy it makes anyway.

import Media
import Playback

struct FitLayout: Equatable {
    struct Rect: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The part of the picture to show, in the picture's own (unturned) pixels: all of it except when
    /// `.fill` crops.
    var source: Rect
    /// Where it lands in the output, as seen (turned); outside it stays black.
    var destination: Rect
    var rotation: VideoRotation = .upright
    /// Mirror the texture left–right before turning it.
    var mirrored = false

    /// The rectangle to hand to a renderer that turns about the rectangle's centre (SDL_RenderCopyEx):
    /// `destination` itself, or for a quarter turn the rectangle of the same centre with its sides swapped
    /// (so half-pixel positions can happen, hence Double).
    var unturnedDestination: (x: Double, y: Double, width: Double, height: Double) {
        let d = destination
        return unturned((Double(d.x), Double(d.y), Double(d.width), Double(d.height)))
    }

    /// `rect` (as seen) as the rectangle to hand such a renderer: itself, or for a quarter turn the one of
    /// the same centre with its sides swapped.
    func unturned(
        _ rect: (x: Double, y: Double, width: Double, height: Double)
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        guard rotation.isQuarterTurn else { return rect }
        let centreX = rect.x + rect.width / 2, centreY = rect.y + rect.height / 2
        return (centreX - rect.height / 2, centreY - rect.width / 2, rect.height, rect.width)
    }

    /// Nil when either size is empty (a minimized window): draw nothing then. `picture` is the texture's
    /// size; `sampleAspect` the width of one of its pixels over the height; `mirrored` and `rotation` how
    /// it is turned to be seen (mirror first).
    /// With `wall`, the picture is fitted to the whole wall and this output shows its panel's part (`panelTurn`:
    /// how the panel is mounted, the part of `rotation` that is the panel's and not the file's).
    static func compute(
        fit: VideoFit, rotation: VideoRotation = .upright, mirrored: Bool = false, sampleAspect: Double = 1,
        picture: (width: Int, height: Int), output: (width: Int, height: Int), wall: WallPlacement? = nil,
        panelTurn: VideoRotation = .upright
    ) -> FitLayout? {
        let shown = PictureOrientation.displayedSize(
            width: picture.width, height: picture.height, sampleAspect: sampleAspect, orientation: .upright)
        let seen = rotation.isQuarterTurn ? (width: shown.height, height: shown.width) : shown
        var layout: FitLayout
        if let wall {
            // The wall as the viewer sees it (a panel mounted turned shows its window turned back), then the
            // canvas and the panel's rectangle turned into the window's pixels, where `seen` lives.
            let viewed = panelTurn.isQuarterTurn ? (width: output.height, height: output.width) : output
            guard viewed.width > 0, viewed.height > 0 else { return nil }
            let (canvas, panel) = wall.canvas(panel: viewed)
            let turnedCanvas = panelTurn.isQuarterTurn ? (width: canvas.height, height: canvas.width) : canvas
            guard let whole = upright(fit: fit, picture: seen, output: turnedCanvas),
                let part = whole.cut(to: panel.turned(panelTurn, in: canvas))
            else { return nil }
            layout = part
        } else {
            guard let whole = upright(fit: fit, picture: seen, output: output) else { return nil }
            layout = whole
        }
        var source = layout.source.unturned(rotation, picture: shown)
        if mirrored { source.x = shown.width - source.x - source.width }
        layout.source = source.scaled(from: shown, to: picture)
        layout.rotation = rotation
        layout.mirrored = mirrored
        return layout
    }

    /// The layout of a picture shown as it is (`picture` is its size as seen).
    private static func upright(
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

    /// The part of this layout (on a canvas) that falls in `panel`, with the destination in the panel's own
    /// pixels and the source narrowed to match; nil when the picture does not reach the panel (bars, a bezel).
    func cut(to panel: Rect) -> FitLayout? {
        let d = destination
        let x0 = max(d.x, panel.x), y0 = max(d.y, panel.y)
        let x1 = min(d.x + d.width, panel.x + panel.width), y1 = min(d.y + d.height, panel.y + panel.height)
        guard x1 > x0, y1 > y0 else { return nil }
        let scaleX = Double(source.width) / Double(d.width), scaleY = Double(source.height) / Double(d.height)
        let sx0 = Double(source.x) + Double(x0 - d.x) * scaleX, sx1 = Double(source.x) + Double(x1 - d.x) * scaleX
        let sy0 = Double(source.y) + Double(y0 - d.y) * scaleY, sy1 = Double(source.y) + Double(y1 - d.y) * scaleY
        let sx = Int(sx0.rounded()), sy = Int(sy0.rounded())
        return FitLayout(
            source: Rect(x: sx, y: sy, width: max(1, Int(sx1.rounded()) - sx), height: max(1, Int(sy1.rounded()) - sy)),
            destination: Rect(x: x0 - panel.x, y: y0 - panel.y, width: x1 - x0, height: y1 - y0))
    }
}

extension FitLayout.Rect {
    /// This rectangle of a picture shown at `shown` size in the pixels of the picture at `texture` size
    /// (the same rectangle when the sizes are equal: square pixels).
    func scaled(from shown: (width: Int, height: Int), to texture: (width: Int, height: Int)) -> Self {
        guard shown != texture else { return self }
        func scale(_ value: Int, _ from: Int, _ to: Int) -> Int {
            Int((Double(value) * Double(to) / Double(from)).rounded())
        }
        let x0 = scale(x, shown.width, texture.width), x1 = scale(x + width, shown.width, texture.width)
        let y0 = scale(y, shown.height, texture.height), y1 = scale(y + height, shown.height, texture.height)
        return Self(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }

    /// This rectangle of a `size` area turned clockwise by `rotation` with it (the inverse of `unturned`):
    /// by 90° the pixel (x, y) goes to (height − 1 − y, x).
    func turned(_ rotation: VideoRotation, in size: (width: Int, height: Int)) -> Self {
        switch rotation {
        case .upright: self
        case .clockwise90: Self(x: size.height - y - height, y: x, width: height, height: width)
        case .upsideDown: Self(x: size.width - x - width, y: size.height - y - height, width: width, height: height)
        case .clockwise270: Self(x: y, y: size.width - x - width, width: height, height: width)
        }
    }

    /// This rectangle of the picture as seen turned by `rotation`, in the unturned picture's pixels
    /// (`picture` is the unturned size). Turning clockwise by 90° sends the pixel (x, y) to
    /// (height − 1 − y, x); by 270° to (y, width − 1 − x).
    func unturned(_ rotation: VideoRotation, picture: (width: Int, height: Int)) -> Self {
        switch rotation {
        case .upright: self
        case .clockwise90: Self(x: y, y: picture.height - x - width, width: height, height: width)
        case .upsideDown:
            Self(x: picture.width - x - width, y: picture.height - y - height, width: width, height: height)
        case .clockwise270: Self(x: picture.width - y - height, y: x, width: height, height: width)
        }
    }
}
