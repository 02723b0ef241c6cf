// Debian's mosquitto (2.0.11) on free loopback ports from a private configuration, for MQTT tests: users from a
// password file made with `mosquitto_passwd -b`, ACL lines given by the test (e.g. "pattern readwrite
// queued/%u/#"; a denial is silent: a refused publish is dropped, a refused subscription gets nothing),
// optionally a TLS listener whose server certificate (SAN IP:127.0.0.1) comes from a throwaway test CA, no
// persistence. kill(signal:) and restart() on the same ports make an outage; deinit stops it.
// Only ever listens on 127.0.0.1. Several clients and several brokers can run at once.

import Foundation
import Glibc

public final class MosquittoBroker: @unchecked Sendable {
    /// The plain MQTT listener.
    public let port: Int
    /// The TLS listener, when made with `tls: true`.
    public let tlsPort: Int?
    /// The CA that issued the server certificate (what a TLS client trusts), when made with `tls: true`.
    public let authority: TestCertificateAuthority?
    /// The broker's private directory (config, password and ACL files, certificates, log).
    public var directory: String { scratch.path }

    private let scratch: TemporaryDirectory
    private let lock = NSLock()
    /// Guarded by lock: the running broker, nil while killed or stopped.
    private var process: ChildProcess?

    /// Writes the configuration and starts the broker; returns once both listeners accept connections.
    /// - Parameters:
    ///   - users: name → password.
    ///   - acl: lines of the ACL file (`user NAME`, `topic readwrite T`, `pattern readwrite queued/%u/#` …);
    ///     empty: no ACL file (every authenticated user may use every topic).
    ///   - tls: also listen with TLS (server certificate for IP:127.0.0.1 from `authority`).
    ///   - requireClientCertificate: the TLS listener demands a client certificate issued by `authority`.
    ///   - persistent: retained messages and sessions are saved (at a clean stop) and read back at start, as
    ///     a production broker does: what was left on it outlives a restart.
    public init(
        users: [String: String], acl: [String] = [], tls: Bool = false, requireClientCertificate: Bool = false,
        persistent: Bool = false
    ) throws {
        scratch = try TemporaryDirectory(prefix: "queued-mosquitto")
        let dir = scratch.path
        port = try LoopbackPort.free()
        var tlsSettings = ""
        if tls {
            let authority = try TestCertificateAuthority(in: dir, name: "test-ca")
            let server = try authority.issue(name: "server", commonName: "127.0.0.1", subjectAltName: "IP:127.0.0.1")
            var tlsPort = try LoopbackPort.free()
            while tlsPort == port { tlsPort = try LoopbackPort.free() }
            self.authority = authority
            self.tlsPort = tlsPort
            tlsSettings = """
                listener \(tlsPort) 127.0.0.1
                cafile \(authority.certificateFile)
                certfile \(server.certificateFile)
                keyfile \(server.keyFile)
                require_certificate \(requireClientCertificate)

                """
        } else {
            authority = nil
            tlsPort = nil
        }
        _ = FileManager.default.createFile(atPath: dir + "/passwords", contents: Data())
        for (name, password) in users.sorted(by: { $0.key < $1.key }) {
            try ChildProcess.check("mosquitto_passwd", ["-b", dir + "/passwords", name, password], timeout: 30)
        }
        var aclLine = ""
        if !acl.isEmpty {
            try (acl.joined(separator: "\n") + "\n").write(toFile: dir + "/acl", atomically: true, encoding: .utf8)
            aclLine = "acl_file \(dir)/acl"
        }
        // As root it would drop to the mosquitto user, which cannot read a private temporary directory.
        let user = getuid() == 0 ? "user root" : ""
        let config = """
            \(user)
            persistence \(persistent)
            persistence_location \(dir)/
            allow_anonymous false
            password_file \(dir)/passwords
            \(aclLine)
            log_dest file \(dir)/mosquitto.log
            log_type all
            listener \(port) 127.0.0.1
            \(tlsSettings)
            """
        try config.write(toFile: dir + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    /// mqtt://127.0.0.1:PORT
    public var url: String { "mqtt://127.0.0.1:\(port)" }
    /// mqtts://127.0.0.1:TLSPORT, when made with `tls: true`.
    public var tlsURL: String? { tlsPort.map { "mqtts://127.0.0.1:\($0)" } }

    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// The broker's log so far (every connection, subscription and message with `log_type all`).
    public var log: String { (try? String(contentsOfFile: directory + "/mosquitto.log", encoding: .utf8)) ?? "" }

    /// Starts it (again) on the same ports; returns once they accept connections. Does nothing if running.
    public func start() throws {
        try lock.withLock {
            if process?.isRunning == true { return }
            let dir = scratch.path
            let child = try ChildProcess(
                "mosquitto", ["-c", dir + "/mosquitto.conf"], stdoutPath: dir + "/stdout.log",
                stderrPath: dir + "/stdout.log")
            let ports = [port] + (tlsPort.map { [$0] } ?? [])
            let ready = waitUntil(timeout: 10, pollInterval: 0.01) {
                !child.isRunning || ports.allSatisfy { LoopbackPort.accepts($0) }
            }
            guard ready, child.isRunning else {
                child.terminate(signal: SIGKILL)
                let output = (try? String(contentsOfFile: dir + "/stdout.log", encoding: .utf8)) ?? ""
                throw TestSupportError.timeout("mosquitto did not start on 127.0.0.1:\(ports)\n\(output)\n\(log)")
            }
            process = child
        }
    }

    /// Kills it (SIGKILL by default: an outage, no goodbye to clients) and reaps it. Ports stay reserved for
    /// restart().
    public func kill(signal: Int32 = SIGKILL) {
        let child = lock.withLock { () -> ChildProcess? in
            defer { process = nil }
            return process
        }
        child?.terminate(signal: signal, timeout: 5)
    }

    /// Kills it (SIGKILL) if running and starts it again on the same ports.
    public func restart() throws {
        kill()
        try start()
    }

    /// Stops it cleanly (SIGTERM, then SIGKILL after 5 s).
    public func stop() {
        kill(signal: SIGTERM)
    }
}
