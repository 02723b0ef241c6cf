// What the box can decode, and whether a layout's video zones fit in it: a layout that would stutter is
// refused with the reason, never accepted. The budget is a pixel rate. In software it is the output's own
// pixels at 60 pictures a second — one full-screen 1080p60 video on a 1080p screen, measured as what a
// 2-core box decodes with room for the rest — and a video zone costs its rectangle's pixels at 60 pictures
// a second (content is made for its zone: a quarter-screen zone plays quarter-screen video). So four video
// zones of a quarter of the screen fit and a fifth does not, while a full-screen video beside a column of
// stills and a ticker fits: stills and text zones cost nothing here. `--decode-budget` sets another rate
// (a box that decodes more, in hardware or with more cores).

public struct DecodeBudget: Hashable, Sendable {
    /// Decoded pixels per second the box keeps up with.
    public var pixelsPerSecond: Double

    public init(pixelsPerSecond: Double) { self.pixelsPerSecond = pixelsPerSecond }

    /// Pictures a second a video zone is counted at.
    public static let zoneRate = 60.0

    /// Software decoding on an output of `width` × `height`: that many pixels at `zoneRate`.
    public static func software(width: Int, height: Int) -> DecodeBudget {
        DecodeBudget(pixelsPerSecond: Double(width * height) * zoneRate)
    }

    /// What `layout`'s video zones cost on that output (pixels per second): each at its rectangle's full
    /// size, past the output's edge included (a zone clipped or off the screen still decodes its video).
    public static func cost(of layout: Layout, width: Int, height: Int) -> Double {
        videoZones(of: layout).reduce(0) { total, zone in total + pixels(of: zone, width: width, height: height) * zoneRate }
    }

    /// Refuses `layout` if its video zones need more than this budget, naming them and both figures.
    public func check(_ layout: Layout, width: Int, height: Int) throws(LayoutError) {
        let cost = Self.cost(of: layout, width: width, height: height)
        guard cost > pixelsPerSecond * 1.000_001 else { return }
        let names = Self.videoZones(of: layout).map(\.name)
        throw LayoutError(
            "the video zones \(names.map { "\"\($0)\"" }.joined(separator: ", ")) would decode "
                + "\(Self.megapixels(cost)) Mpx/s at \(Int(Self.zoneRate)) pictures a second; this box's budget is "
                + "\(Self.megapixels(pixelsPerSecond)) Mpx/s (make some zones `stills` or smaller, or set --decode-budget)",
            zones: names)
    }

    private static func videoZones(of layout: Layout) -> [Zone] {
        layout.zones.filter { $0.content == .video && $0.rect != nil }
    }

    private static func pixels(of zone: Zone, width: Int, height: Int) -> Double {
        guard let rect = zone.rect else { return 0 }
        let zoneWidth = rect.width.resolved(against: Double(width)).rounded()
        let zoneHeight = rect.height.resolved(against: Double(height)).rounded()
        return max(0, zoneWidth) * max(0, zoneHeight)
    }

    /// Megapixels a second with one decimal (a cost just over the budget never reads as equal to it).
    private static func megapixels(_ rate: Double) -> String { "\((rate / 100_000).rounded() / 10)" }
}
