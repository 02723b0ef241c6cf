// Where a layer lands. Layout happens on the logical canvas — the screen as the viewer sees it, so a
// portrait panel (a landscape screen turned by 90 or 270 degrees) has a tall canvas and `top-left` is the
// viewer's top left — and CanvasTurn maps the result onto the physical output the renderer draws into.

/// A rectangle in pixels (fractional: layout does not round, the renderer does).
public struct OverlayRect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var centerX: Double { x + width / 2 }
    public var centerY: Double { y + height / 2 }
}

public enum OverlayPlacement {
    /// The box (content plus padding) of a layer of `size` pinned at `anchor`, moved inward by `x`/`y`, on a
    /// canvas of `canvas` pixels.
    public static func box(
        size: (width: Double, height: Double), anchor: OverlayAnchor, x: OverlayLength, y: OverlayLength,
        canvas: (width: Double, height: Double)
    ) -> OverlayRect {
        OverlayRect(
            x: along(anchor.horizontal, size.width, canvas.width, x.resolved(against: canvas.width)),
            y: along(anchor.vertical, size.height, canvas.height, y.resolved(against: canvas.height)),
            width: size.width, height: size.height)
    }

    /// A ticker's band: the whole canvas width, `height` tall, placed vertically like any layer (its
    /// anchor's horizontal part and `x` do not apply).
    public static func band(
        height: Double, anchor: OverlayAnchor, y: OverlayLength, canvas: (width: Double, height: Double)
    ) -> OverlayRect {
        OverlayRect(
            x: 0, y: along(anchor.vertical, height, canvas.height, y.resolved(against: canvas.height)),
            width: canvas.width, height: height)
    }

    private static func along(_ side: Int, _ length: Double, _ extent: Double, _ offset: Double) -> Double {
        switch side {
        case ..<0: offset
        case 0: (extent - length) / 2 + offset
        default: extent - length - offset
        }
    }
}

/// How the logical canvas lies on the physical output: turned clockwise by 0, 90, 180 or 270 degrees.
public struct CanvasTurn: Equatable, Sendable {
    public var degrees: Int
    /// The output's size in pixels.
    public var output: (width: Double, height: Double)

    public init(degrees: Int, output: (width: Double, height: Double)) {
        self.degrees = ((degrees % 360) + 360) % 360
        self.output = output
    }

    public static func == (a: CanvasTurn, b: CanvasTurn) -> Bool {
        a.degrees == b.degrees && a.output == b.output
    }

    /// The canvas the viewer sees: the output with its sides swapped for a quarter turn.
    public var canvas: (width: Double, height: Double) {
        degrees == 90 || degrees == 270 ? (output.height, output.width) : output
    }

    /// Where a canvas point lands on the output.
    public func outputPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let canvas = canvas
        switch degrees {
        case 90: return (canvas.height - y, x)
        case 180: return (canvas.width - x, canvas.height - y)
        case 270: return (y, canvas.width - x)
        default: return (x, y)
        }
    }

    /// The output rectangle a canvas rectangle covers (axis-aligned: turns are quarter turns).
    public func outputRect(_ rect: OverlayRect) -> OverlayRect {
        let a = outputPoint(x: rect.x, y: rect.y)
        let b = outputPoint(x: rect.x + rect.width, y: rect.y + rect.height)
        return OverlayRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// Where to draw an upright texture for canvas rectangle `rect` so that, turned by `degrees` about its
    /// centre (as SDL_RenderCopyEx turns), it covers the right place: same size, centre moved.
    public func unturnedRect(_ rect: OverlayRect) -> OverlayRect {
        let center = outputPoint(x: rect.centerX, y: rect.centerY)
        return OverlayRect(
            x: center.x - rect.width / 2, y: center.y - rect.height / 2, width: rect.width, height: rect.height)
    }
}

/// A ticker's motion: copies of the text, `period` pixels apart, moving left at `speed` px/s. The period is
/// at least the band's width, so a short text crosses the screen and the next copy enters as it leaves; a
/// long one is followed by a gap of one font size.
public struct TickerMotion: Equatable, Sendable {
    public var speed: Double
    public var textWidth: Double
    public var bandWidth: Double
    public var gap: Double

    public init(speed: Double, textWidth: Double, bandWidth: Double, gap: Double) {
        self.speed = speed
        self.textWidth = textWidth
        self.bandWidth = bandWidth
        self.gap = gap
    }

    public var period: Double { max(textWidth + gap, bandWidth, 1) }

    /// The left edges (band coordinates) of the copies that are at least partly inside the band `elapsed`
    /// seconds after the ticker started (its first copy entering at the right edge).
    public func copies(elapsed: Double) -> [Double] {
        let travelled = (speed * max(elapsed, 0)).truncatingRemainder(dividingBy: period)
        let first = bandWidth - travelled
        // Copies that entered since the start: none comes from before it.
        let earliest = bandWidth - speed * max(elapsed, 0) - 1e-6
        var edges: [Double] = []
        var edge = first - period * ((first + textWidth) / period).rounded(.down)
        while edge < bandWidth {
            if edge + textWidth > 0 && edge >= earliest { edges.append(edge) }
            edge += period
        }
        return edges
    }
}
