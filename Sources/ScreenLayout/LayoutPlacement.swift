// A layout's zones on an output of a given size: whole pixels, clipped to the output, in drawing order
// (z, then the layout's order). The compositor draws them in this order; the budget counts their pixels.

/// A zone's rectangle in whole output pixels.
public struct PlacedRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var pixels: Int { width * height }
}

/// A zone with a rectangle, placed.
public struct PlacedZone: Hashable, Sendable {
    public var zone: Zone
    public var rect: PlacedRect
}

extension Layout {
    /// The zones with a rectangle on an output of `width` × `height` pixels, bottom first. Edges are rounded
    /// to the nearest pixel (so `"50%"` zones side by side meet without a gap or an overlap); a zone whose
    /// rectangle falls outside the output is kept with no area (it shows nothing, its queue plays on).
    public func placed(width: Int, height: Int) -> [PlacedZone] {
        let drawable = zones.enumerated().compactMap { index, zone in zone.rect.map { (index, zone, $0) } }
        let ordered = drawable.sorted { ($0.1.z, $0.0) < ($1.1.z, $1.0) }
        return ordered.map { _, zone, rect in
            let outputWidth = Double(width)
            let outputHeight = Double(height)
            let left = edge(rect.x.resolved(against: outputWidth), limit: width)
            let top = edge(rect.y.resolved(against: outputHeight), limit: height)
            let right = edge(rect.x.resolved(against: outputWidth) + rect.width.resolved(against: outputWidth), limit: width)
            let bottom = edge(rect.y.resolved(against: outputHeight) + rect.height.resolved(against: outputHeight), limit: height)
            return PlacedZone(
                zone: zone, rect: PlacedRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top)))
        }
    }

    private func edge(_ value: Double, limit: Int) -> Int { min(limit, max(0, Int(value.rounded()))) }
}
