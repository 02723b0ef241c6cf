// What is drawn now: the overlays that show at this moment (visible, in scope), with their text resolved —
// placeholders filled from the playing item, clocks formatted at the given local time. A pure function of
// its inputs; the presenter thread calls it before each draw, the renderer caches by the resolved values.

import Glibc

/// The item whose picture (or sound) is on now, as placeholders show it.
public struct PlayingItem: Equatable, Sendable {
    public var id: Int
    public var title: String
    /// Seconds into the item.
    public var position: Double
    public var duration: Double?

    public init(id: Int, title: String, position: Double, duration: Double?) {
        self.id = id
        self.title = title
        self.position = position
        self.duration = duration
    }
}

/// One layer to draw, resolved.
public struct OverlayLayer: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case text(String)
        case image(path: String)
        case ticker(text: String, speed: Double)
    }

    public var id: Int
    public var kind: Kind
    public var style: OverlayStyle
    public var anchor: OverlayAnchor
    public var x: OverlayLength
    public var y: OverlayLength
    public var opacity: Double
    /// Drawn in this zone's rectangle (nil: the whole screen).
    public var zone: String? = nil
}

public enum OverlayScene {
    /// The layers to draw, bottom first: visible ones whose scope is global or the playing item.
    /// `unixTime` is the wall clock (seconds) clocks show, in the box's local time zone.
    public static func layers(of set: OverlaySet, playing: PlayingItem?, unixTime: Double) -> [OverlayLayer] {
        set.overlays.compactMap { overlay in
            guard overlay.visible, overlay.opacity > 0 else { return nil }
            if case .item(let id) = overlay.scope, id != playing?.id { return nil }
            let kind: OverlayLayer.Kind
            switch overlay.content {
            case .text(let text): kind = .text(fill(text, from: playing))
            case .image(let path): kind = .image(path: path)
            case .clock(let format): kind = .text(localTime(format, unixTime: unixTime))
            case .ticker(let text, let speed): kind = .ticker(text: fill(text, from: playing), speed: speed)
            }
            return OverlayLayer(
                id: overlay.id, kind: kind, style: overlay.style, anchor: overlay.anchor, x: overlay.x, y: overlay.y,
                opacity: min(max(overlay.opacity, 0), 1), zone: overlay.zone)
        }
    }

    /// `text` with `{title}`, `{id}`, `{position}` and `{duration}` replaced (by nothing when no item plays);
    /// other braces are left as they are.
    public static func fill(_ text: String, from item: PlayingItem?) -> String {
        guard text.contains("{") else { return text }
        let values = [
            "{title}": item?.title ?? "",
            "{id}": item.map { String($0.id) } ?? "",
            "{position}": item.map { clockText($0.position) } ?? "",
            "{duration}": item?.duration.map(clockText) ?? "",
        ]
        var result = text
        for (placeholder, value) in values where result.contains(placeholder) {
            result = result.replacing(placeholder, with: value)
        }
        return result
    }

    /// `m:ss`, or `h:mm:ss` from an hour on (seconds rounded down).
    public static func clockText(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(Int(seconds), 0) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }

    /// strftime(3) of `unixTime` in the local time zone (TZ, /etc/localtime); an empty result for a pattern
    /// that formats to nothing or to more than 255 bytes.
    public static func localTime(_ format: String, unixTime: Double) -> String {
        var seconds = time_t(unixTime.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        let count = strftime(&buffer, buffer.count, format, &parts)
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
