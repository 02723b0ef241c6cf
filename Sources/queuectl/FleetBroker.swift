// `queuectl fleet`'s link to the broker: one MosquittoClient used synchronously — connect (or fail within
// the timeout, exit 3), subscribe, collect messages, publish and wait for the broker's acknowledgement.
// Messages and acknowledgements arrive on the client's network thread and are kept under one condition.

import ArgumentParser
import ConfigFile
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import MQTT

struct FleetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The broker: mqtt://host[:port] or mqtts://host[:port].", valueName: "url"))
    var broker: String

    @Option(help: ArgumentHelp("A file of username= and password= lines, mode 0600.", valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp("CA certificates to trust for mqtts:// (PEM).", valueName: "file"))
    var ca: String?

    @Option(help: ArgumentHelp("Prefix of every topic.", valueName: "prefix"))
    var topicPrefix: String = "queued/"

}

final class FleetBroker: @unchecked Sendable {
    let client: MosquittoClient
    private let condition = ThreadCondition()
    /// Guarded by `condition`.
    private var messages: [MQTTMessage] = []
    private var acks: [Int32: MQTTReasonCode] = [:]
    private var connected = false
    private var subscribed = 0
    private var refusal: MQTTError?
    /// Guarded by `condition`; set by `follow` (`setOnMessage`): each message is handed over as it comes
    /// instead of kept, after the lock is released (the handler prints).
    private var onMessage: (@Sendable (MQTTMessage) -> Void)?

    init(_ options: FleetOptions, timeout: Double) throws {
        var credentials = Credentials()
        if let path = options.credentials {
            do {
                credentials = try Credentials.read(path: path)
            } catch {
                throw QueuectlError(error.description)
            }
        }
        let configuration = try MQTTConfiguration(
            url: options.broker, clientID: "queuectl-fleet-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
            username: credentials.username, password: credentials.password, tls: options.ca.map { .init(caFile: $0) })
        let relay = Relay()
        client = try MosquittoClient(configuration: configuration) { event in relay.target?.take(event) }
        relay.target = self
        client.start()
        guard wait(timeout, { $0.connected || $0.refusal != nil }), refusal == nil else {
            client.stop()
            throw ExitCode(ExitStatus.unreachable.rawValue).withMessage(
                "queuectl: the broker \(options.broker) \(refusal.map { "refused: \($0)" } ?? "did not answer within \(timeout) s")")
        }
    }

    deinit { client.stop() }

    /// Hands each later message to `handler` (on the client's network thread) instead of keeping it.
    func setOnMessage(_ handler: @escaping @Sendable (MQTTMessage) -> Void) {
        condition.withLock { onMessage = handler }
    }

    /// The client's network thread: notes the event; a message for a handler is handed over unlocked.
    private func take(_ event: MQTTEvent) {
        let handOver = condition.withLock { () -> (@Sendable () -> Void)? in
            defer { condition.broadcast() }
            switch event {
            case .connected: connected = true
            case .connectFailed(let error, _): if error.isCredentialsRefusal || error.isTLSFailure { refusal = error }
            case .message(let message):
                if let onMessage { return { onMessage(message) } }
                messages.append(message)
            case .published(let id, let reason): acks[id] = reason
            case .subscribed: subscribed += 1
            default: break
            }
            return nil
        }
        handOver?()
    }

    /// Waits until `predicate` holds (true) or `timeout` passes (false). It runs under the lock.
    func wait(_ timeout: Double, _ predicate: (FleetBroker) -> Bool) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !predicate(self) {
                if !condition.wait(seconds: limit.timeIntervalSinceNow) { return predicate(self) }
            }
            return true
        }
    }

    /// Under the lock (inside `wait`'s predicate) or after waiting.
    var received: [MQTTMessage] { messages }
    func ack(_ id: Int32) -> MQTTReasonCode? { acks[id] }

    /// The retained messages of `patterns`. The broker sends them right after it has taken the subscriptions,
    /// in order, before anything published later: so a marker published to this client once the subscriptions
    /// are acknowledged arrives after the last of them (no guessing with quiet periods). `markerTopic` must be
    /// one this client may publish and read.
    func retained(_ patterns: [String], markerTopic: String, timeout: Double) throws -> [MQTTMessage] {
        let before = condition.withLock { subscribed }
        // QoS 0: the broker queues at most 1,000 QoS 1 messages for a client (max_queued_messages) and would
        // drop the rest of a big fleet's retained messages; QoS 0 ones go straight out.
        for pattern in patterns + [markerTopic] { try client.subscribe(pattern, qos: .atMostOnce) }
        guard wait(timeout, { $0.subscribed >= before + patterns.count + 1 }) else {
            throw QueuectlError("the broker did not take the subscriptions within \(timeout) s")
        }
        _ = try client.publish(topic: markerTopic, payload: [1], qos: .atMostOnce)
        guard wait(timeout, { $0.messages.contains { $0.topic == markerTopic } }) else {
            throw QueuectlError("the broker's retained messages did not all arrive within \(timeout) s")
        }
        return condition.withLock { messages.filter { $0.topic != markerTopic } }
    }

    /// Publishes and waits for the broker's acknowledgement; throws if it refused (an ACL) or did not answer.
    func publishAcknowledged(_ topic: String, _ payload: [UInt8], retain: Bool, timeout: Double) throws {
        let id = try client.publish(topic: topic, payload: payload, qos: .atLeastOnce, retain: retain)
        guard wait(timeout, { $0.ack(id) != nil }), let reason = condition.withLock({ acks[id] }) else {
            throw QueuectlError("the broker did not acknowledge the message to \(topic)")
        }
        if reason.isFailure { throw QueuectlError("the broker refused the message to \(topic): \(reason)") }
    }
}

/// The client's events reach the FleetBroker through this, set once it is built.
private final class Relay: @unchecked Sendable {
    weak var target: FleetBroker?
}

extension ExitCode {
    /// Prints `message` on stderr and exits with this code.
    func withMessage(_ message: String) -> ExitCode {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return self
    }
}
