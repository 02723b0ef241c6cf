// An MQTT 5 reason code (CONNACK, PUBACK, SUBACK, DISCONNECT): below 0x80 success, from 0x80 a failure.
// Text from libmosquitto (mosquitto_reason_string; mosquitto_connack_string for MQTT 3.1.1's CONNACK codes 1–5).

import CMosquitto

public struct MQTTReasonCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let success = MQTTReasonCode(rawValue: 0)
    /// PUBACK: accepted, but nobody is subscribed (still a success: the broker has it).
    public static let noMatchingSubscribers = MQTTReasonCode(rawValue: Int32(MQTT_RC_NO_MATCHING_SUBSCRIBERS.rawValue))
    public static let unspecifiedError = MQTTReasonCode(rawValue: Int32(MQTT_RC_UNSPECIFIED.rawValue))
    /// CONNACK: the username or password was refused.
    public static let badUsernameOrPassword = MQTTReasonCode(
        rawValue: Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue))
    /// CONNACK, PUBACK, SUBACK: the broker's authorisation (ACL) said no.
    public static let notAuthorized = MQTTReasonCode(rawValue: Int32(MQTT_RC_NOT_AUTHORIZED.rawValue))

    /// 0x80 and above: the operation failed (a PUBACK with one of these means the broker did not take it).
    public var isFailure: Bool { rawValue >= 0x80 }

    public var description: String {
        // CONNACK codes 1–5 only exist in MQTT 3.1.1; MQTT 5 codes are 0 or ≥ 0x80.
        let text = (1...5).contains(rawValue) ? mosquitto_connack_string(rawValue) : mosquitto_reason_string(rawValue)
        return "\(text.map { String(cString: $0) } ?? "reason") (\(rawValue))"
    }
}
