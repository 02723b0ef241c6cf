// The attack suite's rig: the real `queued` (null outputs) and the real `queued-web` on 127.0.0.1 (port 0,
// read from its "listening on" line), its media folder and its token file (made by queued-web at its first
// start, as on a new screen; the media folder is not made beforehand either), and a raw HTTP client that says exactly what an attacker puts on the wire — any
// request target, any source address on loopback (127.0.0.2 is "another client") — and reads the whole answer.
// What an attack left behind is read from the daemon itself, through its own socket.

import Foundation
import Glibc
import JSONText
import QueueClient
import TestSupport

final class WebAttackRig: @unchecked Sendable {
    let daemon: RunningDaemon
    let scratch: TemporaryDirectory
    let media: String
    let tokenPath: String
    let logPath: String
    let web: ChildProcess
    let port: Int
    /// Read from the token file queued-web made (never from its output).
    let token: String

    init(_ extra: [String] = []) throws {
        daemon = try RunningDaemon(outputs: .null(untimed: false), logLevel: "warning")
        scratch = try TemporaryDirectory(prefix: "queued-web-attack")
        media = scratch.path + "/media"
        tokenPath = scratch.path + "/state/web-token"
        logPath = scratch.path + "/queued-web.log"
        web = try ChildProcess(
            BuiltProduct.path("queued-web"),
            [
                "--no-config", "--listen", "127.0.0.1:0", "--socket", daemon.socket, "--media-dir", media,
                "--token-file", tokenPath, "--log-level", "info",
            ] + extra, stdoutPath: scratch.path + "/stdout", stderrPath: logPath)
        let logPath = self.logPath
        var found: Int?
        waitUntil(timeout: 20, pollInterval: 0.02) {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            guard let line = log.split(separator: "\n").first(where: { $0.hasPrefix("queued-web: listening on 127.0.0.1:") })
            else { return false }
            found = Int(line.split(separator: ":").last ?? "")
            return true
        }
        guard let found, let token = try? String(contentsOfFile: tokenPath, encoding: .utf8) else {
            _ = web.terminate()
            throw TestSupportError.io("queued-web did not start; log:\n\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
        }
        port = found
        self.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { stop() }

    func stop() {
        if web.isRunning { _ = web.terminate() }
        daemon.stop()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// What the daemon holds: its queue's URIs and its overlay layers, read on its own socket.
    func daemonQueue() throws -> [String] {
        try daemon.client().call("queue.list", [:])["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
    }

    func daemonOverlays() throws -> JSONValue? { try daemon.client().call("overlay.list", [:])["overlays"] }

    /// The media folder's entries.
    func stored() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: media)) ?? []).sorted() }

    /// Whether queued-web holds a file open in the media folder (an upload being written: NIO's file system
    /// writes an unnamed file there and names it only when complete).
    func writingInMediaFolder() -> Bool {
        let folder = "/proc/\(web.pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.contains { ((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) ?? "").hasPrefix(media + "/") }
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    // MARK: The wire

    struct Answer {
        var status: Int
        var head: String
        var body: String
        var json: JSONValue? { try? JSON.parse(Array(body.utf8)) }

        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// A connected TCP socket to the page from `source` (any loopback address): the caller closes it.
    static func connect(port: Int, from source: String = "127.0.0.1", timeout: Int = 10) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError.io("socket: \(errno)") }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        func address(_ ip: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(ip)
            return address
        }
        var local = address(source, 0)
        var remote = address("127.0.0.1", port)
        let result = withUnsafePointer(to: &local) { localPointer in
            withUnsafePointer(to: &remote) { remotePointer in
                localPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { localAddress in
                    remotePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { remoteAddress in
                        guard bind(descriptor, localAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 else { return Int32(-1) }
                        return Glibc.connect(descriptor, remoteAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw TestSupportError.io("connect from \(source) to 127.0.0.1:\(port): errno \(error)")
        }
        return descriptor
    }

    /// One request on its own connection (closed after the answer): exactly `target` on the request line.
    func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [], from source: String = "127.0.0.1",
        chunked: Bool = false
    ) throws -> Answer {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        var bytes = Array(head.utf8)
        if chunked {
            bytes += Array("Transfer-Encoding: chunked\r\n\r\n".utf8)
            if !body.isEmpty { bytes += Array("\(String(body.count, radix: 16))\r\n".utf8) + body + Array("\r\n".utf8) }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        return try Self.exchange(port: port, from: source, bytes, what: "\(method) \(target)")
    }

    /// Sends `bytes` on a connection of its own and reads the whole answer (the server closes it).
    static func exchange(port: Int, from source: String = "127.0.0.1", timeout: Int = 10, _ bytes: [UInt8], what: String) throws -> Answer {
        let descriptor = try connect(port: port, from: source, timeout: timeout)
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer (and close) before the whole body is sent: read what it said.
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            throw TestSupportError.io("no answer to \(what): \(text)")
        }
        let head = String(text[..<split.lowerBound])
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// A request to the daemon through the page with the bearer token, as a script would send it.
    func rpc(_ method: String, _ params: JSONValue?, from source: String = "127.0.0.1") throws -> Answer {
        var request: JSONObject = ["method": .string(method)]
        if let params { request["params"] = params }
        return try send(
            "POST", "/api/rpc", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: JSON.serialize(.object(request)), from: source)
    }

    /// Signs in with `secret` from `source`: the answer, and the session's cookie and CSRF token when it worked.
    func signIn(_ secret: String, from source: String = "127.0.0.1") throws -> (answer: Answer, cookie: String?, csrf: String?) {
        let answer = try send(
            "POST", "/api/login", headers: ["Origin": origin, "Content-Type": "application/json"],
            body: JSON.serialize(["secret": .string(secret)]), from: source)
        let cookie = answer.header("Set-Cookie").flatMap { $0.split(separator: ";").first.map(String.init) }
        return (answer, cookie, answer.json?["csrf"]?.stringValue)
    }
}
