// The connected Unix stream socket under QueueClient: owns the file descriptor (closed in deinit) and
// turns every failing system call into a ClientError. Blocking, with poll(2) bounding each wait, so a
// hung daemon costs a timeout instead of a hung queuectl. No Swift concurrency here: it is a plain
// blocking object for one thread at a time.

import Glibc

final class UnixSocket {
    private var fd: Int32
    let path: String

    /// Connects to `path`. A missing socket file or a refused connection means no daemon listens there.
    init(connectingTo path: String) throws(ClientError) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !pathBytes.isEmpty, pathBytes.count < capacity else {
            throw .io("socket path is empty or longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .io("socket(): \(UnixSocket.errnoText())") }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let code = errno
            Glibc.close(descriptor)
            switch code {
            case ENOENT, ECONNREFUSED, ENOTDIR: throw .notRunning(path: path)
            default: throw .io("cannot connect to \(path): \(String(cString: strerror(code)))")
            }
        }
        fd = descriptor
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Writes all of `bytes`. MSG_NOSIGNAL: a daemon that went away must give EPIPE, not kill us with SIGPIPE.
    func send(_ bytes: [UInt8], deadline: Deadline) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            try wait(for: Int16(POLLOUT), deadline: deadline)
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(
                    fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset,
                    Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                throw .io("lost the connection to queued at \(path): \(UnixSocket.errnoText())")
            }
            offset += written
        }
    }

    /// Reads what is available (up to 64 KiB) once the socket is readable; nil at end of stream.
    func receive(deadline: Deadline) throws(ClientError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            try wait(for: Int16(POLLIN), deadline: deadline)
            let count = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { return nil }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            if errno == ECONNRESET { return nil }
            throw .io("lost the connection to queued at \(path): \(UnixSocket.errnoText())")
        }
    }

    /// Blocks until `events` are ready (or the peer hung up: the read/write then reports it).
    private func wait(for events: Int16, deadline: Deadline) throws(ClientError) {
        guard fd >= 0 else { throw .io("connection to queued is closed") }
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return }
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { throw .io("poll(): \(UnixSocket.errnoText())") }
            // ready == 0: the deadline passed (a deadline-free poll never returns 0).
            throw .timeout(deadline.seconds ?? 0)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
