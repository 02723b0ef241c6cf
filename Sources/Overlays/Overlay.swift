// What an overlay is: a layer drawn above the video (text, an image, a clock, a ticker), where it sits on the
// screen, how it looks and when it shows. Plain values: the control side builds and edits them, the engine
// keeps them (and the state journal with it), the presenter thread draws a resolved copy (OverlayScene).
// No drawing, no clock and no I/O here.

/// What a layer shows.
public enum OverlayContent: Equatable, Sendable, Codable {
    /// UTF-8 text; `{title}`, `{id}`, `{position}` and `{duration}` stand for the playing item's.
    case text(String)
    /// A PNG or JPEG file (alpha kept), decoded once per path.
    case image(path: String)
    /// The local time as a strftime(3) pattern, redrawn when the text changes (once a second).
    case clock(format: String)
    /// A line of text (placeholders too) scrolling right to left at `speed` pixels per second, looping
    /// seamlessly across a band the width of the screen.
    case ticker(text: String, speed: Double)

    /// The name used on the wire and in `overlay.list`.
    public var kindName: String {
        switch self {
        case .text: "text"
        case .image: "image"
        case .clock: "clock"
        case .ticker: "ticker"
        }
    }
}

/// One of 9 points of the screen a layer is pinned to.
public enum OverlayAnchor: String, Sendable, Codable, CaseIterable {
    case topLeft = "top-left", top, topRight = "top-right"
    case left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// -1 pinned to the left edge, 0 centred, 1 pinned to the right edge.
    var horizontal: Int {
        switch self {
        case .topLeft, .left, .bottomLeft: -1
        case .top, .center, .bottom: 0
        case .topRight, .right, .bottomRight: 1
        }
    }

    /// -1 pinned to the top edge, 0 centred, 1 pinned to the bottom edge.
    var vertical: Int {
        switch self {
        case .topLeft, .top, .topRight: -1
        case .left, .center, .right: 0
        case .bottomLeft, .bottom, .bottomRight: 1
        }
    }
}

/// An offset from the anchor, in pixels or in percent of the screen's width (x) or height (y).
public enum OverlayLength: Equatable, Sendable, Codable {
    case pixels(Double)
    case percent(Double)

    /// In pixels, for a screen side of `extent` pixels.
    public func resolved(against extent: Double) -> Double {
        switch self {
        case .pixels(let value): value
        case .percent(let value): value * extent / 100
        }
    }
}

/// A colour with alpha, 8 bits a channel.
public struct OverlayColor: Equatable, Sendable, Codable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = OverlayColor(red: 255, green: 255, blue: 255)
    public static let black = OverlayColor(red: 0, green: 0, blue: 0)

    /// Reads `#rrggbb` or `#rrggbbaa` (the `#` optional, any case); nil for anything else.
    public init?(hex text: String) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xFF), blue: UInt8(full >> 8 & 0xFF),
            alpha: UInt8(full & 0xFF))
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hex: String {
        let channels = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + channels.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}

/// How text looks (text, clock and ticker layers) and the box behind any layer.
public struct OverlayStyle: Equatable, Sendable, Codable {
    /// A font family name, found through fontconfig; a family it does not have falls back to DejaVu Sans.
    public var font: String
    /// Pixel height of the font.
    public var size: Int
    public var color: OverlayColor
    /// A box behind the layer, `padding` pixels larger on each side; nil draws none.
    public var background: OverlayColor?
    public var padding: Int

    public static let defaultFont = "DejaVu Sans"

    public init(
        font: String = OverlayStyle.defaultFont, size: Int = 32, color: OverlayColor = .white,
        background: OverlayColor? = nil, padding: Int = 8
    ) {
        self.font = font
        self.size = size
        self.color = color
        self.background = background
        self.padding = padding
    }
}

/// Which plays a layer shows during.
public enum OverlayScope: Equatable, Sendable, Codable {
    /// Always, over pictures and over black (a logo, a ticker).
    case global
    /// Only while the queue item with this id plays (its title, say).
    case item(Int)
}

/// One layer, as kept and as `overlay.list` reports it.
public struct Overlay: Equatable, Sendable, Codable {
    /// Given by OverlaySet.add, never reused.
    public var id: Int
    public var content: OverlayContent
    public var style: OverlayStyle
    public var anchor: OverlayAnchor
    /// Moves the layer inward from its anchored edge (away from the centre line for centred anchors: right
    /// and down), so `x: 20` keeps a top-right logo 20 px from the right edge.
    public var x: OverlayLength
    public var y: OverlayLength
    /// 0 (invisible) ... 1 (opaque), applied on top of the colours' own alpha.
    public var opacity: Double
    public var visible: Bool
    public var scope: OverlayScope
    /// Drawing order: higher z on top; equal z in id order.
    public var z: Int
    /// The zone whose rectangle it is drawn in, anchored to it (nil: the whole screen). Not drawn while the
    /// layout has no such zone.
    public var zone: String?

    public init(
        id: Int = 0, content: OverlayContent, style: OverlayStyle = OverlayStyle(), anchor: OverlayAnchor = .topLeft,
        x: OverlayLength = .pixels(0), y: OverlayLength = .pixels(0), opacity: Double = 1, visible: Bool = true,
        scope: OverlayScope = .global, z: Int = 0, zone: String? = nil
    ) {
        self.id = id
        self.content = content
        self.style = style
        self.anchor = anchor
        self.x = x
        self.y = y
        self.opacity = opacity
        self.visible = visible
        self.scope = scope
        self.z = z
        self.zone = zone
    }
}
