// A file descriptor for the state files, owned (closed in deinit), with the two writes the store needs:
// all of a buffer (write(2) may write less), and fdatasync. Foundation's FileHandle would do the writing
// but not fdatasync, and its errors are less precise about which call failed.

import FoundationEssentials
import SystemSupport
import Glibc

public enum StateStoreError: Error, CustomStringConvertible, Equatable {
    case io(String, Int32)
    /// Another daemon holds the state directory's lock.
    case locked(directory: String, pid: String)

    public var description: String {
        switch self {
        case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .locked(let directory, let pid):
            "another queued (pid \(pid)) is using the state directory \(directory); give this one --state-dir or --no-state"
        }
    }
}

final class StateFile {
    /// -1 once closed. Owned by whoever holds the StateFile (one thread at a time).
    private(set) var descriptor: Int32
    let path: String

    /// Opens for appending (creating it 0600); `truncate` empties it first.
    init(creating path: String, truncate: Bool = false) throws(StateStoreError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0o600)
        guard descriptor >= 0 else { throw .io("open \(path)", errno) }
    }

    deinit { close() }

    func write(_ data: Data) throws(StateStoreError) {
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw .io("write \(path)", failure) }
    }

    /// The file's data on the disk (not its size or times: fdatasync, as a journal needs).
    func syncData() throws(StateStoreError) {
        guard fdatasync(descriptor) == 0 else { throw .io("fdatasync \(path)", errno) }
    }

    /// Data and metadata on the disk (for a file about to be renamed into place).
    func sync() throws(StateStoreError) {
        guard fsync(descriptor) == 0 else { throw .io("fsync \(path)", errno) }
    }

    /// Drops an unfinished last line (one a crash cut short: never acknowledged), so that what is
    /// appended next starts a line of its own. Returns the bytes kept.
    func dropUnfinishedLine() throws(StateStoreError) -> Int {
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0 else { throw .io("lseek \(path)", errno) }
        let reader = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { throw .io("open \(path)", errno) }
        defer { Glibc.close(reader) }
        var end = Int(size)
        var block = [UInt8](repeating: 0, count: 1 << 16)
        // Backwards from the end to the last newline; a whole file without one is one unfinished line.
        var kept = 0
        search: while end > 0 {
            let start = max(0, end - block.count)
            let count = block.withUnsafeMutableBytes { pread(reader, $0.baseAddress, end - start, off_t(start)) }
            guard count == end - start else { throw .io("read \(path)", errno) }
            for index in stride(from: count - 1, through: 0, by: -1) where block[index] == UInt8(ascii: "\n") {
                kept = start + index + 1
                break search
            }
            end = start
        }
        if kept < Int(size) {
            guard ftruncate(descriptor, off_t(kept)) == 0 else { throw .io("ftruncate \(path)", errno) }
            try syncData()
        }
        return kept
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
