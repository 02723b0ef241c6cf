// Newline framing for a byte stream: fed whatever a socket read returned, hands back complete lines for
// RPCLine / RPCClientInbound. Its memory is bounded by `limit` whatever the peer sends: an over-long line
// is counted, not buffered.

/// Splits a byte stream into lines of at most `limit` bytes (the "\n" not counted).
///
/// A line over the limit is reported once, as `.oversized` with its full length, when its newline arrives;
/// its bytes are dropped as they come, and framing carries on after the newline. A trailing "\r" is kept:
/// it is JSON whitespace, so a CRLF peer still parses.
public struct LineFramer: Sendable {
    public enum Piece: Sendable, Equatable {
        /// A complete line, without its "\n".
        case line([UInt8])
        /// A line of `byteCount` bytes (without "\n") that was over the limit and has been skipped.
        case oversized(byteCount: Int)
    }

    public let limit: Int
    /// The start of the current line, while it is within the limit.
    private var buffer: [UInt8] = []
    /// Length so far of the current line once it is over the limit (and `buffer` has been dropped).
    private var oversizedCount: Int?

    public init(limit: Int = 1 << 20) {
        precondition(limit > 0, "a line limit must be positive")
        self.limit = limit
    }

    /// Bytes of an unfinished line held or counted so far.
    public var pendingByteCount: Int { oversizedCount ?? buffer.count }

    /// Feeds bytes; returns the lines (and skipped over-long lines) they completed, in order.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [Piece] where Bytes.Element == UInt8 {
        if let pieces = bytes.withContiguousStorageIfAvailable({ append(contiguous: $0) }) {
            return pieces
        }
        return Array(bytes).withUnsafeBufferPointer { append(contiguous: $0) }
    }

    /// The unfinished line at the end of the stream, if any: a peer that closes without a final "\n" still
    /// had its last line read. Resets the framer.
    public mutating func finish() -> Piece? {
        defer {
            buffer = []
            oversizedCount = nil
        }
        if let oversizedCount { return .oversized(byteCount: oversizedCount) }
        return buffer.isEmpty ? nil : .line(buffer)
    }

    private mutating func append(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                take(UnsafeBufferPointer(rebasing: bytes[start...]))
                break
            }
            take(UnsafeBufferPointer(rebasing: bytes[start..<newline]))
            if let oversizedCount {
                pieces.append(.oversized(byteCount: oversizedCount))
                self.oversizedCount = nil
            } else {
                pieces.append(.line(buffer))
                // A fresh buffer rather than removeAll(keepingCapacity:): the line just handed out shares
                // this storage, and reusing it would copy it anyway.
                buffer = []
            }
            start = newline + 1
        }
        return pieces
    }

    /// Adds part of the current line, switching to counting once the line passes the limit.
    private mutating func take(_ part: UnsafeBufferPointer<UInt8>) {
        if let count = oversizedCount {
            oversizedCount = count + part.count
        } else if buffer.count + part.count > limit {
            oversizedCount = buffer.count + part.count
            buffer = []
        } else {
            buffer.append(contentsOf: part)
        }
    }
}
