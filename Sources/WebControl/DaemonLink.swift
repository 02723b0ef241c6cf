// The daemon's socket as queued-web uses it: one more client, like queuectl. Three connections, each on a
// thread of its own so that the server's event loops never wait on the daemon and one slow answer never holds
// up another: commands, screenshots (a picture encode must not delay a click), and events (followed for as
// long as the server runs, reconnected with backoff when the daemon restarts). QueueClient is blocking by
// design (queuectl's client); these wrap it into async calls.

import Dispatch
import Foundation
import JSONText
import QueueClient
import QueueRPC

/// One connection and the serial queue that owns it.
final class DaemonConnection: @unchecked Sendable {
    private let socketPath: String
    private let timeout: Double
    private let queue: DispatchQueue
    /// Which daemon the events thread last found (it counts the daemon's comings); a connection opened to
    /// an earlier one is dead even if nothing has told it yet, so the next call opens a new one.
    private let daemonGeneration: @Sendable () -> Int
    /// Sent first on every connection opened (session.confine): what the requests it carries may name.
    private let confinement: API.SessionConfine.Params?
    /// `queue` only: opened on first use, dropped after a transport error or when the daemon came back.
    private var client: QueueClient?
    private var openedFor = 0

    init(
        socketPath: String, label: String, timeout: Double, confinement: API.SessionConfine.Params?,
        daemonGeneration: @escaping @Sendable () -> Int
    ) {
        self.socketPath = socketPath
        self.confinement = confinement
        self.timeout = timeout
        self.daemonGeneration = daemonGeneration
        queue = DispatchQueue(label: label)
    }

    /// Any task: the daemon's result, or its JSON-RPC error as `ClientError.rpc`.
    func call(_ method: String, _ params: JSONValue?) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            queue.async {
                do throws(ClientError) {
                    let generation = self.daemonGeneration()
                    if self.client == nil || self.openedFor != generation {
                        // Never used unconfined: a refused confinement fails the call and the next one tries again.
                        self.client = nil
                        self.client = try .confined(
                            socketPath: self.socketPath, confinement: self.confinement, timeout: self.timeout)
                        self.openedFor = generation
                    }
                    continuation.resume(returning: try self.client!.call(method, params))
                } catch {
                    if case .rpc = error {} else { self.client = nil }
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// The daemon's events, handed to every subscriber (each open page's WebSocket). `connected` and
/// `disconnected` are events too, so a page can say plainly when the daemon is away.
public final class DaemonEvents: @unchecked Sendable {
    public struct Event: Sendable {
        /// `event.status`, `event.queueChanged`, … or `daemon.connected` / `daemon.disconnected`.
        public var method: String
        public var params: JSONValue?
    }

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]
    private var connected = false
    /// The shared reconnecting follower (QueueClient), started by the first subscriber.
    private var follower: DaemonEventFollower!

    /// What a page follows: enough to redraw what it shows.
    static let followed: [EventName] = [
        .status, .itemStarted, .itemEnded, .queueChanged, .cacheProgress, .cacheComplete, .cacheError, .itemSkipped,
        .buffering, .itemStalled, .itemResumed,
    ]

    init(socketPath: String) {
        // Every zone's: the page shows the zone it is looking at, and events say which (`zone`).
        follower = DaemonEventFollower(socketPath: socketPath, events: Self.followed, zones: ["*"], label: "queued-web.events") {
            [weak self] happening in self?.heard(happening)
        }
    }

    /// How many times the daemon was found (see DaemonConnection).
    var daemonGeneration: Int { follower.generation }

    /// Any thread: a stream of events until the subscriber cancels; it begins with the daemon's state now.
    public func subscribe() -> AsyncStream<Event> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        let now = lock.withLock {
            subscribers[id] = continuation
            return connected
        }
        continuation.yield(Event(method: now ? "daemon.connected" : "daemon.disconnected", params: nil))
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.subscribers.removeValue(forKey: id) }
        }
        follower.start()
        return stream
    }

    private func publish(_ event: Event) {
        let targets = lock.withLock { Array(subscribers.values) }
        for target in targets { target.yield(event) }
    }

    /// The follower's thread.
    private func heard(_ happening: DaemonEventFollower.Happening) {
        switch happening {
        case .connected:
            lock.withLock { connected = true }
            publish(Event(method: "daemon.connected", params: nil))
        case .disconnected(let reason):
            lock.withLock { connected = false }
            publish(Event(method: "daemon.disconnected", params: ["reason": .string(reason)]))
        case .event(let method, let params):
            publish(Event(method: method, params: params))
        }
    }
}

/// The daemon as the server's routes see it.
public final class DaemonLink: Sendable {
    public let socketPath: String
    private let commands: DaemonConnection
    private let pictures: DaemonConnection
    public let events: DaemonEvents

    /// `confinement`: what the page's requests may name (its CallerPolicy's); every connection that carries
    /// them is confined to it before its first request.
    public init(socketPath: String, confinement: API.SessionConfine.Params?) {
        self.socketPath = socketPath
        let events = DaemonEvents(socketPath: socketPath)
        self.events = events
        commands = DaemonConnection(
            socketPath: socketPath, label: "queued-web.commands", timeout: 15, confinement: confinement,
            daemonGeneration: { events.daemonGeneration })
        pictures = DaemonConnection(
            socketPath: socketPath, label: "queued-web.screenshots", timeout: 15, confinement: confinement,
            daemonGeneration: { events.daemonGeneration })
    }

    public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        try await commands.call(method, params)
    }

    /// A JPEG of what the screen shows, at most `maxWidth` wide.
    public func screenshot(maxWidth: Int) async throws -> [UInt8] {
        let result = try await pictures.call(API.PlayerScreenshot.name, ["format": "jpeg", "maxWidth": .int(Int64(maxWidth))])
        guard let text = result["jpeg"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw ClientError.io("the daemon's screenshot had no JPEG")
        }
        return [UInt8](data)
    }
}
