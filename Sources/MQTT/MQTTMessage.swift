// One message as a subscriber receives it, copied out of libmosquitto's callback (nothing here points
// into C memory). The MQTT 5 properties a request/response bridge needs are read out.

public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// Set when the broker delivers a retained message (on subscribing); live traffic to an existing
    /// subscription arrives with it clear.
    public var retain: Bool
    /// MQTT 5 Response Topic: where the sender wants the answer.
    public var responseTopic: String?
    /// MQTT 5 Correlation Data: opaque bytes to send back with the answer.
    public var correlationData: [UInt8]?
    /// MQTT 5 Message Expiry Interval in seconds, as the broker forwards it (what is left of the lifetime).
    public var messageExpiryInterval: UInt32?

    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        responseTopic: String? = nil, correlationData: [UInt8]? = nil, messageExpiryInterval: UInt32? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
        self.messageExpiryInterval = messageExpiryInterval
    }

    /// The payload read as UTF-8 (invalid sequences replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
