// A screen's layout: the zones it is cut into, each of which owns a queue (issue 39). A value type with no
// I/O: the daemon validates a layout whole before it is applied (`validated`), places its zones on the
// output (LayoutPlacement) and checks that their video fits what the box can decode (DecodeBudget).
// The zone named `main` is in every layout; with none set, it is the whole screen (`Layout.fullScreen`).

import QueueModel

/// A length in a zone's rectangle: pixels of the output, or a share of its side (`"75%"` is 0.75).
public enum ZoneLength: Hashable, Sendable {
    case pixels(Double)
    case share(Double)

    /// In pixels, for an output side of `extent` pixels.
    public func resolved(against extent: Double) -> Double {
        switch self {
        case .pixels(let value): value
        case .share(let value): value * extent
        }
    }

    /// A string `"N%"`: a share (a number on the wire is `.pixels`; any other string is nil).
    public init?(text: String) {
        guard text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite else { return nil }
        self = .share(percent / 100)
    }
}

/// Where a zone is on the output, in the output's own pixels (before the screen's rotation).
public struct ZoneRect: Hashable, Sendable {
    public var x: ZoneLength
    public var y: ZoneLength
    public var width: ZoneLength
    public var height: ZoneLength

    public init(x: ZoneLength, y: ZoneLength, width: ZoneLength, height: ZoneLength) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The whole output.
    public static let whole = ZoneRect(x: .share(0), y: .share(0), width: .share(1), height: .share(1))
}

/// What a zone is for, which is what it costs to decode: video (its pictures every frame), or stills and
/// text (a picture now and then, a ticker or a clock drawn by the compositor) that cost almost nothing.
public enum ZoneContent: String, Hashable, Sendable, CaseIterable {
    case video, stills, text
}

/// How a zone's pictures fill its rectangle (as the screen's `fit`).
public enum ZoneFit: String, Hashable, Sendable, CaseIterable {
    case fit, fill, stretch
}

/// One zone: a rectangle of the screen with its own queue, or (no rectangle) the music under the rest.
public struct Zone: Hashable, Sendable {
    public var name: String
    /// nil: an audio-only zone, the music under the rest (at most one per layout).
    public var rect: ZoneRect?
    /// Drawing order: higher on top; equal in the layout's order.
    public var z: Int
    public var fit: ZoneFit
    /// Degrees clockwise the zone's pictures are turned (0, 90, 180, 270).
    public var rotate: Int
    /// The colour behind the zone's pictures (0xRRGGBB; nil: black).
    public var background: UInt32?
    /// Whether this zone's sound is heard (at most one zone with a rectangle; `main` when none says so).
    public var audio: Bool
    public var content: ZoneContent
    /// A music zone: how far it is turned down while the audio zone plays an item with sound (dB, ≤ 0),
    /// and how long the turn takes (seconds).
    public var duck: Double
    public var duckRamp: Double

    public init(
        name: String, rect: ZoneRect? = .whole, z: Int = 0, fit: ZoneFit = .fit, rotate: Int = 0,
        background: UInt32? = nil, audio: Bool = false, content: ZoneContent = .video, duck: Double = -18,
        duckRamp: Double = 0.5
    ) {
        (self.name, self.rect, self.z, self.fit, self.rotate, self.background) = (name, rect, z, fit, rotate, background)
        (self.audio, self.content, self.duck, self.duckRamp) = (audio, content, duck, duckRamp)
    }

    /// Whether it is the music under the rest (no rectangle).
    public var isMusic: Bool { rect == nil }
}

/// A layout: its zones, and when it applies (a layout per daypart; nil: always).
public struct Layout: Hashable, Sendable {
    public static let mainZone = "main"
    public static let maxZones = 16

    public var name: String?
    public var zones: [Zone]
    public var schedule: ItemSchedule?

    public init(name: String? = nil, zones: [Zone], schedule: ItemSchedule? = nil) {
        (self.name, self.zones, self.schedule) = (name, zones, schedule)
    }

    /// No layout set: `main` is the whole screen and has the sound.
    public static let fullScreen = Layout(zones: [Zone(name: mainZone, audio: true)])

    public func zone(named name: String) -> Zone? { zones.first { $0.name == name } }

    /// The zone whose sound is heard: the one that says so, else `main`.
    public var audioZone: String { zones.first { $0.audio && !$0.isMusic }?.name ?? Self.mainZone }

    /// The music under the rest, if the layout has one.
    public var musicZone: Zone? { zones.first { $0.isMusic } }
}
