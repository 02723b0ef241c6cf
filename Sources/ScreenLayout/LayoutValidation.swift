// A layout is checked whole before it is applied: a layout that is refused changes nothing, and the reason
// names the zones at fault. (What the box can decode is DecodeBudget's check, which needs the output.)
// Past the screen's edge: shares that add up past 100 % are refused (a typo on every screen), while pixels
// are clipped to the output (a layout made for a bigger screen still shows on a smaller one).

/// Why a layout was refused, naming the zones at fault.
public struct LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var zones: [String]

    public init(_ message: String, zones: [String] = []) {
        self.message = message
        self.zones = zones
    }

    public var description: String { message }
}

extension Layout {
    /// Zone names: what a client types after `--zone`, kept plain.
    static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// The layout itself, if it can be applied; otherwise the first reason it cannot.
    public func validated() throws(LayoutError) -> Layout {
        guard !zones.isEmpty else { throw LayoutError("a layout needs at least the zone \"main\"") }
        guard zones.count <= Self.maxZones else {
            throw LayoutError("a layout has at most \(Self.maxZones) zones (this one has \(zones.count))")
        }
        var seen = Set<String>()
        for zone in zones {
            guard Self.isValidName(zone.name) else {
                throw LayoutError(
                    "zone name \"\(zone.name.prefix(40))\": 1 to 32 letters, digits, '-' or '_'", zones: [zone.name])
            }
            guard seen.insert(zone.name).inserted else {
                throw LayoutError("two zones are named \"\(zone.name)\"", zones: [zone.name])
            }
            try Self.check(zone)
        }
        guard let main = zone(named: Self.mainZone) else {
            throw LayoutError("every layout has the zone \"main\" (it may be small, or under the others)")
        }
        guard !main.isMusic else {
            throw LayoutError("the zone \"main\" needs a rectangle (music is another zone's)", zones: [main.name])
        }
        let music = zones.filter(\.isMusic)
        guard music.count <= 1 else {
            throw LayoutError("at most one zone has no rectangle (the music under the rest)", zones: music.map(\.name))
        }
        let sounding = zones.filter { $0.audio && !$0.isMusic }
        guard sounding.count <= 1 else {
            throw LayoutError("at most one zone's sound is heard (`audio: true`)", zones: sounding.map(\.name))
        }
        return self
    }

    private static func check(_ zone: Zone) throws(LayoutError) {
        let name = zone.name
        guard (-1000...1000).contains(zone.z) else { throw LayoutError("zone \"\(name)\": z is -1000 to 1000", zones: [name]) }
        guard [0, 90, 180, 270].contains(zone.rotate) else {
            throw LayoutError("zone \"\(name)\": rotate is 0, 90, 180 or 270", zones: [name])
        }
        if let background = zone.background, background > 0xFF_FFFF {
            throw LayoutError("zone \"\(name)\": background is a colour #rrggbb", zones: [name])
        }
        guard zone.duck.isFinite, (-60...0).contains(zone.duck) else {
            throw LayoutError("zone \"\(name)\": duck is -60 to 0 dB", zones: [name])
        }
        guard zone.duckRamp.isFinite, (0...10).contains(zone.duckRamp) else {
            throw LayoutError("zone \"\(name)\": duckRamp is 0 to 10 seconds", zones: [name])
        }
        guard let rect = zone.rect else {
            if zone.audio { throw LayoutError("zone \"\(name)\": a music zone is always heard; `audio` is for the others", zones: [name]) }
            return
        }
        for (side, length) in [("x", rect.x), ("y", rect.y), ("w", rect.width), ("h", rect.height)] {
            switch length {
            case .pixels(let value):
                guard value.isFinite, (0...32768).contains(value) else {
                    throw LayoutError("zone \"\(name)\": \(side) is 0 to 32768 pixels", zones: [name])
                }
            case .share(let value):
                guard value.isFinite, (0...1).contains(value) else {
                    throw LayoutError("zone \"\(name)\": \(side) is 0% to 100%", zones: [name])
                }
            }
        }
        for (side, length) in [("w", rect.width), ("h", rect.height)] {
            switch length {
            case .pixels(let value) where value < 1, .share(let value) where value <= 0:
                throw LayoutError("zone \"\(name)\": \(side) is at least 1 pixel", zones: [name])
            default: break
            }
        }
        if case .share(let x) = rect.x, case .share(let width) = rect.width, x + width > 1.000_001 {
            throw LayoutError("zone \"\(name)\": x + w goes past the right edge (\(percent(x + width)))", zones: [name])
        }
        if case .share(let y) = rect.y, case .share(let height) = rect.height, y + height > 1.000_001 {
            throw LayoutError("zone \"\(name)\": y + h goes past the bottom edge (\(percent(y + height)))", zones: [name])
        }
    }

    private static func percent(_ share: Double) -> String { "\((share * 1000).rounded() / 10)%" }
}
