// The daemon's events, followed for as long as a program runs: one connection subscribed to the kinds asked
// for, and when the daemon goes away (a restart, a crash), found again after 0.25 s doubling to 4 s. Each
// happening — connected, an event, disconnected with the reason — reaches the owner's handler in order, on the
// follower's own thread. The programs outside the daemon that follow it (queued-web's page, queued-mqtt's
// bridge) share this one loop instead of each writing its own.

import QueueRPC
import SystemSupport

public final class DaemonEventFollower: Sendable {
    /// What the handler hears.
    public enum Happening: Sendable {
        /// Subscribed: a (new) daemon is there. `generation` counts the daemons found, from 1.
        case connected(generation: Int)
        case event(method: String, params: JSONValue?)
        /// The connection ended or could not be made (said once per loss, not per retry).
        case disconnected(reason: String)
    }

    private let socketPath: String
    private let events: [EventName]
    private let label: String
    private let handler: @Sendable (Happening) -> Void
    private let lock = ThreadLock()
    /// The zones whose events are followed (nil: main's only).
    private let zones: [String]?
    /// Guarded by `lock`.
    private let state = Counters()

    private final class Counters: @unchecked Sendable {
        var started = false
        var generation = 0
    }

    /// `handler` runs on the follower's thread, one happening at a time.
    public init(
        socketPath: String, events: [EventName], zones: [String]? = nil, label: String,
        handler: @escaping @Sendable (Happening) -> Void
    ) {
        self.socketPath = socketPath
        self.events = events
        self.zones = zones
        self.label = label
        self.handler = handler
    }

    /// How many times the daemon was found (a connection opened to an earlier one is dead).
    public var generation: Int { lock.withLock { state.generation } }

    /// Any thread: starts following, once.
    public func start() {
        let first = lock.withLock {
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        Threads.start(named: label) { [self] in follow() }
    }

    /// The follower's thread, for the life of the process.
    private func follow() {
        var wait = 0.25
        var connected = true
        while true {
            switch followOneConnection() {
            case .followed(let reason):
                wait = 0.25
                handler(.disconnected(reason: reason))
                connected = false
            case .failed(let reason):
                // Said once when the daemon goes away, not at every retry.
                if connected { handler(.disconnected(reason: reason)) }
                connected = false
            }
            Threads.sleep(seconds: wait)
            wait = min(4, wait * 2)
        }
    }

    private enum Outcome {
        case followed(String)
        case failed(String)
    }

    /// One connection's events, until it ends. A function of its own, never inlined: Swift 6.3's
    /// loop-invariant code motion never finished on it inside the endless loop above, and a release build hung.
    @inline(never)
    private func followOneConnection() -> Outcome {
        let client: QueueClient
        do {
            client = try QueueClient(socketPath: socketPath, timeout: 10)
            _ = try client.call(API.EventsSubscribe.self, .init(events: events, zones: zones))
        } catch {
            return .failed("\(error)")
        }
        let generation = lock.withLock {
            state.generation += 1
            return state.generation
        }
        handler(.connected(generation: generation))
        do {
            while let note = try client.nextNotification(timeout: nil) {
                handler(.event(method: note.method, params: note.params))
            }
            return .followed("the daemon closed the connection")
        } catch {
            return .followed("\(error)")
        }
    }
}
