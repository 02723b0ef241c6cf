// `queuectl watch`: subscribes to events and prints one line per notification until interrupted (SIGINT
// keeps its default action: the process ends, the daemon drops the subscription with the connection).
// With --json each notification is printed as its JSON-RPC line.

import ArgumentParser
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print events as they happen, until interrupted.",
        discussion: "Events: \(Watch.eventNames.joined(separator: ", ")) (default: all).")

    static let eventNames = EventName.allCases.map(\.rawValue)

    @OptionGroup(title: "Global Options") var options: GlobalOptions

    @Argument(
        help: ArgumentHelp("Events to print (default: all).", valueName: "event"),
        completion: .list(Watch.eventNames))
    var events: [String] = []

    @Option(help: ArgumentHelp("Seconds between progress events (at least 0.05).", valueName: "seconds"))
    var progressInterval: Double?

    func validate() throws {
        for event in events where !Watch.eventNames.contains(Watch.canonical(event)) {
            throw ValidationError("unknown event '\(event)'; events are \(Watch.eventNames.joined(separator: ", "))")
        }
        if let progressInterval, !(progressInterval >= 0.05) {
            throw ValidationError("--progress-interval must be at least 0.05 seconds")
        }
    }

    /// "event.itemStarted" is accepted too, as the notification's method name.
    static func canonical(_ event: String) -> String {
        event.hasPrefix("event.") ? String(event.dropFirst("event.".count)) : event
    }

    func run() throws {
        let session = try Session(options)
        let kinds = events.compactMap { EventName(rawValue: Watch.canonical($0)) }
        _ = try session.call(
            API.EventsSubscribe.self, .init(events: kinds.isEmpty ? nil : kinds, progressInterval: progressInterval))
        while let notification = try session.client.nextNotification(timeout: nil) {
            if options.json {
                Output.json(RPCEncode.notification(method: notification.method, params: notification.params))
            } else {
                let clock = WallClock.localTime(WallClock.now())
                Output.line(EventLine.render(method: notification.method, params: notification.params, clock: clock))
            }
        }
        throw ClientError.io("queued closed the connection")
    }
}
