// An owned MQTT 5 property list (mosquitto_property*) for one outgoing PUBLISH or CONNECT, freed in deinit, and the
// readers for incoming ones. Only MosquittoClient uses these; no C pointer leaves the module.

import CMosquitto
import Glibc

/// Owned by the thread building one publish; not shared.
final class MosquittoProperties {
    /// The list's head (NULL while empty); freed with mosquitto_property_free_all.
    private(set) var list: OpaquePointer?

    init() {}

    deinit { mosquitto_property_free_all(&list) }

    func add(string value: String, for identifier: mqtt5_property) throws {
        try MQTTError.check(mosquitto_property_add_string(&list, Int32(identifier.rawValue), value), "property")
    }

    func add(binary value: [UInt8], for identifier: mqtt5_property) throws {
        guard value.count <= Int(UInt16.max) else {
            throw MQTTError.library(Int32(MOSQ_ERR_INVAL.rawValue), "binary property over 65535 bytes")
        }
        let rc = value.withUnsafeBytes {
            mosquitto_property_add_binary(&list, Int32(identifier.rawValue), $0.baseAddress, UInt16($0.count))
        }
        try MQTTError.check(rc, "property")
    }

    func add(int16 value: UInt16, for identifier: mqtt5_property) throws {
        try MQTTError.check(mosquitto_property_add_int16(&list, Int32(identifier.rawValue), value), "property")
    }

    func add(int32 value: UInt32, for identifier: mqtt5_property) throws {
        try MQTTError.check(mosquitto_property_add_int32(&list, Int32(identifier.rawValue), value), "property")
    }

    // Readers for a list libmosquitto hands to a callback (borrowed: valid during the callback only).

    static func string(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard mosquitto_property_read_string(list, Int32(identifier.rawValue), &value, false) != nil, let value else {
            return nil
        }
        defer { free(value) }
        return String(cString: value)
    }

    static func binary(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> [UInt8]? {
        var value: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        guard mosquitto_property_read_binary(list, Int32(identifier.rawValue), &value, &length, false) != nil else {
            return nil
        }
        defer { free(value) }
        guard let value, length > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: Int(length)))
    }

    static func int32(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> UInt32? {
        var value: UInt32 = 0
        guard mosquitto_property_read_int32(list, Int32(identifier.rawValue), &value, false) != nil else { return nil }
        return value
    }
}
