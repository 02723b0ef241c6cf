// What a MosquittoClient tells its owner. Delivered on the client's network thread ("mqtt.network"), in
// order; the handler must not block for long (it holds up the connection), and may call publish/subscribe.

public enum MQTTEvent: Sendable {
    /// CONNACK success; the client has re-sent SUBSCRIBE for every pattern given to subscribe(_:qos:).
    case connected(sessionPresent: Bool)
    /// An attempt failed before a session was up: no listener, TLS refused, CONNACK refusal (see
    /// MQTTError.isBadCredentials / isNotAuthorized), no CONNACK in time. The next attempt follows `retryIn`.
    case connectFailed(MQTTError, retryIn: Duration)
    /// A session ended. `error` nil and `retryIn` nil: the clean end of stop(). Otherwise the connection
    /// was lost and the next attempt follows `retryIn`.
    case disconnected(MQTTError?, retryIn: Duration?)
    /// SUBACK: one granted QoS (0–2) or failure reason (≥ 0x80) per pattern of that SUBSCRIBE.
    case subscribed(messageID: Int32, granted: [MQTTReasonCode])
    /// Follows `.subscribed` when the broker refused the pattern (SUBACK reason ≥ 0x80, e.g. its ACL).
    case subscriptionRefused(pattern: String, reason: MQTTReasonCode)
    case message(MQTTMessage)
    /// The publish with this id is done: QoS 0 written, QoS 1 PUBACK, QoS 2 PUBCOMP. For QoS ≥ 1, `reason`
    /// is the broker's verdict: only a non-failure reason means the broker has taken the message (a spool
    /// may delete its record then); `.notAuthorized` is an ACL refusal.
    case published(messageID: Int32, reason: MQTTReasonCode)
    /// Follows `.published` when the broker refused a QoS ≥ 1 publish (PUBACK/PUBREC reason ≥ 0x80).
    case publishRefused(topic: String, messageID: Int32, reason: MQTTReasonCode)
}
