// What can go wrong talking to a broker, with libmosquitto's own words for it. Every libmosquitto return code
// goes through `MQTTError.check`.

import CMosquitto
import Glibc

public enum MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libmosquitto call failed: the call, its MOSQ_ERR_* code and mosquitto_strerror's text (errno's text
    /// for MOSQ_ERR_ERRNO, e.g. "Connection refused" when no broker listens).
    case library(operation: String, code: Int32, message: String)
    /// The broker answered CONNECT with a failure reason (bad credentials, not authorised, …).
    case refused(MQTTReasonCode)
    /// The connection was made but no CONNACK came within the configuration's connect timeout.
    case connectTimedOut
    /// The configuration cannot work (bad URL, a port out of range, …).
    case invalidConfiguration(String)
    /// publish or subscribe after stop().
    case stopped

    /// CONNACK 0x86: the broker refused the username or password.
    public var isBadCredentials: Bool { self == .refused(.badUsernameOrPassword) }
    /// CONNACK 0x87: the broker refused this client.
    public var isNotAuthorized: Bool { self == .refused(.notAuthorized) }
    /// The broker refused who we are (0x86 or 0x87): retrying will not help until the credentials change.
    /// Both, because Mosquitto 2.0.11 answers a wrong password or an unknown user with 0x87, not 0x86
    /// (src/handle_connect.c: the password check's MOSQ_ERR_AUTH → MQTT_RC_NOT_AUTHORIZED).
    public var isCredentialsRefusal: Bool { isBadCredentials || isNotAuthorized }
    /// The TLS handshake or certificate verification failed.
    public var isTLSFailure: Bool {
        guard case .library(_, let code, _) = self else { return false }
        return code == Int32(MOSQ_ERR_TLS.rawValue) || code == Int32(MOSQ_ERR_TLS_HANDSHAKE.rawValue)
    }
    /// The libmosquitto code, if this came from a call.
    public var libraryCode: Int32? {
        if case .library(_, let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .library(let operation, let code, let message): return "\(operation): \(message) (MOSQ_ERR \(code))"
        case .refused(let reason): return "connection refused by the broker: \(reason)"
        case .connectTimedOut: return "connected, but no CONNACK from the broker in time"
        case .invalidConfiguration(let what): return "invalid MQTT configuration: \(what)"
        case .stopped: return "the MQTT client is stopped"
        }
    }

    /// The error for a libmosquitto return code; call it right after the call (errno is read here).
    static func library(_ code: Int32, _ operation: String) -> MQTTError {
        let savedErrno = errno
        let message: String
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            message = String(cString: strerror(savedErrno))
        } else {
            message = mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        }
        return .library(operation: operation, code: code, message: message)
    }

    /// Throws unless `code` is MOSQ_ERR_SUCCESS.
    static func check(_ code: Int32, _ operation: String) throws {
        if code != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw library(code, operation) }
    }
}
