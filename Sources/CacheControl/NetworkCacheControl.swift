// What the control layer may ask of the network cache (NetCache implements it; the server and the engine
// see only this, so neither depends on the HTTP client): how much of a URL is on disk, prefetching,
// revalidation, eviction, usage, which URLs are pinned by the queue, and news to pass on as events. A
// module of its own, above Media (a cache is a ByteSourceProvider) and below the engine: Media itself
// knows nothing of caches.

import Media

/// How much of one URL's file is on disk.
public struct CacheStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Nothing cached yet.
        case none
        /// Some bytes, not all (downloading, or stopped part way).
        case partial
        /// Every byte up to the declared length: plays with no network.
        case complete
        /// Complete, but the server has a newer version (fetched in the background, used from the next play).
        case stale
        /// The last transfer failed (see `error`).
        case error
    }
    public var state: State
    public var bytes: Int64
    /// The file's length, once the server declared it.
    public var length: Int64?
    public var error: String?
    public init(state: State, bytes: Int64 = 0, length: Int64? = nil, error: String? = nil) {
        self.state = state
        self.bytes = bytes
        self.length = length
        self.error = error
    }
}

/// The cache directory as a whole.
public struct CacheUsage: Sendable, Equatable {
    /// Bytes cached (data on disk).
    public var bytes: Int64
    /// The size cap (nil: none).
    public var cap: Int64?
    /// Free bytes on the cache's file system.
    public var free: Int64
    /// Bytes held by entries that queued items pin.
    public var pinned: Int64
    public init(bytes: Int64, cap: Int64?, free: Int64, pinned: Int64) {
        self.bytes = bytes
        self.cap = cap
        self.free = free
        self.pinned = pinned
    }
}

/// Something a client may want to hear about a URL's download.
public enum CacheNews: Sendable, Equatable {
    /// Bytes on disk now, the length when known, the download rate in bytes/s (at most 4 a second).
    case progress(bytes: Int64, length: Int64?, rate: Double)
    case complete
    /// A transfer failed; `retryIn`: seconds until it is tried again (nil: not on its own).
    case error(reason: String, retryIn: Double?)
}

public protocol NetworkCacheControl: ByteSourceProvider {
    func status(of uri: String) -> CacheStatus
    /// Starts downloading these URLs in the background (at most two transfers at once, in order).
    func prefetch(_ uris: [String])
    /// The digests files fetched for a caller (`cache.fetch`) must have, beside the queued items' own
    /// (which win): each of `uris` gets its entry in `digests`, or none.
    func expectFetchDigests(_ uris: [String], _ digests: [String: String])
    /// Asks the server whether these complete files changed (nil: every complete entry); a changed one is
    /// fetched in the background and used from its next play.
    func revalidate(_ uris: [String]?)
    /// Drops these URLs' cached bytes (an entry being played is dropped once its play ends).
    func evict(_ uris: [String])
    func usage() -> CacheUsage
    /// Who says which URLs the queue uses and what to download next (held weakly). Set once, before the
    /// first item plays.
    func plan(with planner: any CachePlanner)
    /// The planner has something new to download: start it if a transfer is free.
    func prefetchPlanned()
    /// Where news goes (set once, before the first item plays). Called on the cache's threads.
    func observe(_ observer: @escaping @Sendable (String, CacheNews) -> Void)
}

/// What the queue wants of the cache, asked when the cache needs it instead of handed over as lists (a
/// million URLs would be a million Strings held twice). Called on the cache's threads, never under its lock.
public protocol CachePlanner: AnyObject, Sendable {
    /// Whether a queued item uses `url`: its bytes are never evicted to make room.
    func isPinned(_ url: String) -> Bool
    /// The next URL to download ahead once the ones asked for explicitly are under way (nil: none now).
    /// Each is handed out once per walk of the queue; the cache skips one it holds complete.
    func nextPrefetch() -> String?
}

/// A URL as a number for indexes of a million (the queue's items by URL): its bytes hashed, stable for the
/// life of the process (never stored). A match is checked against the URL itself where it matters.
public enum URLKey {
    public static func of(_ url: String) -> Int {
        var hasher = Hasher()
        hasher.combine(url.utf8.count)
        for byte in url.utf8 { hasher.combine(byte) }
        return hasher.finalize()
    }
}
