// Transport subcommands: each is one player.* call answered with a Status, printed as the status block
// (as mpc does after a command) or, with --json, as the Status. They share this file because each is a
// few lines; a file apiece would be mostly boilerplate.

import ArgumentParser
import FoundationEssentials
import Glibc
import SystemSupport
import QueueClient
import QueueRPC
import QueuectlPresentation

/// A subcommand that is exactly one Status-returning call without parameters.
protocol StatusCommand: ParsableCommand {
    associatedtype Method: RPCMethodDefinition where Method.Params == NoParams, Method.Result == RPCStatus
    var options: GlobalOptions { get }
}

extension StatusCommand {
    func run() throws {
        let session = try Session(options)
        try session.showStatus(try session.call(Method.self))
    }
}

struct Next: StatusCommand {
    static let configuration = CommandConfiguration(abstract: "Skip to the next item.")
    typealias Method = API.PlayerNext
    @OptionGroup(title: "Global Options") var options: GlobalOptions
}

struct Prev: StatusCommand {
    static let configuration = CommandConfiguration(abstract: "Go back to the previous item.")
    typealias Method = API.PlayerPrevious
    @OptionGroup(title: "Global Options") var options: GlobalOptions
}

struct Pause: StatusCommand {
    static let configuration = CommandConfiguration(abstract: "Pause playback.")
    typealias Method = API.PlayerPause
    @OptionGroup(title: "Global Options") var options: GlobalOptions
}

struct Toggle: StatusCommand {
    static let configuration = CommandConfiguration(abstract: "Pause if playing, play if paused.")
    typealias Method = API.PlayerToggle
    @OptionGroup(title: "Global Options") var options: GlobalOptions
}

struct Stop: StatusCommand {
    static let configuration = CommandConfiguration(abstract: "Stop playback.")
    typealias Method = API.PlayerStop
    @OptionGroup(title: "Global Options") var options: GlobalOptions
}

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Start or resume playback, or play the item ID.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Item to play (default: resume or start the queue).", valueName: "id"))
    var id: Int64?

    @Option(
        help: ArgumentHelp(
            "Synchronized start: show the first picture at this Unix time (seconds, with a fraction), or +SECONDS from now. Give every screen of a wall the same instant.",
            valueName: "time"))
    var at: String?

    /// `--at` as Unix seconds: absolute, or "+N" from now.
    var instant: Double? {
        guard let at else { return nil }
        if at.hasPrefix("+") { return Double(at.dropFirst()).map { Date().timeIntervalSince1970 + $0 } }
        return Double(at)
    }

    func validate() throws {
        if at != nil, instant.map({ $0.isFinite }) != true {
            throw ValidationError("--at must be a Unix time in seconds (e.g. 1795000000.5) or +SECONDS")
        }
    }

    func run() throws {
        let session = try Session(options)
        try session.showStatus(try session.call(API.PlayerPlay.self, .init(id: id, at: instant)))
    }
}

struct Seek: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Seek in the current item.",
        // The generated usage would show the array below as "[<position> ...]".
        usage: "queuectl seek [--socket <path>] [--json] [--timeout <seconds>] [+|-]<position>",
        discussion: "POSITION is seconds or m:ss (h:mm:ss); with + or - it is relative: seek +10, seek -1:00.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    // An array with .allUnrecognized so that "-10" is taken as a value, not as an unknown option "-1".
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("[+|-]SECONDS or [+|-]m:ss.", valueName: "position"))
    var position: [String] = []

    func validate() throws {
        guard position.count == 1 else { throw ValidationError("give exactly one position, e.g. 42, 1:30, +10 or -5") }
        guard SeekTarget(position[0]) != nil else {
            throw ValidationError(
                "'\(position[0])' is not a position: use SECONDS or m:ss, with + or - to seek relatively")
        }
    }

    func run() throws {
        guard let target = SeekTarget(position[0]) else { throw ValidationError("bad position") }
        let session = try Session(options)
        try session.showStatus(try session.call(API.PlayerSeek.self, target.params))
    }
}
