// A web page as an item (issue 40): what is shown is a page a web engine renders off-screen; these are the
// choices of how. Pure data, validated with the item.

/// How a web item's page is loaded and kept.
public struct WebItem: Sendable, Equatable, Hashable, Codable {
    public enum Reload: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// Loaded afresh before every play (the default).
        case eachPlay = "each-play"
        /// Loaded once and kept alive between plays (a dashboard): the next play shows it as it is now, and
        /// a page that cannot be reloaded (offline) stays on screen as it was.
        case keep
    }

    /// nil: each play.
    public var reload: Reload?
    /// The page's zoom factor (0.25 to 5; nil: 1).
    public var zoom: Double?
    /// The CSS size the page is laid out at (nil: the size of the zone it shows in).
    public var viewport: PictureSize?
    /// Seconds between reloads while the page is kept or shown (nil: never reloaded during a play). 5 or more.
    public var interval: Double?
    /// Seconds the page may take to load and paint before its play fails (nil: 15).
    public var loadTimeout: Double?

    public init(
        reload: Reload? = nil, zoom: Double? = nil, viewport: PictureSize? = nil, interval: Double? = nil,
        loadTimeout: Double? = nil
    ) {
        self.reload = reload
        self.zoom = zoom
        self.viewport = viewport
        self.interval = interval
        self.loadTimeout = loadTimeout
    }

    public static let defaultLoadTimeout = 15.0
    public static let zooms: ClosedRange<Double> = 0.25...5
    public static let viewportSides: ClosedRange<Int> = 16...7680
    public static let loadTimeouts: ClosedRange<Double> = 1...300
    public static let shortestInterval = 5.0

    public func validate() throws {
        if let zoom, !Self.zooms.contains(zoom) {
            throw QueueError.invalidWindow("zoom must be between 0.25 and 5 (got \(zoom))")
        }
        if let viewport, !Self.viewportSides.contains(viewport.width) || !Self.viewportSides.contains(viewport.height) {
            throw QueueError.invalidWindow(
                "viewport must be between 16 and 7680 pixels a side (got \(viewport.width)x\(viewport.height))")
        }
        if let interval, !(interval.isFinite && interval >= Self.shortestInterval) {
            throw QueueError.invalidWindow("interval must be at least 5 seconds (got \(interval))")
        }
        if let loadTimeout, !Self.loadTimeouts.contains(loadTimeout) {
            throw QueueError.invalidWindow("loadTimeout must be between 1 and 300 seconds (got \(loadTimeout))")
        }
    }

    /// Whether a URI names a page a web engine shows without being told (a local .html or .htm file).
    public static func isPageFile(_ uri: String) -> Bool {
        guard !uri.hasPrefix("http://"), !uri.hasPrefix("https://") else { return false }
        let lower = uri.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }
}

extension MediaItem {
    /// The item is a web page: marked `type: web`, or a local .html file.
    public var isWebPage: Bool { web != nil || WebItem.isPageFile(uri) }
}
