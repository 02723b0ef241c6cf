// A blocking JSON-RPC 2.0 client for queued's control socket (Protocol/README.md): one request in flight at a time,
// newline-delimited JSON over a Unix stream socket. Used by queuectl and by tests that talk to a real or
// fake daemon. Notifications that arrive while a call waits for its response are kept, in order, for
// nextNotification. Not thread-safe: one thread owns an instance.

import QueueRPC

public final class QueueClient {
    /// Seconds each call waits for its response (and each send for buffer space).
    public let timeout: Double
    /// The zone that zoned methods act on (nil: main, sent without a zone).
    public var zone: String?
    public var socketPath: String { socket.path }

    private let socket: UnixSocket
    private var framer = LineFramer()
    /// Complete lines read from the socket but not handed out yet (a read can carry several).
    private var bufferedLines: [[UInt8]] = []
    /// Notifications read while waiting for a response, oldest first.
    private var queuedNotifications: [(method: String, params: JSONValue?)] = []
    private var nextID: Int64 = 1
    private var reachedEnd = false

    /// Connects to the daemon. ENOENT/ECONNREFUSED (no daemon) → `.notRunning(path:)`.
    public init(socketPath: String, timeout: Double = 10) throws(ClientError) {
        self.timeout = timeout
        socket = try UnixSocket(connectingTo: socketPath)
    }

    /// Sends `method` with a fresh integer id and returns its result; a JSON-RPC error becomes `.rpc`.
    public func call(_ method: String, _ params: JSONValue? = nil) throws(ClientError) -> JSONValue {
        let id = RPCID(nextID)
        nextID += 1
        let deadline = Deadline(timeout: timeout)
        do {
            try socket.send(
                RPCEncode.line(RPCEncode.request(method: method, params: params, id: id)), deadline: deadline)
        } catch {
            // The daemon may have said why it hung up (e.g. access denied) before we could even ask.
            if let line = try? readLine(deadline: Deadline(timeout: 0.5)), let reason = try? take(line, answering: id) {
                return try reason.get()
            }
            throw error
        }
        while true {
            guard let line = try readLine(deadline: deadline) else {
                throw .io("queued closed the connection before answering \(method)")
            }
            if let result = try take(line, answering: id) { return try result.get() }
        }
    }

    /// Sends a JSON-RPC notification (no id, so the daemon sends no response).
    public func notify(_ method: String, _ params: JSONValue? = nil) throws(ClientError) {
        try socket.send(
            RPCEncode.line(RPCEncode.request(method: method, params: params, id: nil)),
            deadline: Deadline(timeout: timeout))
    }

    /// Sends exactly these bytes (no newline is added), for tests of framing and malformed input.
    public func sendRaw(_ line: [UInt8]) throws(ClientError) {
        try socket.send(line, deadline: Deadline(timeout: timeout))
    }

    /// The next raw line from the daemon without its "\n"; nil at end of stream. `timeout` nil waits
    /// forever; running out of time throws `.timeout`.
    public func readLine(timeout: Double?) throws(ClientError) -> [UInt8]? {
        try readLine(deadline: Deadline(timeout: timeout))
    }

    /// The next notification: first those queued during calls, then new ones from the socket. Responses
    /// read here (none are expected, since call() consumes its own) are dropped. nil on timeout or end of
    /// stream, so a watch loop can simply stop.
    public func nextNotification(timeout: Double?) throws(ClientError) -> (method: String, params: JSONValue?)? {
        let deadline = Deadline(timeout: timeout)
        while queuedNotifications.isEmpty {
            let line: [UInt8]?
            do {
                line = try readLine(deadline: deadline)
            } catch {
                if case .timeout = error { return nil }
                throw error
            }
            guard let line else { return nil }
            _ = try take(line, answering: nil)
        }
        return queuedNotifications.removeFirst()
    }

    public func close() { socket.close() }

    // MARK: - Reading

    private func readLine(deadline: Deadline) throws(ClientError) -> [UInt8]? {
        while bufferedLines.isEmpty {
            if reachedEnd { return nil }
            if let bytes = try socket.receive(deadline: deadline) {
                for piece in framer.append(bytes) { try collect(piece) }
            } else {
                // End of stream: a last line without "\n" still counts, as the server reads its clients.
                reachedEnd = true
                if let piece = framer.finish() { try collect(piece) }
            }
        }
        return bufferedLines.removeFirst()
    }

    private func collect(_ piece: LineFramer.Piece) throws(ClientError) {
        switch piece {
        case .line(let line): bufferedLines.append(line)
        case .oversized(let count):
            throw .protocolViolation("queued sent a line of \(count) bytes, over the \(framer.limit)-byte limit")
        }
    }

    /// Files one inbound line: notifications are queued; the response to `id` is returned. An error
    /// response with a null id (the daemon could not read our request's id) answers the call in flight,
    /// since there is only ever one.
    private func take(_ line: [UInt8], answering id: RPCID?) throws(ClientError) -> Result<JSONValue, ClientError>? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) { return nil }
        let inbound: RPCClientInbound
        do {
            inbound = try RPCClientInbound.parse(line)
        } catch {
            throw .protocolViolation("\(error.message): \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        return file(inbound, answering: id)
    }

    private func file(_ inbound: RPCClientInbound, answering id: RPCID?) -> Result<JSONValue, ClientError>? {
        switch inbound {
        case .notification(let method, let params):
            queuedNotifications.append((method, params))
            return nil
        case .response(let responseID, let result):
            guard let id, responseID == id || responseID == RPCID.null else { return nil }
            return result.mapError { ClientError.rpc($0) }
        case .batch(let members):
            var answer: Result<JSONValue, ClientError>?
            for member in members {
                if let result = file(member, answering: id), answer == nil { answer = result }
            }
            return answer
        }
    }
}
