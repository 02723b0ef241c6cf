// Player settings and queries: status, volume, mute/unmute, fit, rotate (player.set), screenshot. Grouped like
// TransportCommands.

import ArgumentParser
import FoundationEssentials
import Glibc
import SystemSupport
import Glibc
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what is playing, where, and the settings.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.showStatus(try session.call(API.PlayerStatus.self))
    }
}

struct Volume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set the volume (0-100), or show it.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Volume in percent, 0-100.", valueName: "percent")) var percent: Int64?

    func validate() throws {
        if let percent, !(0...100).contains(percent) { throw ValidationError("volume must be 0 to 100") }
    }

    func run() throws {
        try Session(options).setOrShow(percent.map { .init(volume: $0) }) { "volume: \($0.volume)%" }
    }
}

struct Mute: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mute the sound (the volume is kept).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.showStatus(try session.call(API.PlayerSet.self, .init(muted: true)))
    }
}

struct Unmute: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unmute the sound.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.showStatus(try session.call(API.PlayerSet.self, .init(muted: false)))
    }
}

struct Fit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set how the picture fills the screen, or show it.",
        discussion: "fit: the whole picture, black bars; fill: no bars, the edges cut; stretch: no bars, nothing cut.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("fit, fill or stretch.", valueName: "mode")) var mode: RPCFit?

    func run() throws {
        try Session(options).setOrShow(mode.map { .init(fit: $0) }) { "fit: \($0.fit)" }
    }
}

struct Rotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the picture clockwise (0, 90, 180 or 270 degrees), or show how it is turned.",
        discussion: "For a panel mounted on its side: 90 when its own top edge is on the left, 270 when on the right.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("0, 90, 180 or 270.", valueName: "degrees")) var degrees: Int64?

    func validate() throws {
        if let degrees, !API.PlayerSet.Params.rotations.contains(degrees) {
            throw ValidationError("rotate takes 0, 90, 180 or 270")
        }
    }

    func run() throws {
        try Session(options).setOrShow(degrees.map { .init(rotate: $0) }) { "rotate: \($0.rotate)" }
    }
}

struct Screenshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save the picture on screen as a PNG (or JPEG) file.",
        discussion: """
            A file name ending in .jpg or .jpeg asks for a JPEG. With --json, prints {"file": PATH, "bytes": N} \
            rather than the picture itself.
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(
        help: ArgumentHelp("Where to write the picture.", valueName: "file.png"),
        completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var file: String

    @Option(help: ArgumentHelp("Scale it down to at most this width (a thumbnail).", valueName: "pixels"))
    var maxWidth: Int64?

    func validate() throws {
        if let maxWidth, !(16...16_384).contains(maxWidth) { throw ValidationError("--max-width takes 16 to 16384") }
    }

    func run() throws {
        let session = try Session(options)
        let lowercased = file.lowercased()
        let jpeg = lowercased.hasSuffix(".jpg") || lowercased.hasSuffix(".jpeg")
        let result = try session.call(
            API.PlayerScreenshot.self, .init(format: jpeg ? .jpeg : nil, maxWidth: maxWidth)
        ).result
        guard let text = jpeg ? result.jpeg : result.png, let data = Data(base64Encoded: text) else {
            throw QueuectlError("queued's screenshot answer has no valid base64 \"\(jpeg ? "jpeg" : "png")\"")
        }
        let png = [UInt8](data)
        try Screenshot.write(png, to: file)
        if options.json {
            Output.json(["file": .string(file), "bytes": .int(Int64(png.count))])
        } else {
            Output.line("wrote \(file) (\(png.count) bytes)")
        }
    }

    /// Creates or truncates `path` (mode 0644 before umask) and writes all of `bytes`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw QueuectlError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw QueuectlError("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}

extension RPCFit: ExpressibleByArgument {}

struct Display: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the screen off or on, give it back to its schedule (auto), or show its power.",
        discussion: """
            Off: the picture goes black, the sound stops, decoding pauses and the screen is told to sleep; on: it \
            wakes and the queue goes on where it was. A setting lasts until the schedule's next change \
            (queued --display-schedule).
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("on, off or auto.", valueName: "power")) var power: RPCDisplayPower?

    func run() throws {
        let session = try Session(options)
        let answer =
            if let power {
                try session.call(API.DisplayPower.self, .init(power: power))
            } else {
                try session.call(API.PlayerStatus.self)
            }
        try session.show(answer) { DisplayLine.render($0.display) }
    }
}

extension RPCDisplayPower: ExpressibleByArgument {}
