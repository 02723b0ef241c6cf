// Keeps the network cache in step with the queue: which URLs queued items use (pinned: never evicted),
// which to download ahead (--prefetch; by default the whole queue, so a signage loop can go offline), the
// digests items expect, and which items a URL's news is about (the cache knows URLs, clients know ids).
// Each look at the queue reads only what changed since the last (`QueueEntries.difference`): an edit to a
// queue of a million URLs costs what it touched, and the cache asks for downloads one at a time
// (`CachePlanner`) instead of holding a list of a million URLs. Looks run on this object's `work` queue,
// at most ten a second, off the engine's and the server's threads.

import CacheControl
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Media
import NetCache
import Playback
import QueueModel
import SystemClock

final class NetworkItems: CachePlanner, @unchecked Sendable {
    private let cache: NetworkCache
    /// Where the cache's news goes, per item using the URL.
    private let publish: @Sendable (ItemID, CacheNews) -> Void
    private let work = DispatchQueue(label: "queued.network-items")
    /// Set once, before the first `queueChanged`.
    private weak var engine: PlayerEngine?
    /// A look at most this often (seconds): a flood of edits is read in batches.
    private static let lookInterval = 0.1

    /// Guarded by `lock` (a leaf: nothing is called under it). `seen`: the queue's entries as of the last
    /// look (sharing their storage with the engine's: the next edit copies the one chunk it writes);
    /// `ids`: the items using each URL, by its URLKey — numbers, not the text of a million URLs. An id
    /// found there is checked against the URL before news goes to it.
    private let lock = ThreadLock()
    private var seen = QueueEntries()
    private var ids = ItemsByHash()
    /// Guarded by `lock`: a look is scheduled (a change needs nothing more — not even a dispatch: a flood
    /// of edits would otherwise wake `work` for each one), and when the last one ran.
    private var lookScheduled = false
    private var lastLook = -Double.infinity
    /// Guarded by `lock`: a look is under way (its flag cleared, `seen` not yet updated). A question about
    /// pins waits for it: it may be the look that brings the item asked about (seen once: a queued item's
    /// download completed during the look that added it, and the cap evicted it as unpinned).
    private var lookRunning = false

    /// Guarded by `walkLock` (taken before `lock`, never under it): where the downloads ahead stand.
    private let walkLock = ThreadLock()
    private var walk: PrefetchWalk

    /// Owned by `work`: the digests the queue's items carry, per URL (a digest → how many items carry it).
    private var digests: [String: [String: Int]] = [:]

    init(cache: NetworkCache, prefetch: Int?, publish: @escaping @Sendable (ItemID, CacheNews) -> Void) {
        self.cache = cache
        self.publish = publish
        walk = PrefetchWalk(limit: prefetch)
        cache.observe { [weak self] url, news in self?.tell(url, news) }
        cache.plan(with: self)
    }

    func attach(_ engine: PlayerEngine) { self.engine = engine }

    /// The queue changed: look again, at once or within a tenth of a second. Any thread.
    func queueChanged() {
        let delay = lock.withLock { () -> Double? in
            guard !lookScheduled else { return nil }
            lookScheduled = true
            return max(0, lastLook + Self.lookInterval - Monotonic.now())
        }
        guard let delay else { return }
        work.asyncAfter(deadline: .now() + delay) { [self] in look() }
    }

    /// Runs on `work`: reads what changed since the last look.
    private func look() {
        guard let engine else { return }
        lock.withLock {
            lookScheduled = false  // a change from now on schedules the next look
            lookRunning = true
            lastLook = Monotonic.now()
        }
        defer { lock.withLock { lookRunning = false } }
        let queue = engine.queue()
        let earlier = lock.withLock { seen }
        let (removed, added) = queue.entries.difference(from: earlier, whereURIBeginning: isNetworkURI)
        lock.withLock {
            seen = queue.entries
            for entry in removed { ids.remove(entry.id, hash: URLKey.of(entry.uri)) }
            for entry in added { ids.add(entry.id, hash: URLKey.of(entry.uri)) }
        }
        let wantsMore = walkLock.withLock {
            walk.follow(current: queue.current?.id, added: added.map(\.id))
        }
        updateDigests(removed: removed, added: added)
        if wantsMore { cache.prefetchPlanned() }
    }

    private func updateDigests(removed: [QueueEntries.URIEntry], added: [QueueEntries.URIEntry]) {
        var changed = false
        for entry in removed {
            guard let digest = entry.sha256 else { continue }
            digests[entry.uri]?[digest, default: 1] -= 1
            if digests[entry.uri]?[digest] == 0 { digests[entry.uri]?[digest] = nil }
            if digests[entry.uri]?.isEmpty == true { digests[entry.uri] = nil }
            changed = true
        }
        for entry in added {
            guard let digest = entry.sha256 else { continue }
            digests[entry.uri, default: [:]][digest, default: 0] += 1
            changed = true
        }
        // Two items naming one URL with different digests: the cache checks one of them (the same each time).
        if changed { cache.expectDigests(digests.compactMapValues { $0.keys.min() }) }
    }

    /// A look still due is taken now, so that an answer reflects every edit made before the question (a
    /// URL queued a moment ago whose download already finished must not be evicted as unqueued). Not on
    /// `work` itself; `work` never waits on the cache, so this cannot wait on itself.
    private func catchUp() {
        guard lock.withLock({ lookScheduled || lookRunning }) else { return }
        // On `work`, after the look under way (if any) has updated `seen`.
        work.sync { if lock.withLock({ lookScheduled }) { look() } }
    }

    // MARK: CachePlanner (the cache's threads)

    func isPinned(_ url: String) -> Bool {
        catchUp()
        return !items(using: url).isEmpty
    }

    func nextPrefetch() -> String? {
        catchUp()
        return walkLock.withLock {
            let entries = lock.withLock { seen }
            return walk.next(in: entries, isNetwork: isNetworkURI)
        }
    }

    /// News about `url`, for every item using it. Handed to `work` so that a look still due (an item added
    /// a moment ago, whose download is already telling) is taken first.
    private func tell(_ url: String, _ news: CacheNews) {
        work.async { [self] in
            if lock.withLock({ lookScheduled }) { look() }
            for id in items(using: url) { publish(id, news) }
        }
    }

    /// The items using `url` as of the last look: those under its URLKey, each checked against the URL.
    private func items(using url: String) -> [ItemID] {
        let (candidates, entries) = lock.withLock { (ids.ids(URLKey.of(url)), seen) }
        return candidates.filter { entries.position(of: $0).map { entries.uri(at: $0) } == url }
    }
}
