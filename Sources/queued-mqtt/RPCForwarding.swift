// JSON-RPC requests through the broker (`…/rpc/req` → `…/rpc/res`, or the requester's own MQTT 5 response
// topic under it, with its correlation data): forwarded to the daemon's socket on a connection and a queue of
// their own, so a slow request never holds up the bridge. Fed straight from the MQTT network thread; at most
// `maxWaiting` requests wait at once — past that a request is answered "too many requests in flight" at once
// and never queued, so a flood from the broker costs no memory. Never replayed: a request delivered with the
// retain flag (left on the broker, delivered again on every reconnect) or past its `expires` time (Unix
// seconds in the request) is refused and never run. A response topic outside the requester's `rpc/res` space
// is refused too (the screen must not publish where the sender chose). Which methods may be called is the
// operator's CallerPolicy (default: everything the broker's door exposes — not plays.ack, not events.* — and
// no local files), and the connection the requests travel on is confined by it (QueueClient.confined).

import CallerPolicy
import Dispatch
import Fleet
import FoundationEssentials
import Glibc
import JSONText
import MQTT
import QueueClient
import QueueRPC
import SystemSupport

final class RPCForwarding: @unchecked Sendable {
    /// Requests admitted and not yet answered, at most.
    static let maxWaiting = 64

    private let socketPath: String
    private let topics: Topics
    private let policy: CallerPolicy
    private let log: BridgeLog
    /// Publishes an answer (thread-safe).
    private let send: @Sendable (_ topic: String, _ reply: JSONValue, _ correlation: [UInt8]?) -> Void
    private let queue = DispatchQueue(label: "queued-mqtt.rpc")
    /// `queue` only.
    private var daemon: QueueClient?
    private let lock = ThreadLock()
    /// Guarded by lock: requests admitted and not answered yet.
    private var waiting = 0
    /// Guarded by lock: refusals for load since the last one logged, and when that was.
    private var unloggedOverload = 0
    private var lastOverloadLog = -Double.infinity

    init(
        socketPath: String, topics: Topics, policy: CallerPolicy, log: BridgeLog,
        send: @escaping @Sendable (String, JSONValue, [UInt8]?) -> Void
    ) {
        self.socketPath = socketPath
        self.topics = topics
        self.policy = policy
        self.log = log
        self.send = send
    }

    /// MQTT network thread: admits the request to the forwarding queue, or answers at once that too many wait.
    func forward(_ message: MQTTMessage) {
        let admitted = lock.withLock {
            guard waiting < Self.maxWaiting else { return false }
            waiting += 1
            return true
        }
        guard admitted else {
            overloaded(message)
            return
        }
        queue.async {
            self.handle(message)
            self.lock.withLock { self.waiting -= 1 }
        }
    }

    private func overloaded(_ message: MQTTMessage) {
        let now = Date().timeIntervalSince1970
        let logNow: Int? = lock.withLock {
            unloggedOverload += 1
            guard now - lastOverloadLog >= 1 else { return nil }
            lastOverloadLog = now
            defer { unloggedOverload = 0 }
            return unloggedOverload
        }
        if let count = logNow {
            log.warning("rpc request refused: too many requests in flight (\(Self.maxWaiting) waiting; \(count) refused)")
        }
        let id = (try? JSON.parse(message.payload))?["id"] ?? .null
        let error = RPCError.badState("refused: too many requests in flight (\(Self.maxWaiting) waiting)")
        answer(message, ["jsonrpc": "2.0", "error": error.json, "id": id])
    }

    /// Forwarding queue.
    private func handle(_ message: MQTTMessage) {
        let request = try? JSON.parse(message.payload)
        let id = request?["id"] ?? .null
        let reply: JSONValue
        if let refusal = refusal(message, request) {
            log.warning("rpc request refused: \(refusal)")
            reply = ["jsonrpc": "2.0", "error": RPCError.badState("refused: \(refusal)").json, "id": id]
        } else if let request {
            reply = run(request, id: id)
        } else {
            return
        }
        // A well-formed request without an id is a notification: it gets no answer (a malformed one does, with
        // id null, as JSON-RPC says).
        guard request?["method"] == nil || request?["id"] != nil else { return }
        answer(message, reply)
    }

    /// To the request's response topic when it is the requester's own, else to the default one.
    private func answer(_ message: MQTTMessage, _ reply: JSONValue) {
        let topic = message.responseTopic.flatMap { topics.isOwnResponseTopic($0) ? $0 : nil } ?? topics.rpcResponse
        send(topic, reply, message.correlationData)
    }

    /// Why a request must not run, or nil.
    func refusal(_ message: MQTTMessage, _ request: JSONValue?) -> String? {
        if message.retain { return "a retained request is never run (it would run again on every reconnect)" }
        if let topic = message.responseTopic, !topics.isOwnResponseTopic(topic) {
            return "the response topic \(topic) is not under \(topics.rpcResponse)"
        }
        guard let request, request["jsonrpc"]?.stringValue == "2.0", let method = request["method"]?.stringValue else {
            return "not a JSON-RPC 2.0 request"
        }
        if let expires = request["expires"] {
            guard let time = expires.doubleValue else { return "'expires' must be Unix seconds" }
            if time < Date().timeIntervalSince1970 { return "expired at \(time)" }
        }
        return policy.refusal(method: method, params: request["params"])
    }

    /// Forwards the request (without `expires`) and returns the daemon's answer as a response object.
    private func run(_ request: JSONValue, id: JSONValue) -> JSONValue {
        do throws(ClientError) {
            if daemon == nil { daemon = try .confined(socketPath: socketPath, confinement: policy.confinement, timeout: 30) }
            let result = try daemon!.call(request["method"]?.stringValue ?? "", request["params"])
            return ["jsonrpc": "2.0", "result": result, "id": id]
        } catch {
            if case .rpc(let rpcError) = error { return ["jsonrpc": "2.0", "error": rpcError.json, "id": id] }
            daemon = nil
            return ["jsonrpc": "2.0", "error": RPCError.internalError("the daemon did not answer: \(error)").json, "id": id]
        }
    }
}
