// Keeps the network cache in step with the queue: which URLs queued items use (pinned: never evicted),
// which to download ahead (--prefetch; by default the whole queue, so a signage loop can go offline),
// and which items a URL's news is about (the cache knows URLs, clients know item ids). Queue changes are
// looked at once per half second on this object's own queue, so a burst of edits to a long queue costs
// one scan, off the engine's and the server's threads.

import CacheControl
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Media
import NetCache
import Playback
import QueueModel

final class NetworkItems: @unchecked Sendable {
    private let cache: NetworkCache
    /// Items after the current one to download ahead (nil: all).
    private let prefetchCount: Int?
    /// Where the cache's news goes, per item using the URL.
    private let publish: @Sendable (ItemID, CacheNews) -> Void
    private let work = DispatchQueue(label: "queued.network-items")
    /// Set once, before the first `queueChanged`.
    private weak var engine: PlayerEngine?
    /// Guarded by `lock`: the items using each URL, by its URLKey, as of the last look — numbers, not the
    /// text of a million URLs (~450 bytes an item with a String key, a Set of them and an array per URL).
    /// An id found here is checked against the URL before news goes to it.
    private let lock = ThreadLock()
    private var idsByKey = ItemsByKey()
    /// Guarded by `lock`: a look at the queue is already scheduled, so a change needs nothing more — not
    /// even a dispatch: a flood of edits (12k/s) would otherwise wake `work`'s thread for each one.
    private var lookScheduled = false

    init(cache: NetworkCache, prefetch: Int?, publish: @escaping @Sendable (ItemID, CacheNews) -> Void) {
        self.cache = cache
        prefetchCount = prefetch
        self.publish = publish
        cache.observe { [weak self] url, news in self?.tell(url, news) }
    }

    func attach(_ engine: PlayerEngine) { self.engine = engine }

    /// The queue changed: look again within half a second. Any thread.
    func queueChanged() {
        let first = lock.withLock {
            defer { lookScheduled = true }
            return !lookScheduled
        }
        guard first else { return }
        // The first change is looked at now (a URL just added starts downloading at once); the ones that
        // follow within half a second, together at its end.
        work.async { [self] in
            refresh()
            work.asyncAfter(deadline: .now() + 0.5) { [self] in
                lock.withLock { lookScheduled = false }  // a change from now on schedules the next look
                refresh()
            }
        }
    }

    /// Runs on `work`.
    private func refresh() {
        guard let engine else { return }
        let queue = engine.queue()
        let entries = queue.entries
        var ids = ItemsByKey()
        var order: [String] = []
        var ordered = Set<Int>()
        var digests: [String: String] = [:]
        let wanted = prefetchCount.map { $0 + 1 }
        // From the current item on, wrapping around: the order they will play in.
        let first = queue.current.flatMap { queue.index(of: $0.id) } ?? 0
        // Only the http(s) entries are built (a long queue of local files costs one pass over its records).
        let network = entries.positions(whereURIBeginning: isNetworkURI)
        let split = network.firstIndex { $0 >= first } ?? network.count
        for position in network[split...] + network[..<split] {
            let entry = entries[position]
            let key = URLKey.of(entry.item.uri)
            ids.add(entry.id, key: key)
            if wanted.map({ order.count < $0 }) ?? true, ordered.insert(key).inserted { order.append(entry.item.uri) }
            if let digest = entry.item.sha256 { digests[entry.item.uri] = digest }
        }
        let pins = ids.keys
        lock.withLock { idsByKey = ids }
        cache.pin(keys: pins)
        cache.expectDigests(digests)
        cache.prefetch(order)
    }

    /// News about `url`, for every item using it. Called on the cache's threads.
    private func tell(_ url: String, _ news: CacheNews) {
        guard let engine else { return }
        let entries = engine.queue().entries
        let known = lock.withLock { idsByKey.ids(URLKey.of(url)) }
        var ids = known.filter { entries.entry($0)?.item.uri == url }
        if ids.isEmpty {
            // Added since the last look (news can outrun it), or a key two URLs share: find its items now.
            ids = entries.positions(whereURIBeginning: isNetworkURI).map { entries[$0] }.filter { $0.item.uri == url }
                .map(\.id)
        }
        for id in ids { publish(id, news) }
    }
}

/// Item ids by URLKey: the one id most URLs have inline, the rest of a URL used more than once beside it.
struct ItemsByKey {
    private var first: [Int: ItemID] = [:]
    private var more: [Int: [ItemID]] = [:]

    mutating func add(_ id: ItemID, key: Int) {
        if first[key] == nil { first[key] = id } else { more[key, default: []].append(id) }
    }

    func ids(_ key: Int) -> [ItemID] {
        guard let id = first[key] else { return [] }
        return [id] + (more[key] ?? [])
    }

    var keys: Set<Int> { Set(first.keys) }
}
