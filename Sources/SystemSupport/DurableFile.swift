// A small file replaced whole so that a crash or a power cut leaves the old contents or the new, never a
// part: written beside it, synced, renamed over it, its directory synced. For files of a few kilobytes that
// are rewritten now and then (the layout, the alerts), not for journals.

import Glibc

public enum DurableFile {
    /// Replaces `path` with `bytes` (mode 0600). Throws with the reason when it cannot.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(DurableFileError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFileError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw DurableFileError("cannot write \(path)")
        }
        syncDirectory(of: path)
    }

    /// Removes `path` (already gone is fine) and syncs its directory.
    public static func remove(_ path: String) throws(DurableFileError) {
        if unlink(path) != 0 && errno != ENOENT { throw DurableFileError("cannot remove \(path): \(String(cString: strerror(errno)))") }
        syncDirectory(of: path)
    }

    /// The rename or unlink is durable only once the directory holding it is synced.
    private static func syncDirectory(of path: String) {
        let directory = open(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}

public struct DurableFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
