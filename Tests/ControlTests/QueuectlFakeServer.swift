// A tiny stand-in daemon for QueueClient's tests: a Unix socket listener on its own thread that hands each
// line it receives to a canned `respond` closure and writes back the lines it returns. It speaks no more
// JSON-RPC than the closure does, so a test can send exactly the bytes it wants to see the client handle
// (notifications before a response, null ids, batches, silence for timeouts). The accept thread keeps
// the server alive until stop(): call it (defer) at the end of each test.

import Foundation
import Glibc
import QueueRPC
import TestSupport

final class QueuectlFakeServer: @unchecked Sendable {
    /// What to do with one received line: the lines (without "\n") to send back, and whether to hang up.
    struct Reply: Sendable {
        var lines: [String]
        var close = false
    }

    let path: String
    private let directory: TemporaryDirectory
    private let listenFD: Int32
    private let respond: @Sendable (String) -> Reply
    private let lock = NSLock()
    /// Guarded by lock.
    private var receivedLines: [String] = []
    /// Guarded by lock.
    private var stopped = false

    init(respond: @escaping @Sendable (String) -> Reply) throws {
        directory = try TemporaryDirectory(prefix: "queuectl-fake")
        path = directory.path + "/fake.sock"
        self.respond = respond
        listenFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listenFD >= 0 else { throw TestSupportError.io("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listenFD, 4) == 0 else {
            close(listenFD)
            throw TestSupportError.io("bind/listen \(path): \(String(cString: strerror(errno)))")
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Every line received so far, in order.
    var received: [String] { lock.withLock { receivedLines } }

    /// Stops accepting: shutdown() wakes a blocked accept() (and fails later ones) so the thread ends.
    /// The thread closes the descriptor, not this: closed here, its number could be reused by another
    /// test's socket while the thread is still serving, and its next accept() would steal that socket.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
    }

    /// Runs on the server thread: one connection at a time, until stop(). Owns closing listenFD.
    private func acceptLoop() {
        defer { close(listenFD) }
        while true {
            let connection = accept(listenFD, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            serve(connection)
            close(connection)
        }
    }

    private func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lock.withLock { receivedLines.append(line) }
                let reply = respond(line)
                for out in reply.lines { writeAll(connection, Array((out + "\n").utf8)) }
                if reply.close { return }
            }
        }
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The id of a request line as JSON text ("7", "null"), for building canned responses.
    static func id(of line: String) -> String {
        guard let request = try? JSON.parse(line), let id = request["id"] else { return "null" }
        return JSON.string(id)
    }

    /// The method of a request line, or "" when it has none.
    static func method(of line: String) -> String {
        (try? JSON.parse(line))?["method"]?.stringValue ?? ""
    }
}
