// The network thread ("mqtt.network"): the only thread that touches the client's socket. It connects, runs
// mosquitto_loop with a short timeout (publish/subscribe from other threads wake it at once through
// libmosquitto's socket pair; the timeout bounds how late it sees stop()), and after a failed attempt or a lost
// connection waits a jittered, doubling delay (ReconnectBackoff, 1 s → 60 s) on the `state` condition, which
// stop() signals, so no wait delays shutdown. It feeds the owner's event handler; it must never wait for the owner.

import CMosquitto
import FoundationEssentials
import Glibc
import SystemSupport
import Glibc

extension MosquittoClient {
    /// How one connection (attempt) ended.
    enum ConnectionOutcome {
        /// Failed or lost; `hadSession`: a CONNACK success came first.
        case ended(MQTTError, hadSession: Bool)
        /// stop() ended it.
        case stopped(hadSession: Bool)
    }

    /// Network thread: the whole life of the client, from start() to the end of stop().
    func runNetworkThread() {
        state.withLock { networkThread = pthread_self() }
        var backoff = configuration.backoff
        var generator = SystemRandomNumberGenerator()
        while true {
            let outcome = runConnection()
            state.withLock { sessionUp = false }
            if case .stopped(let hadSession) = outcome {
                if hadSession { onEvent(.disconnected(nil, retryIn: nil)) }
                break
            }
            guard case .ended(let error, let hadSession) = outcome else { break }
            if stopRequested {
                if hadSession { onEvent(.disconnected(error, retryIn: nil)) }
                break
            }
            if hadSession { backoff.reset() }
            let delay = backoff.nextDelay(using: &generator)
            onEvent(hadSession ? .disconnected(error, retryIn: delay) : .connectFailed(error, retryIn: delay))
            guard waitWhileRunning(for: delay) else { break }
        }
        state.withLock {
            lifecycle = .finished
            state.broadcast()
        }
    }

    /// Network thread: one TCP connection, from connect to its end.
    private func runConnection() -> ConnectionOutcome {
        attemptRefusal = nil
        attemptConnected = false
        let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
        let properties = MosquittoProperties()
        do {
            if let size = configuration.maximumPacketSize { try properties.add(int32: size, for: MQTT_PROP_MAXIMUM_PACKET_SIZE) }
            if let count = configuration.receiveMaximum { try properties.add(int16: count, for: MQTT_PROP_RECEIVE_MAXIMUM) }
            if let seconds = configuration.sessionExpiry {
                try properties.add(int32: seconds, for: MQTT_PROP_SESSION_EXPIRY_INTERVAL)
            }
        } catch {
            return .ended(error as? MQTTError ?? .invalidConfiguration("\(error)"), hadSession: false)
        }
        let rc = mosquitto_connect_bind_v5(
            handle, configuration.host, Int32(configuration.port), Int32(configuration.keepalive), nil, properties.list)
        guard rc == success else {
            return .ended(.library(rc, "connect to \(configuration.host):\(configuration.port)"), hadSession: false)
        }
        let clock = ContinuousClock()
        let attemptStarted = clock.now
        let loopTimeout = Int32(clamping: ReconnectBackoff.nanoseconds(configuration.loopTimeout) / 1_000_000)
        var disconnectDeadline: ContinuousClock.Instant?
        while true {
            let (stopDeadline, abort) = state.withLock { () -> (ContinuousClock.Instant?, Bool) in
                defer { abortRequested = false }
                if case .stopping(let deadline) = lifecycle { return (deadline, abortRequested) }
                return (nil, abortRequested)
            }
            if abort { _ = shutdown(mosquitto_socket(handle), Int32(SHUT_RDWR)) }
            let now = clock.now
            if let stopDeadline {
                if let disconnectDeadline {
                    if now >= disconnectDeadline { return .stopped(hadSession: attemptConnected) }
                } else if now >= stopDeadline || ackLock.withLock({ pendingAcks.isEmpty }) {
                    // Everything queued before stop() is acknowledged (or time is up): DISCONNECT, which
                    // libmosquitto writes after the packets already queued, then closes the socket.
                    guard mosquitto_disconnect_v5(handle, 0, nil) == success else {
                        return .stopped(hadSession: attemptConnected)
                    }
                    disconnectDeadline = now + .seconds(1)
                }
            } else if !attemptConnected && now - attemptStarted > configuration.connectTimeout {
                // The next mosquitto_connect_bind_v5 closes this socket (lib/connect.c, mosquitto__reconnect).
                // This bound also ends a known 2.0.11 wrinkle: if the peer closes mid-TLS-handshake, SSL_connect's
                // SSL_ERROR_SYSCALL leaves want_connect set and mosquitto_loop returns at once, every time.
                return .ended(.connectTimedOut, hadSession: false)
            }
            let loopRC = mosquitto_loop(handle, loopTimeout, 1)
            if loopRC != success || mosquitto_socket(handle) == -1 {
                if disconnectDeadline != nil { return .stopped(hadSession: attemptConnected) }
                let error: MQTTError =
                    if let attemptRefusal { .refused(attemptRefusal) } else if loopRC != success {
                        .library(loopRC, "connection to \(configuration.host):\(configuration.port)")
                    } else {
                        .library(Int32(MOSQ_ERR_CONN_LOST.rawValue), "connection")
                    }
                return .ended(error, hadSession: attemptConnected)
            }
        }
    }

    /// Network thread: waits `delay` unless stop() is called first; false when stopping.
    private func waitWhileRunning(for delay: Duration) -> Bool {
        let until = Date(timeIntervalSinceNow: Self.seconds(delay))
        state.lock()
        defer { state.unlock() }
        while lifecycle == .running && Date() < until { _ = state.wait(seconds: until.timeIntervalSinceNow) }
        return lifecycle == .running
    }

    private var stopRequested: Bool { state.withLock { lifecycle != .running } }
}
