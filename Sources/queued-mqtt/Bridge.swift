// The bridge: the broker on one side (MosquittoClient, its own network thread), the daemon's control socket
// on the other (connections for events, commands, forwarded requests and each document being applied — so a
// slow request or a long download never holds up the rest), and the decisions in between (Fleet's
// DesiredState) on one serial work queue. Everything the bridge knows lives on that queue; broker callbacks,
// daemon events and apply jobs only hand work to it. What the broker sends is bounded before it reaches the
// queue: requests go straight to RPCForwarding (capped), documents coalesce per topic (DocumentMailbox). A
// broker that is down changes nothing on screen (the daemon plays its durable queue); a daemon that restarts
// is found again and re-reported; a crash of the bridge never touches playback.

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

final class Bridge: @unchecked Sendable {
    let topics: Topics
    let socketPath: String
    /// What the fleet may ask of this screen, and how the connections carrying it are confined.
    let policy: CallerPolicy
    let log: BridgeLog
    /// The disk whose free space the report gives (`--disk`).
    let diskPath: String
    /// Decisions and everything below run on `work`.
    let work = DispatchQueue(label: "queued-mqtt.work")
    private var client: MosquittoClient!
    /// Work queue only.
    var desired: DesiredState
    var daemon: QueueClient?
    var lastStatus: RPCStatus?
    /// The queue version our last swap made (nil: none since the daemon was found): a status event older
    /// than it was sent before the swap and still names the rev before it.
    var replacedVersion: Int64?
    var plays = PlayForwarding()
    var reporting = Reporting()
    var alerts = AlertForwarding()
    /// Trigger messages of the last second (network thread).
    let triggerRate = TriggerRate()
    /// Work queue only: the apply jobs running (one, plus any cancelled one still finishing), by job number.
    var jobs: [Int: ApplyJob] = [:]
    /// Work queue only: what the broker refused us lately (newest last), reported until it stops.
    var brokerRefusals: [ReportedDocument.BrokerRefusal] = []
    private(set) var rpc: RPCForwarding!
    private let mailbox = DocumentMailbox()

    /// The largest packet we take from the broker: a 1 MiB document with room to spare.
    static let maximumPacketSize: UInt32 = 2 << 20
    /// QoS ≥ 1 messages the broker may have in flight to us at once.
    static let receiveMaximum: UInt16 = 32

    init(
        mqtt: MQTTConfiguration, topics: Topics, socketPath: String, policy: CallerPolicy, logLevel: String, diskPath: String = "/"
    ) throws {
        self.topics = topics
        self.diskPath = diskPath
        self.socketPath = socketPath
        self.policy = policy
        log = BridgeLog(level: logLevel)
        desired = DesiredState(groups: topics.groups)
        var mqtt = mqtt
        mqtt.maximumPacketSize = Self.maximumPacketSize
        mqtt.receiveMaximum = Self.receiveMaximum
        let owner = WeakBridge()
        client = try MosquittoClient(configuration: mqtt) { event in owner.bridge?.arrived(event) }
        rpc = RPCForwarding(socketPath: socketPath, topics: topics, policy: policy, log: log) { [weak self] topic, reply, correlation in
            _ = self?.publish(topic, reply, correlation: correlation)
        }
        owner.bridge = self
    }

    /// Any thread.
    func publish(_ topic: String, _ payload: JSONValue, retain: Bool = false, correlation: [UInt8]? = nil) -> Int32? {
        try? client.publish(topic: topic, payload: JSON.serialize(payload), qos: .atLeastOnce, retain: retain, correlationData: correlation)
    }

    /// Any thread: bytes as they are (QoS 1, not retained).
    func publish(_ topic: String, bytes: [UInt8]) throws {
        try client.publish(topic: topic, payload: bytes, qos: .atLeastOnce)
    }

    /// Main thread: runs until SIGINT/SIGTERM, then says offline and disconnects cleanly.
    func run() throws {
        for topic in [topics.desired] + topics.groups.map(topics.groupDesired) + FleetAlert.patterns(topics) {
            try client.subscribe(topic, qos: .atLeastOnce)
        }
        // Requests keep their retain flag even when delivered live: a retained one is refused, never run.
        try client.subscribe(topics.rpcRequest, qos: .atLeastOnce, retainAsPublished: true)
        for pattern in FleetTrigger.patterns(topics) { try client.subscribe(pattern, qos: .atLeastOnce, retainAsPublished: true) }
        client.start()
        let follower = followDaemonEvents()
        let reporter = DispatchSource.makeTimerSource(queue: work)
        reporter.schedule(deadline: .now() + 1, repeating: 1)
        reporter.setEventHandler { [weak self] in self?.reportIfDue(force: false) }
        reporter.resume()
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        var received: Int32 = 0
        sigwait(&signals, &received)
        log.info("stopping: offline")
        _ = publish(topics.status, ["state": "offline"], retain: true)
        client.stop()
        withExtendedLifetime(follower) {}
    }

    // MARK: Broker side

    /// MQTT network thread: requests to the forwarder, documents to the mailbox, the rest to the work queue.
    private func arrived(_ event: MQTTEvent) {
        if case .message(let message) = event {
            if message.topic == topics.rpcRequest {
                rpc.forward(message)
            } else if let name = FleetTrigger.name(message.topic, topics) {
                let rate = triggerRate.admit(limit: Self.triggersPerSecond)
                if rate.admitted {
                    work.async { self.triggerArrived(message, name: name) }
                } else if let dropped = rate.dropped {
                    log.warning("trigger messages dropped: more than \(Self.triggersPerSecond) a second (\(dropped) so far)")
                }
            } else if mailbox.put(message) {
                work.async { self.documentArrived(message.topic) }
            }
            return
        }
        work.async { self.handle(event) }
    }

    /// Work queue.
    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            log.info("broker connected")
            _ = publish(
                topics.status,
                [
                    "state": "online", "version": .string(BridgeVersion.number), "since": .double(Self.now()),
                    "groups": .array(topics.groups.map(JSONValue.string)),
                ],
                retain: true)
            reportIfDue(force: true)
            resendUnacknowledgedPlays(brokerReconnected: true)
            alertsConnected()
        case .connectFailed(let error, let retryIn):
            // Said plainly, because the fix is the operator's: retrying alone will not help these two.
            let what =
                error.isCredentialsRefusal
                ? "the broker refused this player's credentials (check --credentials and the broker's password file)"
                : error.isTLSFailure
                    ? "TLS to the broker failed: its certificate is not trusted (check --ca) or ours was refused"
                    : "broker refused or unreachable"
            log.warning("\(what): \(error); trying again in \(retryIn)")
        case .disconnected(let error, _):
            log.warning("broker connection lost\(error.map { ": \($0)" } ?? "")")
        case .message:
            break  // taken in `arrived`
        case .published(let id, let reason):
            if !reason.isFailure { playAcknowledged(messageID: id) }
        case .publishRefused(let topic, _, let reason):
            brokerRefused(.init(operation: "publish", topic: topic, reason: "\(reason)"))
        case .subscribed:
            break
        case .subscriptionRefused(let pattern, let reason):
            brokerRefused(.init(operation: "subscribe", topic: pattern, reason: "\(reason)"))
        }
    }

    /// Work queue: the broker said no (its ACL, a quota): logged and reported, never silent.
    private func brokerRefused(_ refusal: ReportedDocument.BrokerRefusal) {
        log.warning("the broker refused to let us \(refusal.operation) \(refusal.topic): \(refusal.reason)")
        brokerRefusals.removeAll { $0.operation == refusal.operation && $0.topic == refusal.topic }
        brokerRefusals.append(refusal)
        if brokerRefusals.count > 10 { brokerRefusals.removeFirst(brokerRefusals.count - 10) }
        reporting.changed = true
        // A refused report cannot report itself: the log line above is all there is then.
        if refusal.topic != topics.reported { reportIfDue(force: false) }
    }

    /// Work queue: the newest document of `topic` (older ones that came meanwhile were dropped).
    private func documentArrived(_ topic: String) {
        guard let message = mailbox.take(topic) else { return }
        if let alert = FleetAlert.parse(message.topic, topics) {
            alertArrived(message, scope: alert.scope, name: alert.name)
            return
        }
        let source: DocumentSource
        if message.topic == topics.desired {
            source = .player
        } else if let group = topics.groups.first(where: { topics.groupDesired($0) == message.topic }) {
            source = .group(group)
        } else {
            return
        }
        carryOut(desired.received(message.payload, from: source))
    }

    static func now() -> Double { Date().timeIntervalSince1970 }
}

/// The broker's callbacks reach the bridge through this, set once the bridge is built.
private final class WeakBridge: @unchecked Sendable {
    weak var bridge: Bridge?
}
