// libmosquitto's callbacks, all run on the network thread (inside mosquitto_connect_bind_v5 / mosquitto_loop,
// with libmosquitto's callback_mutex held). Each C function pointer is a non-capturing closure that finds the
// client through the user data pointer (set in init, unretained: the network thread keeps the client alive).
// They copy what they need out of C memory and hand it to the owner as MQTTEvents.

import CMosquitto

extension MosquittoClient {
    /// Runs in init.
    func installCallbacks() {
        mosquitto_connect_v5_callback_set(handle) { _, userData, reasonCode, flags, _ in
            MosquittoClient.from(userData)?.didConnect(reasonCode: reasonCode, flags: flags)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userData, _, _ in
            MosquittoClient.from(userData)?.didDisconnect()
        }
        mosquitto_publish_v5_callback_set(handle) { _, userData, messageID, reasonCode, _ in
            MosquittoClient.from(userData)?.didPublish(messageID: messageID, reasonCode: reasonCode)
        }
        mosquitto_subscribe_v5_callback_set(handle) { _, userData, messageID, count, granted, _ in
            let codes = (0..<Int(max(0, count))).map { MQTTReasonCode(rawValue: granted?[$0] ?? 0x80) }
            MosquittoClient.from(userData)?.didSubscribe(messageID: messageID, granted: codes)
        }
        mosquitto_message_v5_callback_set(handle) { _, userData, message, properties in
            guard let message else { return }
            MosquittoClient.from(userData)?.didReceive(message.pointee, properties: properties)
        }
    }

    /// The client behind a callback's user data (set in init, before any callback can run).
    private static func from(_ userData: UnsafeMutableRawPointer?) -> MosquittoClient? {
        guard let userData else { return nil }
        return Unmanaged<MosquittoClient>.fromOpaque(userData).takeUnretainedValue()
    }

    /// Network thread: CONNACK. On success, subscribe again to every pattern, then tell the owner.
    private func didConnect(reasonCode: Int32, flags: Int32) {
        guard reasonCode == 0 else {
            attemptRefusal = MQTTReasonCode(rawValue: reasonCode)
            return
        }
        attemptConnected = true
        // sessionUp and the copy in one critical section: a concurrent subscribe() either is in the copy or
        // sees sessionUp and subscribes itself (a pattern subscribed twice is harmless).
        let patterns = state.withLock {
            sessionUp = true
            return subscriptions
        }
        for subscription in patterns {
            // Only NOMEM or a lost socket can fail here; a lost socket means a reconnect, which subscribes again.
            var messageID: Int32 = 0
            let rc = mosquitto_subscribe_v5(
                handle, &messageID, subscription.pattern, subscription.qos.rawValue, subscription.options, nil)
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                state.withLock { subscribeRequests[messageID] = subscription.pattern }
            }
        }
        onEvent(.connected(sessionPresent: flags & 1 != 0))
    }

    /// Network thread: the socket closed (after CONNACK or not). The network loop reports it.
    private func didDisconnect() {
        state.withLock { sessionUp = false }
    }

    /// Network thread: QoS 0 written, QoS 1 PUBACK, QoS 2 PUBCOMP (or a PUBREC with a failure reason).
    private func didPublish(messageID: Int32, reasonCode: Int32) {
        let topic = ackLock.withLock { pendingAcks.removeValue(forKey: messageID) }
        let reason = MQTTReasonCode(rawValue: reasonCode)
        onEvent(.published(messageID: messageID, reason: reason))
        if reason.isFailure, let topic { onEvent(.publishRefused(topic: topic, messageID: messageID, reason: reason)) }
    }

    /// Network thread: SUBACK, one code per pattern of that SUBSCRIBE (ours carry one each).
    private func didSubscribe(messageID: Int32, granted: [MQTTReasonCode]) {
        let pattern = state.withLock { subscribeRequests.removeValue(forKey: messageID) }
        onEvent(.subscribed(messageID: messageID, granted: granted))
        if let pattern, let refusal = granted.first(where: \.isFailure) {
            onEvent(.subscriptionRefused(pattern: pattern, reason: refusal))
        }
    }

    /// Network thread: an incoming PUBLISH, copied out (the C message and properties die with the callback).
    private func didReceive(_ message: mosquitto_message, properties: OpaquePointer?) {
        let payload: [UInt8] =
            if let bytes = message.payload, message.payloadlen > 0 {
                Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
            } else { [] }
        let received = MQTTMessage(
            topic: message.topic.map { String(cString: $0) } ?? "",
            payload: payload,
            qos: MQTTQoS(rawValue: message.qos) ?? .atMostOnce,
            retain: message.retain,
            responseTopic: MosquittoProperties.string(properties, MQTT_PROP_RESPONSE_TOPIC),
            correlationData: MosquittoProperties.binary(properties, MQTT_PROP_CORRELATION_DATA),
            messageExpiryInterval: MosquittoProperties.int32(properties, MQTT_PROP_MESSAGE_EXPIRY_INTERVAL))
        onEvent(.message(received))
    }
}
