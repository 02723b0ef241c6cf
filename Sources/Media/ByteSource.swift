// Where a media file's bytes come from. FFmpeg reads through this (see AVIOBridge) instead of opening
// paths itself, so cached network sources can be added later without touching the engine, and so FFmpeg's
// own protocols (concat:, pipe:, …) are never reachable from a queue item.
import Glibc

public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the data. Called on the decode thread.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int
    /// Moves to an absolute byte offset.
    func seek(to offset: Int64) throws(MediaError)
    /// Total size in bytes, when known.
    var size: Int64? { get }
}

/// A local file, read with plain POSIX calls.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    public let path: String
    public let size: Int64?

    public init(path: String) throws(MediaError) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw MediaError(code: -errno, operation: "open", path: path, message: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw MediaError(operation: "open", path: path, message: "not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MediaError(code: -errno, operation: "open", path: path, message: String(cString: strerror(errno)))
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw MediaError(code: -errno, operation: "read", path: path, message: String(cString: strerror(errno)))
        }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        if lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            throw MediaError(code: -errno, operation: "seek", path: path, message: String(cString: strerror(errno)))
        }
    }
}
