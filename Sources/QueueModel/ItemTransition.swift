// How one item is joined to the play before it: a cut (the gapless join, the default), a fade out to black
// and in again, a dip through a colour, or a crossfade. For a fade or a dip the `duration` is the whole
// change: the outgoing play darkens over its last half, the incoming one lightens over its first half, so
// neither is lengthened or shortened (a 10 s still with a 2 s fade is seen clearly for 8 s). A crossfade
// overlaps the two plays instead: the incoming one starts `duration` before the outgoing one ends. Pure
// data; its wire and text forms are QueueRPC's RPCTransition.

public struct ItemTransition: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case cut, fade, dip, crossfade
    }

    public var kind: Kind
    /// Seconds the whole change lasts (0.1–5; 0 for a cut).
    public var duration: Double
    /// What the pictures pass through: black for a fade, the given colour for a dip.
    public var color: TransitionColor

    public static let cut = ItemTransition(kind: .cut, duration: 0)
    /// The durations accepted for a fade or a dip.
    public static let durations = 0.1...5.0
    /// A dip's colour when none is given.
    public static let defaultDipColor = TransitionColor(red: 255, green: 255, blue: 255)

    public init(kind: Kind, duration: Double, color: TransitionColor? = nil) {
        self.kind = kind
        self.duration = kind == .cut ? 0 : duration
        self.color = color ?? (kind == .dip ? Self.defaultDipColor : TransitionColor(red: 0, green: 0, blue: 0))
    }

    /// Whether the join is anything but the gapless cut.
    public var softens: Bool { kind != .cut }
    /// Whether the two plays overlap (a crossfade) rather than meet (a cut, a fade, a dip).
    public var overlaps: Bool { kind == .crossfade }
    /// Whether the pictures pass through a colour (a fade or a dip).
    public var veils: Bool { kind == .fade || kind == .dip }

    /// Throws unless a fade, dip or crossfade lasts 0.1–5 s.
    public func validate() throws(QueueError) {
        guard kind == .cut || (duration.isFinite && Self.durations.contains(duration)) else {
            throw .invalidTransition("a \(kind.rawValue) lasts 0.1 to 5 seconds (got \(duration))")
        }
    }
}

/// An opaque colour, 8 bits a channel.
public struct TransitionColor: Sendable, Hashable, Codable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// "#rrggbb" (or without the "#").
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits.removeFirst() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// "#rrggbb".
    public var hex: String {
        func two(_ byte: UInt8) -> String {
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + two(red) + two(green) + two(blue)
    }
}
