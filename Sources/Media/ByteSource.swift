// Where a media file's bytes come from. FFmpeg reads through this (see AVIOBridge) instead of opening
// paths itself, so cached network sources can be added later without touching the engine, and so FFmpeg's
// own protocols (concat:, pipe:, …) are never reachable from a queue item.

import Glibc
import MediaPaths

public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the data. Called on the decode thread.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int
    /// Moves to an absolute byte offset.
    func seek(to offset: Int64) throws(MediaError)
    /// Total size in bytes, when known.
    var size: Int64? { get }
    /// Whether `seek` works (false for a pipe: FFmpeg then reads straight through).
    var isSeekable: Bool { get }
}

extension ByteSource {
    public var isSeekable: Bool { true }
}

/// Whether `uri` is an http(s) URL of a file: an item whose bytes come from a ByteSourceProvider (the
/// cache), not a local file and not a stream (HLS and DASH are http(s) too, but FFmpeg reads them itself and
/// nothing of them is cached). The one test the server, the engine and the daemon's cache share.
public func isNetworkURI(_ uri: String) -> Bool {
    let scheme = uri.prefix(8).lowercased()
    guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://") else { return false }
    return StreamKind(uri: uri) == nil
}

/// Makes the ByteSource of a URI that is not a local file (the daemon's network cache).
public protocol ByteSourceProvider: AnyObject, Sendable {
    /// A source reading `uri` from its start; throws when it cannot be opened (unreachable, refused).
    func source(for uri: String, limits: SourceLimits) throws(MediaError) -> ByteSource
}

/// How long a source may keep a reader waiting, and how it learns that nobody wants the bytes any more.
public struct SourceLimits: Sendable {
    /// Longest wait for the first byte (a FIFO nobody writes into).
    public var openTimeout: Double = 5
    /// Longest wait for more bytes once some arrived (a writer that stopped).
    public var readTimeout: Double = 5
    /// Polled while waiting (a few times a second); true ends the wait with an "interrupted" error.
    public var isCancelled: (@Sendable () -> Bool)?
    /// Told, every few tenths of a second, that a read is waiting for bytes that have not arrived yet
    /// (true), and once when that wait ends (false): the engine's `buffering`.
    public var onWaiting: (@Sendable (Bool) -> Void)?
    /// Network items: the SHA-256 (lowercase hex) the item says its file has; the cache holds the file
    /// to it.
    public var expectedSHA256: String?
    /// Streams (StreamKind): told when the stream drops (with why) and when it plays again (after how
    /// many seconds), on the decode thread, while the play's reader waits to reconnect.
    public var onStreamNews: (@Sendable (StreamNews) -> Void)?
    public init() {}
}

/// What a stream's reader tells while it plays (SourceLimits.onStreamNews).
public enum StreamNews: Sendable, Equatable {
    /// It dropped or stalled: the reader reconnects, with backoff, within the item's time.
    case stalled(reason: String)
    /// It plays again after `after` seconds without data.
    case resumed(after: Double)
    /// Every 2 s while it delivers: bits per second of its packets.
    case figures(bitrate: Int)
    /// Every 2 s of a live stream, from the decode thread: seconds received and not yet heard (smoothed),
    /// and the pace it plays at (1: its own; DriftCorrector).
    case latency(Double, pace: Double)
    /// A live stream's pace changed: the smoothed latency left its band around `target` (faster when above,
    /// slower when below), or came back to the target (1).
    case paced(Double, latency: Double, target: Double)
}
