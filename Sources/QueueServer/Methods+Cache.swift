// cache.* methods: what the daemon's network cache holds of the queue's http(s) items. Ids name queue
// items; each acts on its item's URL (items sharing a URL share one cached file). Without a cache (it
// could not be created) they answer as for a queue with no http(s) items, and usage reports zeros.

import Media
import Playback
import QueueModel
import QueueRPC

extension Dispatcher {
    static func cacheMethods(_ engine: PlayerEngine) -> [RPCMethod] {
        let cache = engine.networkCache
        /// The http(s) items among `ids` (nil: all of them), in queue order.
        @Sendable func networkItems(_ ids: [Int64]?) -> [(id: Int64, uri: String)] {
            let queue = engine.queue()
            let wanted = ids.map { Set($0) }
            return queue.entries.positions(whereURIBeginning: isNetworkURI).compactMap { position in
                let entry = queue.entries[position]
                let id = Int64(entry.id.rawValue)
                guard wanted?.contains(id) ?? true else { return nil }
                return (id, entry.item.uri)
            }
        }
        return [
            .answering(API.CacheStatus.self, .query) { params, _ in
                .init(
                    items: networkItems(params.ids).map {
                        .init(id: $0.id, uri: $0.uri, cache: Wire.cacheStatus(cache?.status(of: $0.uri)))
                    })
            },
            .answering(API.CachePrefetch.self, .query) { params, _ in
                let items = networkItems(params.ids)
                cache?.prefetch(items.map(\.uri))
                return .init(ids: items.map(\.id))
            },
            .answering(API.CacheRevalidate.self, .query) { params, _ in
                let items = networkItems(params.ids)
                cache?.revalidate(items.map(\.uri))
                return .init(ids: items.map(\.id))
            },
            .answering(API.CacheFetch.self, .query) { params, _ in
                cache?.expectFetchDigests(params.uris, params.sha256)
                cache?.prefetch(params.uris)
                return .init(items: params.uris.map { .init(uri: $0, cache: Wire.cacheStatus(cache?.status(of: $0))) })
            },
            .answering(API.CacheEvict.self, .query) { params, _ in
                let items = networkItems(params.ids)
                cache?.evict(items.map(\.uri))
                return .init(ids: items.map(\.id))
            },
            .answering(API.CacheUsage.self, .query) { _, _ in
                guard let usage = cache?.usage() else { return .init(bytes: 0, cap: nil, free: 0, pinned: 0) }
                return .init(bytes: usage.bytes, cap: usage.cap, free: usage.free, pinned: usage.pinned)
            },
        ]
    }
}
