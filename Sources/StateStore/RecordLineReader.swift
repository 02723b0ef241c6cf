// Reads a state file's framed lines one at a time, 1 MiB at a time, so a restore never holds the file
// whole (a million-entry snapshot is ~170 MB): what is in memory is one buffer and the compact queue being
// rebuilt. A read error ends the lines there, as a cut-short file does (what was read is a prefix).

import FoundationEssentials
import SystemSupport
import Glibc

final class RecordLineReader {
    static let chunkSize = 1 << 20
    private let descriptor: Int32
    /// Bytes read and not yet handed out, from `start`; `scanned`: where the search for "\n" resumes.
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var ended = false
    /// After the last line: whether a piece with no "\n" followed it (a torn write).
    private(set) var unterminated = false

    /// nil when the file cannot be opened (it does not exist).
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// The next complete line without its "\n", or nil at the end.
    func next() -> Data? { withNextLine { Data($0) } }

    /// Lends the next complete line without its "\n" to `body` (the bytes are valid only inside it, and
    /// are not copied: a restore reads a million lines), or returns nil at the end. A buffer pointer, not
    /// an ArraySlice of `buffer`: the slice's retain and checks cost a million-item restore ~0.1-0.2 s.
    func withNextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        while true {
            let scanned = self.scanned
            let newline: Int? = buffer.withUnsafeBufferPointer { all in
                guard scanned < all.count, let base = all.baseAddress,
                    let hit = memchr(base + scanned, 0x0A, all.count - scanned)
                else { return nil }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            }
            if let newline {
                let first = start
                start = newline + 1
                self.scanned = start
                return try buffer.withUnsafeBufferPointer { all in
                    try body(UnsafeBufferPointer(rebasing: all[first..<newline]))
                }
            }
            self.scanned = buffer.count
            if ended {
                unterminated = start < buffer.count
                return nil
            }
            refill()
        }
    }

    /// Drops what was handed out and appends up to `chunkSize` bytes from the file.
    private func refill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let before = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        var got = -1
        repeat {
            got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + before, Self.chunkSize) }
        } while got < 0 && errno == EINTR
        buffer.removeSubrange((before + max(got, 0))...)
        if got <= 0 { ended = true }
    }
}
