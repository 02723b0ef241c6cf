// The daemon's network items: one HTTP client, one cache directory, one CacheEntry per URL. The engine
// asks it for a ByteSource when an item's URI is http(s); FFmpeg then reads the cached bytes through
// AVIOBridge and never sees the URL. Thread-safe: `entries` is guarded by `lock`: nothing else is locked or
// called out to under it but an entry's own (leaf) lock, to see whether it is idle (see
// Sources/queued/LockOrder.swift).
//
// An entry holds two file descriptors. A queue of thousands of URLs played in turn would keep one entry per
// URL ever played or downloaded, and run the daemon out of descriptors (1,024 under systemd by default): so
// past `openEntries`, the least recently used entries nobody holds and no transfer fills are closed. They
// open again from their files (the ranges log back from its last sync) on their next use.

import AsyncHTTPClient
import CacheControl
import Dispatch
import FoundationEssentials
import SystemSupport
import Glibc
import Logging
import Media
import NIOCore

public final class NetworkCache: NetworkCacheControl, @unchecked Sendable {
    public struct Settings: Sendable {
        /// Where the cached files live (created 0700 when missing).
        public var directory: String
        /// No byte for this long: the transfer is asked again from where it stopped, then the read fails.
        public var timeout: Double = 15
        /// A complete file is asked about again (a conditional HEAD) when played this long after the
        /// server last confirmed it.
        public var revalidateInterval: Double = 600
        /// Cached bytes beyond this evict unpinned entries, least recently used first (nil: no cap).
        public var sizeCap: Int64?
        /// Free space below this on the cache's file system evicts unpinned entries too.
        public var minimumFree: Int64 = 256 << 20
        /// Entries kept open (two descriptors each) beyond the ones in use; past it, the least recently used
        /// idle ones close.
        public var openEntries = 128
        public init(directory: String) { self.directory = directory }
    }

    public let settings: Settings
    private let client: HTTPClient
    private let logger: Logger
    private let lock = ThreadLock()
    /// Guarded. Entries opened so far, by URL.
    private var entries: [String: CacheEntry] = [:]
    /// Guarded. When each entry was last asked for (a counter, for closing the least recently used first).
    private var lastAsked: [String: UInt64] = [:]
    private var askCount: UInt64 = 0
    /// Guarded. New versions being downloaded beside the entry they will replace, by URL.
    private var successors: [String: CacheEntry] = [:]
    /// Guarded. Which URLs the queue uses and what it wants downloaded next (asked outside the lock), and
    /// the URLs asked for explicitly (`prefetch`), downloaded first, in order.
    private weak var planner: (any CachePlanner)?
    private var prefetchOrder: [String] = []
    private var prefetching: Set<String> = []
    /// Guarded. The digest each URL's file must have; URLs fetched again after a mismatch; URLs refused
    /// after a second one, with the reason.
    private var expectedDigests: [String: String] = [:]
    /// Guarded. Where `expectedDigests` comes from: the queued items' digests and `cache.fetch`'s (the
    /// queue's win; past 1,000 fetched URLs, only the latest call's are kept).
    private var queueDigests: [String: String] = [:]
    private var fetchDigests: [String: String] = [:]
    private var digestRefetches: Set<String> = []
    private var digestRefusals: [String: String] = [:]
    /// Guarded. Where news goes.
    private var observer: (@Sendable (String, CacheNews) -> Void)?
    static let maxPrefetches = 2

    public init(settings: Settings, logger: Logger) throws(MediaError) {
        self.settings = settings
        self.logger = logger
        do {
            try FileManager.default.createDirectory(
                atPath: settings.directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw MediaError(operation: "create the cache", path: settings.directory, message: "\(error)")
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,  // followed by CacheEntry: http(s) only, at most 5
            // The client retries a refused connection until its connect timeout: a few seconds, so that a dead
            // server fails its item before the engine takes the wait for a stall.
            timeout: .init(connect: .seconds(3), read: .seconds(Int64(settings.timeout))),
            decompression: .disabled)
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    public func source(for uri: String, limits: SourceLimits) throws(MediaError) -> ByteSource {
        let refusal = lock.withLock { () -> String? in
            // The item's own digest counts from its first open (the queue scan may come later).
            if let digest = limits.expectedSHA256, expectedDigests[uri] == nil { expectedDigests[uri] = digest }
            return digestRefusals[uri]
        }
        if let refusal { throw MediaError(operation: "open", path: uri, message: refusal) }
        let entry = try self.entry(for: uri)
        let (size, seekable, version) = try entry.open(limits: limits)
        entry.touch()
        entry.scrubOnce()
        if entry.isComplete {
            // A mismatch drops the file and fetches it again (once; a second one is refused above).
            guard matchesDigest(uri, entry) else { return try source(for: uri, limits: limits) }
            entry.revalidate(every: settings.revalidateInterval) { [weak self] in self?.fetchNewVersion(of: uri) }
        }
        return CachingByteSource(entry: entry, version: version, size: size, isSeekable: seekable, limits: limits)
    }

    /// The entry of `uri`, made on first use. Making one reads its files back (the ranges are verified
    /// against the data), so that happens outside the lock; a racing second one is dropped.
    private func entry(for uri: String) throws(MediaError) -> CacheEntry {
        let known = lock.withLock { () -> CacheEntry? in
            guard let entry = entries[uri] else { return nil }
            markAskedLocked(uri)
            return entry
        }
        if let known { return known }
        let made = try makeEntry(uri, key: CacheFiles.key(for: uri))
        return lock.withLock {
            markAskedLocked(uri)
            if let first = entries[uri] { return first }
            entries[uri] = made
            // Swept in batches, so that a sweep's sort is paid once per `openEntries / 4` new entries.
            if entries.count > settings.openEntries + max(settings.openEntries / 4, 1) { closeIdleEntriesLocked() }
            return made
        }
    }

    private func markAskedLocked(_ uri: String) {
        askCount += 1
        lastAsked[uri] = askCount
    }

    /// With `lock` held: closes the least recently asked entries until `openEntries` are left, passing over
    /// those in use. An entry referenced only from `entries` cannot be reached by anyone else (every
    /// reader, disk write and revalidation holds it strongly) and none can take it while `lock` is held; a
    /// transfer holds it weakly, so its state is asked too (its lock is a leaf). Dropping the last
    /// reference closes its files (`CacheFiles.deinit`); its bytes and ranges stay on disk.
    private func closeIdleEntriesLocked() {
        let oldestFirst = entries.keys.sorted { (lastAsked[$0] ?? 0) < (lastAsked[$1] ?? 0) }
        var excess = entries.count - settings.openEntries
        for uri in oldestFirst where excess > 0 {
            guard !prefetching.contains(uri), successors[uri] == nil,
                let index = entries.index(forKey: uri), isKnownUniquelyReferenced(&entries.values[index]),
                entries.values[index].hasNoTransfers
            else { continue }
            entries.remove(at: index)
            lastAsked[uri] = nil
            excess -= 1
        }
    }

    /// `successor`: a newer version downloading beside the cached one; its completion is told once its
    /// files replace the old ones (`promote`), not before.
    private func makeEntry(_ uri: String, key: String, successor: Bool = false) throws(MediaError) -> CacheEntry {
        let files = try CacheFiles(directory: settings.directory, key: key)
        let made = CacheEntry(url: uri, files: files, client: client, settings: settings, logger: logger)
        made.news = { [weak self, weak made] news in
            guard let self, let made, !(successor && news == .complete) else { return }
            guard news == .complete, lock.withLock({ expectedDigests[uri] != nil }) else { return tell(uri, news) }
            // Complete only once the digest its items carry matches (hashing is off the client's thread).
            // `made` is held for the hash: an idle entry the cache closed meanwhile would never tell.
            DispatchQueue.global().async {
                if self.matchesDigest(uri, made) { self.tell(uri, .complete) }
            }
        }
        made.onIdle = { [weak self] in self?.entryWentIdle(uri) }
        return made
    }

    private func tell(_ uri: String, _ news: CacheNews) {
        lock.withLock { observer }?(uri, news)
    }

    // MARK: NetworkCacheControl

    public func observe(_ observer: @escaping @Sendable (String, CacheNews) -> Void) {
        lock.withLock { self.observer = observer }
    }

    public func status(of uri: String) -> CacheStatus {
        // A URL with no entry and nothing on disk has no status to read: making its entry would open its files
        // and keep them open (a listing of a million URL items, page by page, ran the daemon out of file
        // descriptors at ~150 a second).
        let (known, refused) = lock.withLock { (entries[uri] != nil, digestRefusals[uri]) }
        if !known, access(settings.directory + "/" + CacheFiles.key(for: uri) + ".meta", F_OK) != 0 {
            return refused.map { CacheStatus(state: .error, error: $0) } ?? CacheStatus(state: .none)
        }
        guard let entry = try? entry(for: uri) else { return CacheStatus(state: .none) }
        var status = entry.status()
        let (refusal, expected) = lock.withLock { (digestRefusals[uri], expectedDigests[uri]) }
        if let refusal {
            status.state = .error
            status.error = refusal
        } else if let expected, status.state == .complete || status.state == .stale, entry.knownSHA256 != expected {
            status.state = .partial  // every byte is here, its digest not yet checked
        }
        return status
    }

    /// The SHA-256 (lowercase hex) each URL's file must have, from the queued items that carry one. A
    /// complete file is checked against it now, a downloading one when complete.
    public func expectDigests(_ digests: [String: String]) {
        lock.withLock { queueDigests = digests }
        updateExpectedDigests()
    }

    public func expectFetchDigests(_ uris: [String], _ digests: [String: String]) {
        lock.withLock {
            for uri in uris { fetchDigests[uri] = digests[uri] }
            if fetchDigests.count > 1000 { fetchDigests = fetchDigests.filter { digests[$0.key] != nil } }
        }
        updateExpectedDigests()
    }

    private func updateExpectedDigests() {
        let candidates = lock.withLock { () -> [(String, CacheEntry)] in
            let digests = fetchDigests.merging(queueDigests) { _, queued in queued }
            let changed = Set(expectedDigests.keys).union(digests.keys).filter { expectedDigests[$0] != digests[$0] }
            for uri in changed {
                digestRefetches.remove(uri)
                digestRefusals[uri] = nil
            }
            expectedDigests = digests
            return changed.compactMap { uri in digests[uri] == nil ? nil : entries[uri].map { (uri, $0) } }
        }
        // Asked outside the cache's lock: an entry's lock is never taken under it (Sources/queued/LockOrder.swift).
        let changed = candidates.filter { $0.1.isComplete }.map(\.0)
        guard !changed.isEmpty else { return }
        DispatchQueue.global().async { [self] in
            for uri in changed {
                if let entry = lock.withLock({ entries[uri] }) { _ = matchesDigest(uri, entry) }
            }
        }
    }

    /// Whether complete `entry` has the digest `uri`'s items expect (true when none does). A mismatch
    /// evicts it and fetches it again, once; after a second, the URL is refused until its items'
    /// digest changes or it is evicted by hand. Reads the whole file the first time: not on the
    /// client's threads.
    private func matchesDigest(_ uri: String, _ entry: CacheEntry) -> Bool {
        guard let expected = lock.withLock({ expectedDigests[uri] }), let actual = entry.sha256(),
            actual != expected
        else { return true }
        let again = lock.withLock { digestRefetches.insert(uri).inserted }
        let reason = "sha256 mismatch: the item expects \(expected), the server sent \(actual)"
        logger.warning("cache: \(reason)\(again ? "; fetching it again" : "")", metadata: ["url": "\(uri)"])
        if !again { lock.withLock { digestRefusals[uri] = reason } }
        drop(uri, rejection: reason)
        if again {
            tell(uri, .error(reason: reason + "; fetching it again", retryIn: 0))
            prefetch([uri])
        } else {
            tell(uri, .error(reason: reason, retryIn: nil))
        }
        return false
    }

    public func plan(with planner: any CachePlanner) {
        lock.withLock { self.planner = planner }
    }

    public func prefetchPlanned() {
        // Off the caller's thread: the planner may hand out many URLs already complete before one to fetch.
        DispatchQueue.global().async { [weak self] in self?.pumpPrefetches() }
    }

    private func isPinned(_ url: String, by planner: (any CachePlanner)?) -> Bool {
        planner?.isPinned(url) ?? false
    }

    public func prefetch(_ uris: [String]) {
        lock.withLock {
            // These first, then what was waiting already.
            var seen = Set<String>()
            prefetchOrder = (uris + prefetchOrder).filter { seen.insert($0).inserted && !prefetching.contains($0) }
        }
        pumpPrefetches()
    }

    public func revalidate(_ uris: [String]?) {
        let chosen: [(String, CacheEntry)]
        if let uris {
            chosen = uris.compactMap { uri in (try? entry(for: uri)).map { (uri, $0) } }
        } else {
            chosen = lock.withLock { entries.map { ($0.key, $0.value) } }
        }
        for (uri, entry) in chosen {
            entry.revalidate(every: nil) { [weak self] in self?.fetchNewVersion(of: uri) }
        }
    }

    public func evict(_ uris: [String]) {
        for uri in uris {
            // By hand: a URL refused for its digest gets another chance.
            lock.withLock {
                digestRefusals[uri] = nil
                digestRefetches.remove(uri)
            }
            drop(uri)
            logger.info("cache: evicted", metadata: ["url": "\(uri)"])
        }
    }

    /// Deletes `uri`'s files and forgets its entry (the next use starts afresh). `rejection`: its bytes
    /// are wrong; plays reading them fail with this reason.
    private func drop(_ uri: String, rejection: String? = nil) {
        let (entry, successor) = lock.withLock {
            prefetching.remove(uri)
            lastAsked[uri] = nil
            return (entries.removeValue(forKey: uri), successors.removeValue(forKey: uri))
        }
        successor?.retire(removeFiles: true)
        if let entry {
            entry.retire(removeFiles: true, rejection: rejection)
        } else {
            Self.removeFiles(key: CacheFiles.key(for: uri), in: settings.directory)
        }
    }

    public func usage() -> CacheUsage {
        let stored = storedEntries()
        let planner = lock.withLock { self.planner }
        return CacheUsage(
            bytes: stored.reduce(0) { $0 + $1.bytes }, cap: settings.sizeCap, free: freeBytes(),
            pinned: stored.filter { isPinned($0.url, by: planner) }.reduce(0) { $0 + $1.bytes })
    }

    // MARK: Prefetch, new versions, eviction

    /// Starts background downloads, two at a time: the URLs of `prefetchOrder` first, then the planner's.
    private func pumpPrefetches() {
        while true {
            enum Next { case start(String), ask(any CachePlanner), done }
            let next: Next = lock.withLock {
                prefetchOrder.removeAll { digestRefusals[$0] != nil }  // what was refused stays unfetched
                guard prefetching.count < Self.maxPrefetches else { return .done }
                guard !prefetchOrder.isEmpty else { return planner.map(Next.ask) ?? .done }
                let uri = prefetchOrder.removeFirst()
                prefetching.insert(uri)
                return .start(uri)
            }
            let uri: String
            switch next {
            case .done: return
            case .start(let explicit): uri = explicit
            case .ask(let planner):
                // Asked outside the lock (the planner has its own); a URL already refused or downloading is
                // passed over.
                guard let planned = planner.nextPrefetch() else { return }
                let taken = lock.withLock { () -> Bool in
                    guard digestRefusals[planned] == nil, !prefetching.contains(planned) else { return false }
                    // Another pump took the last free transfer meanwhile: this one goes first next time.
                    guard prefetching.count < Self.maxPrefetches else {
                        prefetchOrder.insert(planned, at: 0)
                        return false
                    }
                    prefetching.insert(planned)
                    return true
                }
                guard taken else { continue }
                uri = planned
            }
            let started = (try? entry(for: uri))?.fillInBackground() ?? false
            if !started { lock.withLock { _ = prefetching.remove(uri) } }
        }
    }

    private func entryWentIdle(_ uri: String) {
        let successor = lock.withLock { () -> CacheEntry? in
            prefetching.remove(uri)
            return successors[uri]
        }
        if let successor, successor.isComplete { promote(successor, for: uri) }
        pumpPrefetches()
        // Not on this entry's disk queue (where idleness is often told): eviction waits for the evicted
        // entry's disk queue, and two disk queues must never wait for each other.
        DispatchQueue.global().async { [weak self] in self?.trimToLimits() }
    }

    /// The server has a newer version of `uri`: download it beside the cached one (`<key>.next.*`), which
    /// keeps playing until the new one is complete.
    private func fetchNewVersion(of uri: String) {
        let existing = lock.withLock { successors[uri] }
        guard existing == nil, let current = lock.withLock({ entries[uri] }) else { return }
        guard let successor = try? makeEntry(uri, key: CacheFiles.key(for: uri) + ".next", successor: true) else {
            return
        }
        lock.withLock { successors[uri] = successor }
        current.markSuperseded()
        if !successor.fillInBackground(), successor.isComplete { promote(successor, for: uri) }
    }

    /// The new version is complete: its files take the old one's names and it serves the next plays.
    private func promote(_ successor: CacheEntry, for uri: String) {
        guard lock.withLock({ successors[uri] === successor }) else { return }
        successor.promote(to: CacheFiles.key(for: uri), in: settings.directory) { [weak self] promoted in
            guard let self else { return }
            let old = self.lock.withLock { () -> CacheEntry? in
                self.successors[uri] = nil
                guard promoted else { return nil }
                defer { self.entries[uri] = successor }
                return self.entries[uri]
            }
            old?.retire(removeFiles: false)
            if promoted {
                self.logger.info(
                    "cache: the new version replaces the old from the next play", metadata: ["url": "\(uri)"])
                self.tell(uri, .complete)
            }
        }
    }

    /// One stored entry as the directory holds it.
    struct StoredEntry {
        var url: String
        var key: String
        var bytes: Int64
        var lastUsed: Double
    }

    func storedEntries() -> [StoredEntry] {
        let directory = settings.directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".meta") }.compactMap { name -> StoredEntry? in
            let key = String(name.dropLast(".meta".count))
            guard let bytes = FileManager.default.contents(atPath: directory + "/" + name),
                let meta = try? JSONDecoder().decode(CacheMeta.self, from: bytes)
            else { return nil }
            var info = stat()
            var used = 0.0
            if stat(directory + "/" + name, &info) == 0 { used = Double(info.st_mtim.tv_sec) }
            var data = stat()
            let size = stat(directory + "/" + key + ".data", &data) == 0 ? Int64(data.st_blocks) * 512 : 0
            return StoredEntry(url: meta.url, key: key, bytes: size, lastUsed: used)
        }
    }

    private func freeBytes() -> Int64 {
        var info = statvfs()
        guard statvfs(settings.directory, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Evicts unpinned entries, least recently used first, while the cache is over its cap or the disk
    /// under its free-space floor. Pinned entries stay even over the cap (the queue needs them).
    func trimToLimits() {
        var free = freeBytes()
        // Without a cap, the directory is only read when the disk runs low (this runs after each download).
        if settings.sizeCap == nil && free >= settings.minimumFree { return }
        var stored = storedEntries()
        var total = stored.reduce(0) { $0 + $1.bytes }
        func over() -> Bool { (settings.sizeCap.map { total > $0 } ?? false) || free < settings.minimumFree }
        guard over() else { return }
        let (planner, busy) = lock.withLock { (self.planner, self.prefetching) }
        stored.sort { $0.lastUsed < $1.lastUsed }
        for candidate in stored where over() && !busy.contains(candidate.url) && !isPinned(candidate.url, by: planner) {
            if candidate.key.hasSuffix(".next") { continue }
            drop(candidate.url)
            logger.info("cache: evicted to make room", metadata: ["url": "\(candidate.url)"])
            total -= candidate.bytes
            free += candidate.bytes
        }
    }

    static func removeFiles(key: String, in directory: String) {
        for suffix in [".meta", ".ranges", ".data"] { unlink(directory + "/" + key + suffix) }
    }
}

/// One play's view of a cached URL: a position, reads that wait for the bytes.
final class CachingByteSource: ByteSource {
    private let entry: CacheEntry
    /// The version of the file this play reads (see `CacheEntry.version`).
    private let version: Int
    let size: Int64?
    let isSeekable: Bool
    private let limits: SourceLimits
    private var position: Int64 = 0

    init(entry: CacheEntry, version: Int, size: Int64?, isSeekable: Bool, limits: SourceLimits) {
        self.entry = entry
        self.version = version
        self.size = size
        self.isSeekable = isSeekable
        self.limits = limits
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let available = try entry.waitForBytes(at: position, of: version, limits: limits)
        guard available > 0 else { return 0 }
        let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, Int(available))])
        let count = try entry.read(into: wanted, at: position)
        position += Int64(count)
        return count
    }

    func seek(to offset: Int64) throws(MediaError) {
        position = offset
    }
}
