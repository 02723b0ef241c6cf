// Creating the libmosquitto handle from a configuration. On any failure the half-made handle is destroyed
// here, before the client owns it (so it is freed in one place only).

import CMosquitto
import Glibc

extension MosquittoClient {
    /// Runs in init, on the caller's thread.
    static func makeHandle(_ configuration: MQTTConfiguration) throws -> OpaquePointer {
        guard (1...65535).contains(configuration.port) else {
            throw MQTTError.invalidConfiguration("port \(configuration.port) is not 1…65535")
        }
        guard configuration.keepalive == 0 || (5...65535).contains(configuration.keepalive) else {
            throw MQTTError.invalidConfiguration("keepalive \(configuration.keepalive) s is not 0 or 5…65535")
        }
        if let tls = configuration.tls, (tls.certFile == nil) != (tls.keyFile == nil) {
            throw MQTTError.invalidConfiguration("a TLS client certificate needs its key file, and the other way round")
        }
        let id = configuration.clientID.isEmpty ? nil : configuration.clientID
        guard let handle = mosquitto_new(id, configuration.cleanStart, nil) else {
            throw MQTTError.library(Int32(MOSQ_ERR_ERRNO.rawValue), "mosquitto_new")
        }
        do {
            try configure(handle, configuration)
            return handle
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
    }

    private static func configure(_ handle: OpaquePointer, _ configuration: MQTTConfiguration) throws {
        try MQTTError.check(
            mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "MQTT 5 option")
        // We run mosquitto_loop on our own thread and publish from others (mosquitto.h, mosquitto_threaded_set:
        // "If you are managing your own threads and do not use this function you will experience crashes").
        try MQTTError.check(mosquitto_threaded_set(handle, true), "mosquitto_threaded_set")
        if configuration.username != nil || configuration.password != nil {
            try MQTTError.check(
                mosquitto_username_pw_set(handle, configuration.username, configuration.password), "username")
        }
        if let tls = configuration.tls {
            let caPath = tls.caFile == nil && tls.caPath == nil ? "/etc/ssl/certs" : tls.caPath
            try MQTTError.check(
                mosquitto_tls_set(handle, tls.caFile, caPath, tls.certFile, tls.keyFile, nil),
                "TLS settings (CA \(tls.caFile ?? caPath ?? "?"))")
        }
        if let will = configuration.will {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set_v5(
                    handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos.rawValue, will.retain, nil)
            }
            try MQTTError.check(rc, "Last Will on \(will.topic)")
        }
    }
}
