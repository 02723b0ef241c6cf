// `queuectl overlay …`: layers above the video (overlay.add, overlay.update, overlay.remove, overlay.list).
// Options are checked here as far as the shape goes (colours, offsets, ranges) so a typo is a usage error
// (exit 2) before anything is sent; the daemon checks the rest (an image that is not there, an item id).

import ArgumentParser
import MediaPaths
import QueueClient
import QueueRPC

struct OverlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlay", abstract: "Show or change the layers drawn above the video.",
        discussion: """
            Text may hold {title}, {id}, {position} and {duration} of the playing item. Offsets are pixels \
            (20) or percent of the screen (5%), inward from the anchor.
            """,
        subcommands: [OverlayList.self, OverlayAdd.self, OverlayUpdate.self, OverlayRemove.self],
        defaultSubcommand: OverlayList.self)
}

extension RPCOverlayAnchor: ExpressibleByArgument {}

/// Options that place and style a layer, shared by add and update (unset ones are not sent).
struct OverlayLookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Font family (fontconfig name).", valueName: "family")) var font: String?
    @Option(help: ArgumentHelp("Font pixel size (1 to 1000).", valueName: "px")) var size: Int64?
    @Option(help: ArgumentHelp("Text colour, #rrggbb or #rrggbbaa.", valueName: "colour")) var color: String?
    @Option(help: ArgumentHelp("Box behind the layer, #rrggbb[aa], or none.", valueName: "colour"))
    var background: String?
    @Option(help: ArgumentHelp("Box padding in pixels.", valueName: "px")) var padding: Int64?
    @Option(help: ArgumentHelp("top-left, top, top-right, left, center, right, bottom-left, bottom or bottom-right."))
    var anchor: RPCOverlayAnchor?
    @Option(help: ArgumentHelp("Horizontal offset from the anchor: pixels or N%.", valueName: "offset")) var x: String?
    @Option(help: ArgumentHelp("Vertical offset from the anchor: pixels or N%.", valueName: "offset")) var y: String?
    @Option(help: ArgumentHelp("0 (invisible) to 1 (opaque).", valueName: "opacity")) var opacity: Double?
    @Option(help: ArgumentHelp("Show it only while this item plays.", valueName: "id")) var item: Int64?
    @Flag(help: "Show it whatever plays (undoes --item).") var global = false
    @Flag(help: "Keep it but do not draw it.") var hide = false
    @Flag(help: "Draw it again.") var show = false
    @Option(help: ArgumentHelp("Drawing order: higher on top.", valueName: "z")) var z: Int64?

    func validate() throws {
        for (name, value) in [("--color", color), ("--background", background == "none" ? nil : background)] {
            if let value, !RPCOverlay.isColour(value) { throw ValidationError("\(name) must be #rrggbb or #rrggbbaa") }
        }
        if let size, !RPCOverlay.sizes.contains(size) { throw ValidationError("--size must be between 1 and 1000") }
        if let padding, !RPCOverlay.paddings.contains(padding) {
            throw ValidationError("--padding must be between 0 and 1000")
        }
        if let opacity, !(0...1).contains(opacity) { throw ValidationError("--opacity must be between 0 and 1") }
        if hide && show { throw ValidationError("--hide and --show exclude each other") }
        if global && item != nil { throw ValidationError("--item and --global exclude each other") }
        _ = try length(x, "--x")
        _ = try length(y, "--y")
    }

    /// `12`, `12px` or `5%` as the wire's offset.
    private func length(_ text: String?, _ name: String) throws -> RPCLength? {
        guard let text else { return nil }
        let value: JSONValue = Double(text).map(JSONValue.double) ?? .string(text)
        do {
            return try RPCLength(json: value, param: name)
        } catch {
            throw ValidationError("\(name) must be pixels (20) or percent (5%)")
        }
    }

    /// Copies the options given into `fields`.
    func fill(_ fields: inout RPCOverlay) throws {
        fields.font = font
        fields.size = size
        fields.color = color
        if let background { fields.background = .some(background == "none" ? nil : background) }
        fields.padding = padding
        fields.anchor = anchor
        fields.x = try length(x, "--x")
        fields.y = try length(y, "--y")
        fields.opacity = opacity
        if hide { fields.visible = false }
        if show { fields.visible = true }
        if let item { fields.item = .some(item) }
        if global { fields.item = .some(nil) }
        fields.z = z
    }
}

struct OverlayAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a text, image, clock or ticker layer.",
        discussion: """
            Examples: overlay add --text "Lobby" --anchor top-left --background '#00000080'; \
            overlay add --image logo.png --anchor top-right --x 2% --y 2%; overlay add --clock --format %H:%M:%S; \
            overlay add --ticker "News..." --speed 120 --anchor bottom.
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Option(help: ArgumentHelp("A text layer.", valueName: "text")) var text: String?
    @Option(help: ArgumentHelp("An image layer (PNG or JPEG).", valueName: "path"), completion: .file())
    var image: String?
    @Flag(help: "A clock layer (see --format).") var clock = false
    @Option(help: ArgumentHelp("A scrolling ticker layer.", valueName: "text")) var ticker: String?
    @Option(help: ArgumentHelp("Clock pattern, strftime (default %H:%M).", valueName: "pattern")) var format: String?
    @Option(help: ArgumentHelp("Ticker speed in pixels per second (default 100).", valueName: "px/s")) var speed: Double?
    @OptionGroup(title: "Look and place") var look: OverlayLookOptions

    func validate() throws {
        let kinds = [text != nil, image != nil, clock, ticker != nil].filter { $0 }.count
        guard kinds == 1 else { throw ValidationError("give one of --text, --image, --clock or --ticker") }
        if format != nil && !clock { throw ValidationError("--format goes with --clock") }
        if speed != nil && ticker == nil { throw ValidationError("--speed goes with --ticker") }
        if let speed, !RPCOverlay.speeds.contains(speed) { throw ValidationError("--speed must be between 1 and 10000") }
    }

    func run() throws {
        var fields = RPCOverlay()
        if let text {
            fields.type = .text
            fields.text = text
        } else if let image {
            fields.type = .image
            fields.path = MediaPaths.absolute(image, cwd: try Session.currentDirectory())
        } else if clock {
            fields.type = .clock
            fields.format = format
        } else {
            fields.type = .ticker
            fields.text = ticker
            fields.speed = speed
        }
        try look.fill(&fields)
        // `--zone NAME`: the layer is drawn in that zone's rectangle.
        if let zone = options.zone { fields.zone = .some(zone) }
        let session = try Session(options)
        try session.show(try session.call(API.OverlayAdd.self, .init(overlay: fields))) { "added overlay #\($0.id)" }
    }
}

struct OverlayUpdate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Change a layer (only the options given).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The layer.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("New text (text and ticker layers).", valueName: "text")) var text: String?
    @Option(help: ArgumentHelp("New image file (image layers).", valueName: "path"), completion: .file())
    var image: String?
    @Option(help: ArgumentHelp("New clock pattern (clock layers).", valueName: "pattern")) var format: String?
    @Option(help: ArgumentHelp("New ticker speed, pixels per second.", valueName: "px/s")) var speed: Double?
    @OptionGroup(title: "Look and place") var look: OverlayLookOptions

    func validate() throws {
        if let speed, !RPCOverlay.speeds.contains(speed) { throw ValidationError("--speed must be between 1 and 10000") }
    }

    func run() throws {
        var fields = RPCOverlay()
        fields.text = text
        if let image { fields.path = MediaPaths.absolute(image, cwd: try Session.currentDirectory()) }
        fields.format = format
        fields.speed = speed
        try look.fill(&fields)
        let session = try Session(options)
        try session.show(try session.call(API.OverlayUpdate.self, .init(id: id, changes: fields))) { result in
            OverlayList.row(result.overlay)
        }
    }
}

struct OverlayRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove layers.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Layers to remove.", valueName: "id")) var ids: [Int64]

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.OverlayRemove.self, .init(ids: ids))) { result in
            "removed " + result.removed.map { "#\($0)" }.joined(separator: " ")
        }
    }
}

struct OverlayList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the layers, bottom first.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.OverlayList.self)) { result in
            result.overlays.isEmpty ? "no overlays" : result.overlays.map(Self.row).joined(separator: "\n")
        }
    }

    /// `#3  clock "%H:%M"  top-right +2%,+2%  item #7  hidden`
    static func row(_ overlay: RPCOverlay) -> String {
        var parts = ["#\(overlay.id ?? 0)", overlay.type?.rawValue ?? "?"]
        if let text = overlay.text { parts.append("\"\(text)\"") }
        if let path = overlay.path { parts.append(path) }
        if let format = overlay.format { parts.append("\"\(format)\"") }
        if let speed = overlay.speed { parts.append("\(RPCLength.number(speed)) px/s") }
        let (x, y) = (overlay.x?.text ?? "0", overlay.y?.text ?? "0")
        parts.append("\(overlay.anchor?.rawValue ?? "top-left") \(x),\(y)")
        if case .some(.some(let item)) = overlay.item { parts.append("item #\(item)") }
        if overlay.visible == false { parts.append("hidden") }
        return parts.joined(separator: "  ")
    }
}
