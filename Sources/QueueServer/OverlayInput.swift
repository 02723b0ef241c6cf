// overlay.add / overlay.update fields → a layer, and a layer → its wire form. The wire type has checked
// shapes and ranges; here are the layer's own rules: which fields fit which type, what is required, the
// defaults, and that an image names an existing file by absolute path.

import FoundationEssentials
import Glibc
import SystemSupport
import Overlays
import QueueRPC

enum OverlayInput {
    static let defaultClockFormat = "%H:%M"
    static let defaultTickerSpeed = 100.0

    /// A new layer from overlay.add's fields (its type is given).
    static func overlay(from fields: RPCOverlay) throws(RPCError) -> Overlay {
        let content: OverlayContent
        switch fields.type ?? .text {
        case .text:
            content = .text(try required(fields.text, "text", for: .text))
        case .image:
            content = .image(path: try imagePath(try required(fields.path, "path", for: .image)))
        case .clock:
            content = .clock(format: fields.format ?? defaultClockFormat)
        case .ticker:
            content = .ticker(text: try required(fields.text, "text", for: .ticker), speed: fields.speed ?? defaultTickerSpeed)
        }
        var overlay = Overlay(content: content)
        try apply(fields, to: &overlay)
        return overlay
    }

    /// Applies the fields given to `overlay`; a field its type has no use for is an error.
    static func apply(_ fields: RPCOverlay, to overlay: inout Overlay) throws(RPCError) {
        let type = RPCOverlayType(rawValue: overlay.content.kindName) ?? .text
        func refuse(_ field: String) -> RPCError {
            .invalidParams(param: field, reason: "does not apply to a \(type.rawValue) overlay")
        }
        switch overlay.content {
        case .text:
            if fields.path != nil { throw refuse("path") }
            if fields.format != nil { throw refuse("format") }
            if fields.speed != nil { throw refuse("speed") }
            if let text = fields.text { overlay.content = .text(text) }
        case .image:
            if fields.text != nil { throw refuse("text") }
            if fields.format != nil { throw refuse("format") }
            if fields.speed != nil { throw refuse("speed") }
            if let path = fields.path { overlay.content = .image(path: try imagePath(path)) }
        case .clock(let format):
            if fields.text != nil { throw refuse("text") }
            if fields.path != nil { throw refuse("path") }
            if fields.speed != nil { throw refuse("speed") }
            overlay.content = .clock(format: fields.format ?? format)
        case .ticker(let text, let speed):
            if fields.path != nil { throw refuse("path") }
            if fields.format != nil { throw refuse("format") }
            overlay.content = .ticker(text: fields.text ?? text, speed: fields.speed ?? speed)
        }
        if let font = fields.font {
            guard !font.isEmpty else { throw .invalidParams(param: "font", reason: "must name a font family") }
            overlay.style.font = font
        }
        if let size = fields.size { overlay.style.size = Int(size) }
        if let color = fields.color { overlay.style.color = try colour(color, "color") }
        if let background = fields.background {
            overlay.style.background = try background.map { text throws(RPCError) in try colour(text, "background") }
        }
        if let padding = fields.padding { overlay.style.padding = Int(padding) }
        if let anchor = fields.anchor { overlay.anchor = OverlayAnchor(rawValue: anchor.rawValue) ?? .topLeft }
        if let x = fields.x { overlay.x = length(x) }
        if let y = fields.y { overlay.y = length(y) }
        if let opacity = fields.opacity { overlay.opacity = opacity }
        if let visible = fields.visible { overlay.visible = visible }
        if let item = fields.item { overlay.scope = item.map { .item(Int($0)) } ?? .global }
        if let z = fields.z { overlay.z = Int(z) }
        if let zone = fields.zone { overlay.zone = zone }
    }

    /// Every field of a layer, as overlay.list shows it.
    static func wire(_ overlay: Overlay) -> RPCOverlay {
        var fields = RPCOverlay(id: Int64(overlay.id), type: RPCOverlayType(rawValue: overlay.content.kindName))
        switch overlay.content {
        case .text(let text): fields.text = text
        case .image(let path): fields.path = path
        case .clock(let format): fields.format = format
        case .ticker(let text, let speed):
            fields.text = text
            fields.speed = speed
        }
        fields.font = overlay.style.font
        fields.size = Int64(overlay.style.size)
        fields.color = overlay.style.color.hex
        fields.background = .some(overlay.style.background?.hex)
        fields.padding = Int64(overlay.style.padding)
        fields.anchor = RPCOverlayAnchor(rawValue: overlay.anchor.rawValue)
        fields.x = wire(overlay.x)
        fields.y = wire(overlay.y)
        fields.opacity = overlay.opacity
        fields.visible = overlay.visible
        if case .item(let id) = overlay.scope { fields.item = .some(Int64(id)) } else { fields.item = .some(nil) }
        fields.z = Int64(overlay.z)
        fields.zone = .some(overlay.zone)
        return fields
    }

    private static func required(_ value: String?, _ field: String, for type: RPCOverlayType) throws(RPCError) -> String {
        guard let value else { throw .invalidParams(param: field, reason: "is required for a \(type.rawValue) overlay") }
        return value
    }

    private static func imagePath(_ path: String) throws(RPCError) -> String {
        guard path.hasPrefix("/") else { throw .invalidParams(param: "path", reason: "must be an absolute path") }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
            throw .invalidParams(param: "path", reason: "names no file (\(path))")
        }
        return path
    }

    private static func colour(_ text: String, _ field: String) throws(RPCError) -> OverlayColor {
        guard let colour = OverlayColor(hex: text) else {
            throw .invalidParams(param: field, reason: "must be a colour \"#rrggbb\" or \"#rrggbbaa\"")
        }
        return colour
    }

    private static func length(_ value: RPCLength) -> OverlayLength {
        switch value {
        case .pixels(let pixels): .pixels(pixels)
        case .percent(let percent): .percent(percent)
        }
    }

    private static func wire(_ value: OverlayLength) -> RPCLength {
        switch value {
        case .pixels(let pixels): .pixels(pixels)
        case .percent(let percent): .percent(percent)
        }
    }
}
