// MQTT's delivery guarantees, as the wire and libmosquitto number them.

public enum MQTTQoS: Int32, Sendable, Equatable, CaseIterable {
    /// Fire and forget: the published callback fires once the packet is written.
    case atMostOnce = 0
    /// Acknowledged (PUBACK): the published callback fires when the broker has the message.
    case atLeastOnce = 1
    /// Exactly once (PUBREC/PUBREL/PUBCOMP): the published callback fires on PUBCOMP.
    case exactlyOnce = 2
}
