// systemd's notify protocol (sd_notify(3)): "KEY=VALUE\n…" in one datagram to the AF_UNIX socket named by
// $NOTIFY_SOCKET (a path, or "@name" for the abstract namespace). Hand-written rather than linking
// libsystemd: the protocol is one sendto(2), and the daemon must run the same without systemd, where
// every call is a no-op. Used from the daemon's main thread and its watchdog thread (sendto is thread-safe;
// the descriptor is created once and never changes).

import Glibc

public final class ServiceNotifier: Sendable {
    /// nil when not started by a service manager that listens ($NOTIFY_SOCKET unset).
    private let descriptor: Int32?
    private let address: sockaddr_un?
    private let addressLength: socklen_t
    /// The watchdog interval systemd expects a ping within ($WATCHDOG_USEC, for this pid), in seconds.
    public let watchdogInterval: Double?

    public init(environment: [String: String]) {
        watchdogInterval = Self.watchdogInterval(environment)
        guard let path = environment["NOTIFY_SOCKET"], path.count > 1, path.utf8.count < 108,
            path.hasPrefix("/") || path.hasPrefix("@")
        else {
            descriptor = nil
            address = nil
            addressLength = 0
            return
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace: a leading NUL
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        descriptor = fd >= 0 ? fd : nil
        self.address = address
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    public var isActive: Bool { descriptor != nil }

    /// Sends `fields` ("READY=1", "STATUS=…") in one datagram; false when there is no manager or it failed.
    @discardableResult
    public func notify(_ fields: [String]) -> Bool {
        guard let descriptor, var address else { return false }
        let message = Array(fields.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
            }
        }
        return sent == message.count
    }

    /// $WATCHDOG_USEC when $WATCHDOG_PID is absent or ours.
    private static func watchdogInterval(_ environment: [String: String]) -> Double? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        return Double(microseconds) / 1_000_000
    }
}
