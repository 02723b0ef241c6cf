// An MQTT 5 client: owns one libmosquitto handle and the network thread that drives it.
// Data flow: the owner's publish/subscribe (any thread) → libmosquitto's outgoing queue → the network thread
// ("mqtt.network", MosquittoClient+NetworkThread.swift) → broker; broker → network thread → the owner's
// MQTTEvent handler. publish/subscribe never wait for the network; only stop() waits, and only boundedly.
//
// Why a hand-written loop instead of mosquitto_loop_start/mosquitto_loop_forever: libmosquitto's
// mosquitto_reconnect_delay_set backs off without jitter (delay·n or delay·n², capped), so a fleet of screens
// that lost the broker together would come back in lockstep; and its thread cannot be told to wait for the
// acknowledgements of queued QoS 1 publishes before the DISCONNECT. Ours: jittered 1 s → 60 s doubling
// (ReconnectBackoff), a wait that stop() interrupts, and a bounded flush on stop.
//
// Thread safety: libmosquitto's header says "libmosquitto provides thread safe operation, with the exception
// of mosquitto_lib_init" (mosquitto.h, "Topic: Threads"), provided the application calls
// mosquitto_threaded_set(mosq, true) when it runs its own loop thread (done in makeHandle). In 2.0.11 a
// publish/subscribe from another thread then only appends to the out-packet queue under out_packet_mutex and
// writes a byte to the handle's socket pair to wake the loop's pselect (lib/packet_mosq.c, packet__queue); the
// network thread does all socket I/O. mosquitto_lib_init runs once per process through a Swift static (swift_once).

import CMosquitto
import FoundationEssentials
import Glibc
import SystemSupport
import Glibc

public final class MosquittoClient: @unchecked Sendable {
    public typealias EventHandler = @Sendable (MQTTEvent) -> Void

    enum Lifecycle: Equatable {
        case created
        case running
        /// stop() was called; queued QoS ≥ 1 publishes may be flushed until the deadline.
        case stopping(deadline: ContinuousClock.Instant)
        case finished
    }

    /// Immutable.
    public let configuration: MQTTConfiguration
    /// Immutable. Created in init, destroyed in deinit: the network thread holds a strong reference to self while
    /// it runs, so deinit (and mosquitto_destroy) only ever comes after the thread is gone. Used from any thread
    /// (see "Thread safety" above); its socket I/O happens on the network thread only.
    let handle: OpaquePointer
    /// Immutable; called on the network thread only.
    let onEvent: EventHandler

    /// Guards the fields below; also the condition the network thread's backoff wait and stop()'s wait use.
    /// Never held across a libmosquitto call.
    let state = ThreadCondition()
    /// Guarded by state: the patterns subscribed again after every CONNACK, in the order given.
    var subscriptions: [(pattern: String, qos: MQTTQoS, options: Int32)] = []
    /// Guarded by state: a session is up (CONNACK success, not yet lost). Written by the network thread.
    var sessionUp = false
    /// Guarded by state.
    var lifecycle = Lifecycle.created
    /// Guarded by state: the network thread's pthread (stop() from the event handler must not wait for itself).
    var networkThread: pthread_t?
    /// Guarded by state: SUBSCRIBE message id → its pattern, until the SUBACK (so a refusal names its pattern).
    var subscribeRequests: [Int32: String] = [:]
    /// Guarded by state: the test hook asked the network thread to shut the socket down without DISCONNECT.
    var abortRequested = false

    /// Guards pendingAcks; the one lock held across a libmosquitto call (mosquitto_publish_v5, see publish).
    let ackLock = ThreadLock()
    /// Guarded by ackLock: ids of QoS ≥ 1 publishes the broker has not acknowledged yet, with their topics (a
    /// refusal names the topic it was for).
    var pendingAcks: [Int32: String] = [:]

    /// Owned by the network thread: the CONNACK failure reason of the current attempt.
    var attemptRefusal: MQTTReasonCode?
    /// Owned by the network thread: the current attempt got a CONNACK success.
    var attemptConnected = false

    /// mosquitto_lib_init is not thread safe: a static's initialiser runs exactly once (swift_once).
    private static let libraryInitialized: Int32 = mosquitto_lib_init()

    /// Creates the handle and applies the configuration; nothing connects until start().
    /// `onEvent` is called on the network thread.
    public init(configuration: MQTTConfiguration, onEvent: @escaping EventHandler) throws {
        try MQTTError.check(Self.libraryInitialized, "mosquitto_lib_init")
        self.configuration = configuration
        self.onEvent = onEvent
        handle = try Self.makeHandle(configuration)
        // Every stored property is set: from here on deinit frees the handle, and nothing below throws.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    deinit { mosquitto_destroy(handle) }

    /// Starts the network thread, which connects in the background and keeps reconnecting (a broker that is down
    /// now is not an error: the attempts show as `.connectFailed` events). Any thread; a second call does nothing.
    public func start() {
        state.lock()
        defer { state.unlock() }
        guard lifecycle == .created else { return }
        lifecycle = .running
        Threads.start(named: "mqtt.network") { [self] in runNetworkThread() }
    }

    /// Ends the client: waits up to `configuration.stopTimeout` for queued QoS ≥ 1 publishes to be acknowledged
    /// (publish an `offline` status before calling this and it goes out), sends DISCONNECT (so the broker does
    /// not publish the Last Will) and waits for the network thread to end; bounded by stopTimeout plus about two
    /// seconds even if the thread is stuck in a TCP connect. Not connected: returns at once, nothing is flushed
    /// (what was not acknowledged is still in the caller's spool). Any thread; called from the event handler
    /// it only requests the stop. Idempotent; the client cannot be started again.
    public func stop() {
        state.lock()
        defer { state.unlock() }
        switch lifecycle {
        case .created:
            lifecycle = .finished
            return
        case .running:
            lifecycle = .stopping(deadline: .now + configuration.stopTimeout)
            state.broadcast()
        case .stopping, .finished:
            break
        }
        if let networkThread, pthread_equal(networkThread, pthread_self()) != 0 { return }
        let bound = configuration.stopTimeout + configuration.loopTimeout + .seconds(2)
        let limit = Date(timeIntervalSinceNow: Self.seconds(bound))
        while lifecycle != .finished && Date() < limit { _ = state.wait(seconds: limit.timeIntervalSinceNow) }
    }

    /// Queues a message and returns its message id (the id of the `.published` event that reports it done).
    /// QoS ≥ 1 while disconnected is not an error: libmosquitto keeps the message and sends it again after the
    /// next CONNACK (lib/messages_mosq.c: message__reconnect_reset, message__retry_check). QoS 0 while
    /// disconnected throws (MOSQ_ERR_NO_CONN). Any thread, including the event handler.
    @discardableResult
    public func publish(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false,
        responseTopic: String? = nil, correlationData: [UInt8]? = nil, messageExpiryInterval: UInt32? = nil
    ) throws -> Int32 {
        guard isRunning else { throw MQTTError.stopped }
        let properties = MosquittoProperties()
        if let responseTopic { try properties.add(string: responseTopic, for: MQTT_PROP_RESPONSE_TOPIC) }
        if let correlationData { try properties.add(binary: correlationData, for: MQTT_PROP_CORRELATION_DATA) }
        if let messageExpiryInterval {
            try properties.add(int32: messageExpiryInterval, for: MQTT_PROP_MESSAGE_EXPIRY_INTERVAL)
        }
        var messageID: Int32 = 0
        // ackLock is held across the C call so the acknowledgement (on the network thread) cannot arrive before
        // the id is recorded. Justified: in threaded mode mosquitto_publish_v5 does no socket I/O (packet__queue
        // appends and writes one byte to the non-blocking socket pair), and it takes only mid_mutex,
        // msgs_out.mutex and out_packet_mutex, none of which the network thread holds while it runs didPublish
        // (under callback_mutex and, for QoS 0, current_out_packet_mutex): microseconds, and no lock cycle.
        ackLock.lock()
        defer { ackLock.unlock() }
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(
                handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, qos.rawValue, retain, properties.list)
        }
        if qos != .atMostOnce && (rc == Int32(MOSQ_ERR_SUCCESS.rawValue) || rc == Int32(MOSQ_ERR_NO_CONN.rawValue)) {
            pendingAcks[messageID] = topic
            return messageID
        }
        try MQTTError.check(rc, "publish to \(topic)")
        return messageID
    }

    /// Subscribes now if a session is up, and again after every reconnect. Any thread. `retainAsPublished`
    /// (MQTT 5): messages keep the retain flag they were published with, also when delivered live — so a
    /// receiver can tell a retained message it must not act on (a command) from a live one.
    public func subscribe(_ pattern: String, qos: MQTTQoS = .atLeastOnce, retainAsPublished: Bool = false) throws {
        try MQTTError.check(mosquitto_sub_topic_check(pattern), "subscribe to \(pattern)")
        let options = retainAsPublished ? Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue) : 0
        let live: Bool = try state.withLock {
            guard lifecycle == .created || lifecycle == .running else { throw MQTTError.stopped }
            if let index = subscriptions.firstIndex(where: { $0.pattern == pattern }) {
                subscriptions[index].qos = qos
                subscriptions[index].options = options
            } else {
                subscriptions.append((pattern, qos, options))
            }
            return sessionUp
        }
        guard live else { return }  // didConnect subscribes
        var messageID: Int32 = 0
        let rc = mosquitto_subscribe_v5(handle, &messageID, pattern, qos.rawValue, options, nil)
        if rc == Int32(MOSQ_ERR_NO_CONN.rawValue) { return }  // lost meanwhile: the next CONNACK subscribes
        try MQTTError.check(rc, "subscribe to \(pattern)")
        // Recorded after the call (the lock is never held across one): the SUBACK needs a round trip to the
        // broker, which the network thread cannot have made before the packet it queues here is even sent.
        state.withLock { subscribeRequests[messageID] = pattern }
    }

    /// Forgets a pattern (no more resubscribing) and unsubscribes if a session is up. Any thread.
    public func unsubscribe(_ pattern: String) throws {
        let live = state.withLock {
            subscriptions.removeAll { $0.pattern == pattern }
            return sessionUp
        }
        guard live else { return }
        let rc = mosquitto_unsubscribe_v5(handle, nil, pattern, nil)
        if rc == Int32(MOSQ_ERR_NO_CONN.rawValue) { return }
        try MQTTError.check(rc, "unsubscribe from \(pattern)")
    }

    /// QoS ≥ 1 publishes not yet acknowledged by the broker. Any thread.
    public var pendingAcknowledgements: Int { ackLock.withLock { pendingAcks.count } }

    /// Whether a session is up right now. Any thread.
    public var isConnected: Bool { state.withLock { sessionUp } }

    private var isRunning: Bool {
        state.withLock { lifecycle == .created || lifecycle == .running }
    }

    /// For tests: the network thread shuts its socket down without a DISCONNECT, as a crash or a cut cable
    /// would (the broker then publishes the Last Will); the client reconnects as after any loss.
    func dropConnectionWithoutDisconnect() {
        state.withLock { abortRequested = true }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(ReconnectBackoff.nanoseconds(duration)) / 1e9
    }
}
