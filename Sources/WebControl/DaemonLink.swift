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
                        self.client = nil
                        let client = try QueueClient(socketPath: self.socketPath, timeout: self.timeout)
                        // Never used unconfined: a refused confinement fails the call and the next one tries again.
                        if let confinement = self.confinement { _ = try client.call(API.SessionConfine.self, confinement) }
                        self.client = client
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

    private let socketPath: String
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]
    private var connected = false
    private var started = false
    /// Guarded by `lock`: how many times the daemon was found (see DaemonConnection).
    private var generation = 0

    /// What a page follows: enough to redraw what it shows.
    static let followed: [EventName] = [
        .status, .itemStarted, .itemEnded, .queueChanged, .cacheProgress, .cacheComplete, .cacheError, .itemSkipped,
        .buffering,
    ]

    init(socketPath: String) { self.socketPath = socketPath }

    var daemonGeneration: Int { lock.withLock { generation } }

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
        startOnce()
        return stream
    }

    private func startOnce() {
        guard lock.withLock({ defer { started = true }; return !started }) else { return }
        let thread = Thread { [self] in follow() }
        thread.name = "queued-web.events"
        thread.start()
    }

    private func publish(_ event: Event) {
        let targets = lock.withLock { Array(subscribers.values) }
        for target in targets { target.yield(event) }
    }

    private func setConnected(_ value: Bool, reason: String? = nil) {
        let changed = lock.withLock {
            defer { connected = value }
            if value && !connected { generation += 1 }
            return connected != value
        }
        if changed {
            publish(Event(method: value ? "daemon.connected" : "daemon.disconnected", params: reason.map { ["reason": .string($0)] }))
        }
    }

    /// Events thread, for the life of the process: subscribes, forwards, and after the daemon goes away tries
    /// again after 0.25 s doubling to 4 s (a restarted daemon is found within seconds).
    private func follow() {
        var wait = 0.25
        while true {
            if followOneConnection() { wait = 0.25 }
            Thread.sleep(forTimeInterval: wait)
            wait = min(4, wait * 2)
        }
    }

    /// One connection's events, until it ends; true if it was made (subscribed). A function of its own, never
    /// inlined: Swift 6.3's loop-invariant code motion never finished on all of it inside the endless loop
    /// above, and a release build hung there (queued-mqtt's Bridge.followDaemonEvents had the same shape).
    @inline(never)
    private func followOneConnection() -> Bool {
        var subscribed = false
        do {
            let client = try QueueClient(socketPath: socketPath, timeout: 10)
            _ = try client.call(API.EventsSubscribe.self, .init(events: Self.followed))
            subscribed = true
            setConnected(true)
            while let note = try client.nextNotification(timeout: nil) {
                publish(Event(method: note.method, params: note.params))
            }
            setConnected(false, reason: "the daemon closed the connection")
        } catch {
            setConnected(false, reason: "\(error)")
        }
        return subscribed
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
