// Local files and FIFOs, read with plain POSIX calls. A regular file is read and seeked directly. A FIFO
// (a live feed, a test's stalled source) is opened without blocking and every read waits in poll(2) with
// a deadline, in slices short enough to notice a cancellation: a writer that never comes or stops writing
// fails the item with a clear message instead of holding the decode thread forever. (A read of a regular
// file on a hung mount blocks in the kernel and cannot be bounded here; the engine's stall detector
// replaces the decode thread instead.)

import Glibc
import SystemClock

public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    public let path: String
    public let size: Int64?
    public let isSeekable: Bool
    private let limits: SourceLimits
    /// Decode thread only: whether any byte arrived yet (the first wait is the open timeout).
    private var receivedAny = false

    public init(path: String, limits: SourceLimits = SourceLimits()) throws(MediaError) {
        self.path = path
        self.limits = limits
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw MediaError(code: -errno, operation: "open", path: path, message: String(cString: strerror(errno)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else {
            throw MediaError(operation: "open", path: path, message: "not a regular file or a FIFO")
        }
        isSeekable = kind == S_IFREG
        // O_NONBLOCK: opening a FIFO's read end would otherwise wait for a writer without any limit.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (isSeekable ? 0 : O_NONBLOCK))
        guard fd >= 0 else {
            throw MediaError(code: -errno, operation: "open", path: path, message: String(cString: strerror(errno)))
        }
        descriptor = fd
        size = isSeekable ? Int64(info.st_size) : nil
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        if !isSeekable { try waitUntilReadable() }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 { receivedAny = true }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == EAGAIN {  // poll said readable, another reader took it: wait again
                try waitUntilReadable()
                continue
            }
            throw MediaError(code: -errno, operation: "read", path: path, message: String(cString: strerror(errno)))
        }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        guard isSeekable else {
            throw MediaError(code: -ESPIPE, operation: "seek", path: path, message: "a FIFO cannot seek")
        }
        if lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            throw MediaError(code: -errno, operation: "seek", path: path, message: String(cString: strerror(errno)))
        }
    }

    /// Waits until the FIFO has bytes or its writer has gone (read then returns 0: the end), within the
    /// open or read timeout. Before any writer connects Linux reports nothing, so this waits for one.
    private func waitUntilReadable() throws(MediaError) {
        let limit = receivedAny ? limits.readTimeout : limits.openTimeout
        let deadline = Monotonic.now() + limit
        while true {
            if limits.isCancelled?() == true {
                throw MediaError(code: -EINTR, operation: "read", path: path, message: "interrupted")
            }
            let left = deadline - Monotonic.now()
            if left <= 0 {
                let seconds = (limit * 10).rounded() / 10
                throw MediaError(
                    code: -ETIMEDOUT, operation: "read", path: path,
                    message: receivedAny
                        ? "stalled: no data for \(seconds) s"
                        : "stalled: nothing written into the FIFO within \(seconds) s")
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(min(left, 0.2) * 1000) + 1)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw MediaError(code: -errno, operation: "poll", path: path, message: String(cString: strerror(errno)))
            }
        }
    }
}
