// The bridge: the broker on one side (MosquittoClient, its own network thread), the daemon's control socket
// on the other (three connections: events, commands, forwarded requests — so a slow request never holds up
// the rest), and the decisions in between (Fleet's DesiredState) on one serial work queue. Everything the
// bridge knows lives on that queue; broker callbacks and daemon events only hand work to it. A broker that is
// down changes nothing on screen (the daemon plays its durable queue); a daemon that restarts is found
// again and re-reported; a crash of the bridge never touches playback.

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

final class Bridge: @unchecked Sendable {
    let topics: Topics
    let socketPath: String
    let log: BridgeLog
    /// Decisions and everything below run on `work`.
    let work = DispatchQueue(label: "queued-mqtt.work")
    private var client: MosquittoClient!
    /// Work queue only.
    var desired: DesiredState
    var daemon: QueueClient?
    var lastStatus: RPCStatus?
    /// The queue version our last `queue.replace` made (nil: none since the daemon was found): a status
    /// event older than it was sent before the swap and still names the rev before it.
    var replacedVersion: Int64?
    var plays = PlayForwarding()
    var reporting = Reporting()
    let rpc: RPCForwarding
    private let done = DispatchSemaphore(value: 0)

    init(mqtt: MQTTConfiguration, topics: Topics, socketPath: String, policy: RPCPolicy, logLevel: String) throws {
        self.topics = topics
        self.socketPath = socketPath
        log = BridgeLog(level: logLevel)
        desired = DesiredState(groups: topics.groups)
        rpc = RPCForwarding(socketPath: socketPath, topics: topics, policy: policy)
        let owner = WeakBridge()
        client = try MosquittoClient(configuration: mqtt) { event in
            guard let bridge = owner.bridge else { return }
            bridge.work.async { bridge.handle(event) }
        }
        owner.bridge = self
        rpc.bridge = self
    }

    func publish(_ topic: String, _ payload: JSONValue, retain: Bool = false, correlation: [UInt8]? = nil) -> Int32? {
        try? client.publish(topic: topic, payload: JSON.serialize(payload), qos: .atLeastOnce, retain: retain, correlationData: correlation)
    }

    /// Main thread: runs until SIGINT/SIGTERM, then says offline and disconnects cleanly.
    func run() throws {
        for topic in [topics.desired] + topics.groups.map(topics.groupDesired) {
            try client.subscribe(topic, qos: .atLeastOnce)
        }
        // Requests keep their retain flag even when delivered live: a retained one is refused, never run.
        try client.subscribe(topics.rpcRequest, qos: .atLeastOnce, retainAsPublished: true)
        client.start()
        Threads.start(named: "queued-mqtt.events") { [self] in followDaemonEvents() }
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
    }

    // MARK: Broker side (work queue)

    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            log.info("broker connected")
            _ = publish(
                topics.status,
                ["state": "online", "version": .string(BridgeVersion.number), "since": .double(Self.now())],
                retain: true)
            reportIfDue(force: true)
            resendUnacknowledgedPlays(brokerReconnected: true)
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
        case .message(let message):
            received(message)
        case .published(let id, let reason):
            if !reason.isFailure { playAcknowledged(messageID: id) }
        case .subscribed:
            break
        }
    }

    private func received(_ message: MQTTMessage) {
        if message.topic == topics.rpcRequest {
            rpc.forward(message)
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
