// Bytes on a loopback TCP connection, for tests that must say what a browser or an attacker would put on the
// wire (a Host header, a WebSocket upgrade) rather than what an HTTP client library lets them. Reads are
// bounded by a timeout.

import Foundation
import Glibc

public enum RawHTTP {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public final class Connection {
        private let descriptor: Int32
        private var buffer: [UInt8] = []

        public init(port: Int, timeout: Double = 10) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
            var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(descriptor)
                throw Failure(description: "connect to 127.0.0.1:\(port): \(errno)")
            }
        }

        deinit { close(descriptor) }

        public func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == bytes.count else { throw Failure(description: "send: \(errno)") }
        }

        private func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: count == 0 ? "closed" : "recv timed out or failed: \(errno)") }
            buffer += chunk[..<count]
        }

        /// The response's status line and headers (up to the blank line).
        public func readHead() throws -> String {
            let end: [UInt8] = Array("\r\n\r\n".utf8)
            while true {
                if let range = buffer.firstRange(of: end) {
                    let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                    buffer.removeSubrange(..<range.upperBound)
                    return head
                }
                try fill()
            }
        }

        /// The next unmasked text frame a server sent (pings and other control frames skipped).
        public func readTextFrame() throws -> String {
            while true {
                while buffer.count < 2 { try fill() }
                let opcode = buffer[0] & 0x0F
                var length = Int(buffer[1] & 0x7F)
                var header = 2
                if length == 126 {
                    while buffer.count < 4 { try fill() }
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    header = 4
                } else if length == 127 {
                    while buffer.count < 10 { try fill() }
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    header = 10
                }
                while buffer.count < header + length { try fill() }
                let payload = Array(buffer[header..<(header + length)])
                buffer.removeSubrange(..<(header + length))
                if opcode == 0x1 { return String(decoding: payload, as: UTF8.self) }
                if opcode == 0x8 { throw Failure(description: "the server closed the WebSocket") }
            }
        }
    }

    /// Sends `request` on a new connection and returns the response's head.
    public static func exchange(port: Int, _ request: String) throws -> String {
        let connection = try Connection(port: port)
        try connection.send(request)
        return try connection.readHead()
    }
}
