// Commands for scripts (what users of mpc and playerctl reach for): `current` (one formatted line),
// `wait` (block until an event), `crop` (keep only the current item) and `save` (the queue as a playlist
// that `add` reads back).

import ArgumentParser
import FoundationEssentials
import Glibc
import SystemSupport
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Current: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one line about the current item (nothing when none).",
        discussion: "Placeholders for --format: "
            + CurrentLine.placeholders.map { "{\($0.name)} \($0.meaning)" }.joined(separator: "; ")
            + ". Write {{ and }} for literal braces.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Option(help: ArgumentHelp("The line, with {placeholders}.", valueName: "format"))
    var format = CurrentLine.defaultFormat

    func validate() throws {
        if let problem = CurrentLine.problem(in: format) { throw ValidationError(problem) }
    }

    func run() throws {
        let session = try Session(options)
        let answer = try session.call(API.PlayerStatus.self)
        if options.json {
            Output.json(answer.json)
            return
        }
        if let line = CurrentLine.render(format, status: answer.result) { Output.line(line) }
    }
}

struct Wait: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait for an event, print it and exit (exit status 4 on timeout).",
        discussion: """
            Events: \(Watch.eventNames.joined(separator: ", ")). With --id, only an event about that item \
            counts (for status: the status naming it as current). --timeout S gives up after S seconds \
            (exit status 4); without it, wait blocks until the event. Only events after queuectl \
            subscribed count: run it before the command whose effect it waits for, or in the background.
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The event to wait for.", valueName: "event"), completion: .list(Watch.eventNames))
    var event: String
    @Option(help: ArgumentHelp("Only an event about this item.", valueName: "id")) var id: Int64?

    func validate() throws {
        guard Watch.eventNames.contains(Watch.canonical(event)) else {
            throw ValidationError("unknown event '\(event)'; events are \(Watch.eventNames.joined(separator: ", "))")
        }
    }

    func run() throws {
        let session = try Session(options)
        let name = Watch.canonical(event)
        _ = try session.call(API.EventsSubscribe.self, .init(events: EventName(rawValue: name).map { [$0] }))
        let timeout = options.timeout
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        while true {
            let remaining = deadline.map { max(0, $0.timeIntervalSinceNow) }
            guard let notification = try session.client.nextNotification(timeout: remaining) else {
                Output.error(
                    "queuectl: no \(name)\(id.map { " for #\($0)" } ?? "") within \(DurationFormat.decimal(timeout ?? 0)) s"
                )
                throw ExitCode(ExitStatus.timedOut.rawValue)
            }
            guard notification.method == "event." + name, matches(notification.params) else { continue }
            if options.json {
                Output.json(RPCEncode.notification(method: notification.method, params: notification.params))
            } else {
                let clock = WallClock.localTime(WallClock.now())
                Output.line(EventLine.render(method: notification.method, params: notification.params, clock: clock))
            }
            return
        }
    }

    private func matches(_ params: JSONValue?) -> Bool {
        guard let id else { return true }
        return (params?["id"]?.intValue ?? params?["currentId"]?.intValue) == id
    }
}

struct Crop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove every item but the current one, which plays on uninterrupted.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        guard let current = try session.call(API.PlayerStatus.self).result.currentId else {
            throw QueuectlError("nothing is playing: there is no current item to keep")
        }
        let others = try session.listAll().result.items.map(\.id).filter { $0 != current }
        let answer =
            others.isEmpty
            ? RPCAnswer(result: API.QueueRemove.Result(removed: []), json: ["removed": []])
            : try session.call(API.QueueRemove.self, .init(ids: others))
        try session.show(answer) { result in
            let removed = result.removed.count
            return "kept #\(current), removed \(removed) item\(removed == 1 ? "" : "s")"
        }
    }
}

struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the queue to an extended M3U playlist that `add` reads back.",
        discussion: """
            Titles, loop counts, play windows and track ends are kept (#EXTINF, #EXTVLCOPT:start-time / \
            stop-time, #EXTQUEUED:loops / track-end / sha256); other players skip what they do not know. \
            `queuectl add FILE` queues the same items again, in the same order.
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(
        help: ArgumentHelp("The playlist to write (.m3u8).", valueName: "file"),
        completion: .file(extensions: ["m3u8", "m3u"]))
    var file: String

    func run() throws {
        let session = try Session(options)
        let items = try session.listAll().result.items
        let text = ExtendedM3U.render(items)
        do {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw QueuectlError("cannot write \(file): \(error)")
        }
        if options.json {
            Output.json(.object(["file": .string(file), "items": .int(Int64(items.count))]))
        } else {
            Output.line("saved \(items.count) item\(items.count == 1 ? "" : "s") to \(file)")
        }
    }
}
