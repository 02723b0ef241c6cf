// Debian's nginx on a free loopback port, from a private configuration: serves `root` with Range, ETag
// and Last-Modified as a real CMS would; `/slow/…` is the same tree throttled to `slowRate` bytes/s;
// `/redirect-file` answers 302 to file:///etc/passwd, `/broken` 500, `/secret/…` asks for a password. Its access log (one line per finished response:
// URI, status, body bytes sent, Range header) tells a test exactly what was transferred.
// Only ever listens on 127.0.0.1.

import Foundation
import Glibc

public final class NginxServer: @unchecked Sendable {
    public let port: Int
    public let root: String
    private let scratch: TemporaryDirectory
    private var process: ChildProcess?
    private let slowRate: Int

    /// One response as the access log records it.
    public struct LoggedResponse: Equatable, Sendable {
        public var uri: String
        public var status: Int
        /// Body bytes sent.
        public var bodyBytes: Int
        /// The request's Range header ("" when none).
        public var range: String
    }

    public init(root: String, slowRate: Int = 2_000_000) throws {
        self.root = root
        self.slowRate = slowRate
        scratch = try TemporaryDirectory(prefix: "queued-nginx")
        port = try LoopbackPort.free()
        try start()
    }

    deinit { stop() }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Starts it (again, after `stop`) on the same port.
    public func start() throws {
        let dir = scratch.path
        // As root its workers would run as nobody and could not read the test's private directories.
        let user = getuid() == 0 ? "user root;" : ""
        let config = """
            daemon off;
            \(user)
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log warn;
            events { worker_connections 64; }
            http {
                client_body_temp_path \(dir)/body;
                proxy_temp_path \(dir)/proxy;
                fastcgi_temp_path \(dir)/fastcgi;
                uwsgi_temp_path \(dir)/uwsgi;
                scgi_temp_path \(dir)/scgi;
                log_format transfer '$uri $status $body_bytes_sent "$http_range"';
                access_log \(dir)/access.log transfer;
                types { video/mp4 mp4; audio/flac flac; video/x-matroska mkv; image/png png; text/html html htm; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(root);
                    location /slow/ { alias \(root)/; limit_rate \(slowRate); }
                    location = /redirect-file { return 302 file:///etc/passwd; }
                    location = /broken { return 500; }
                    location /secret/ { alias \(root)/; auth_basic "queued"; auth_basic_user_file \(dir)/htpasswd; }
                }
            }
            """
        try config.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
        try "user:{PLAIN}secret\n".write(toFile: dir + "/htpasswd", atomically: true, encoding: .utf8)
        let child = try ChildProcess(
            "nginx", ["-c", dir + "/nginx.conf", "-p", dir], stdoutPath: dir + "/stdout.log",
            stderrPath: dir + "/stderr.log")
        let port = self.port
        guard waitUntil(timeout: 10, { !child.isRunning || LoopbackPort.accepts(port) }), child.isRunning else {
            child.terminate(signal: SIGKILL)
            let errors = (try? String(contentsOfFile: dir + "/error.log", encoding: .utf8)) ?? ""
            throw TestSupportError.timeout("nginx did not start on 127.0.0.1:\(port)\n\(errors)")
        }
        process = child
    }

    /// Stops it (SIGQUIT: finishes the responses in flight and writes their log lines; then SIGKILL).
    public func stop() {
        guard let process else { return }
        process.terminate(signal: SIGQUIT)
        self.process = nil
    }

    /// The responses logged so far (only finished ones: nginx logs a response when it ends).
    public func responses() -> [LoggedResponse] {
        let text = (try? String(contentsOfFile: scratch.path + "/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3)
            guard fields.count == 4, let status = Int(fields[1]), let bytes = Int(fields[2]) else { return nil }
            return LoggedResponse(
                uri: String(fields[0]), status: status, bodyBytes: bytes,
                range: String(fields[3].trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
        }
    }
}
