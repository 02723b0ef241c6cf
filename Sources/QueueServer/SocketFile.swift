// The socket file's life: its directory (created 0700), a stale file from a dead daemon (removed) versus
// a live daemon (refused, with a clear message), and the file's mode once bound (0600, or 0660 when a
// group is allowed).

import Glibc

public struct SocketFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

enum SocketFile {
    /// Makes `path` ready to bind: parent directory present (0700 when we create it or it is ours to
    /// own), no live daemon there, a stale socket removed.
    static func prepare(_ path: String, ownsDirectory: Bool) throws(SocketFileError) {
        guard path.utf8.count < 108 else {
            throw SocketFileError(
                description: "socket path is too long for a Unix socket (\(path.utf8.count) bytes, max 107): \(path)")
        }
        let directory = parent(of: path)
        if !directory.isEmpty {
            try makeDirectory(directory, restrict: ownsDirectory)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw SocketFileError(
                description: "\(path) exists and is not a socket; remove it or choose another path with --socket")
        }
        if isLive(path) {
            throw SocketFileError(
                description:
                    "queued is already running at \(path) (stop it first, or use --socket for a second instance)")
        }
        unlink(path)
    }

    /// Sets the socket's mode after bind: owner only, or owner and `group`.
    static func restrict(_ path: String, group: gid_t?) throws(SocketFileError) {
        if let group, chown(path, getuid(), group) != 0 {
            throw SocketFileError(
                description: "cannot give \(path) to group \(group): \(String(cString: strerror(errno)))")
        }
        if chmod(path, group == nil ? 0o600 : 0o660) != 0 {
            throw SocketFileError(description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether a daemon answers on `path`.
    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    private static func makeDirectory(_ directory: String, restrict: Bool) throws(SocketFileError) {
        var info = stat()
        if stat(directory, &info) != 0 {
            try makeDirectory(parent(of: directory), restrict: false)
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw SocketFileError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
            }
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw SocketFileError(description: "\(directory) is not a directory")
        }
        if restrict && chmod(directory, 0o700) != 0 {
            throw SocketFileError(
                description: "cannot restrict \(directory) to its owner: \(String(cString: strerror(errno)))")
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
