// JSON-RPC requests through the broker (`…/rpc/req` → `…/rpc/res`, or the MQTT 5 response topic with its
// correlation data): forwarded to the daemon's socket on a connection and a queue of their own, so a slow
// request never holds up the bridge. Never replayed: a request delivered with the retain flag (left on the
// broker, delivered again on every reconnect) or past its `expires` time (Unix seconds in the request) is
// refused and never run. Which methods may be called is the operator's `RPCPolicy` (default: every method,
// but requests that would add local files — a path on this screen, chosen by someone else — are refused:
// through the broker only http(s) items may be added).

import Dispatch
import Fleet
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import MQTT
import QueueClient
import QueueRPC

final class RPCForwarding: @unchecked Sendable {
    private let socketPath: String
    private let topics: Topics
    private let policy: RPCPolicy
    private let queue = DispatchQueue(label: "queued-mqtt.rpc")
    /// `queue` only.
    private var daemon: QueueClient?
    /// Set once before any message arrives.
    weak var bridge: Bridge?

    init(socketPath: String, topics: Topics, policy: RPCPolicy) {
        self.socketPath = socketPath
        self.topics = topics
        self.policy = policy
    }

    /// Work queue: hands the request to the forwarding queue.
    func forward(_ message: MQTTMessage) {
        queue.async { self.handle(message) }
    }

    private func handle(_ message: MQTTMessage) {
        let request = try? JSON.parse(message.payload)
        let id = request?["id"] ?? .null
        let reply: JSONValue
        if let refusal = Self.refusal(message, request, policy: policy) {
            bridge?.log.warning("rpc request refused: \(refusal)")
            reply = ["jsonrpc": "2.0", "error": RPCError.badState("refused: \(refusal)").json, "id": id]
        } else {
            reply = run(request!, id: id)
        }
        // A well-formed request without an id is a notification: it gets no answer (a malformed one does, with
        // id null, as JSON-RPC says).
        guard request?["method"] == nil || request?["id"] != nil else { return }
        let topic = message.responseTopic ?? topics.rpcResponse
        bridge?.work.async { _ = self.bridge?.publish(topic, reply, correlation: message.correlationData) }
    }

    /// Why a request must not run, or nil.
    static func refusal(_ message: MQTTMessage, _ request: JSONValue?, policy: RPCPolicy) -> String? {
        if message.retain { return "a retained request is never run (it would run again on every reconnect)" }
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
            if daemon == nil { daemon = try QueueClient(socketPath: socketPath, timeout: 30) }
            let result = try daemon!.call(request["method"]?.stringValue ?? "", request["params"])
            return ["jsonrpc": "2.0", "result": result, "id": id]
        } catch {
            if case .rpc(let rpcError) = error { return ["jsonrpc": "2.0", "error": rpcError.json, "id": id] }
            daemon = nil
            return ["jsonrpc": "2.0", "error": RPCError.internalError("the daemon did not answer: \(error)").json, "id": id]
        }
    }
}
