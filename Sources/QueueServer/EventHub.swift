// Fans the daemon's events (the engine's, the outputs', the cache's) out to subscribed connections. They are
// published one at a time, in order; each subscriber gets them through its own event loop (FIFO), so order
// holds per connection.

import FoundationEssentials
import Glibc
import SystemSupport
import Playback

final class EventHub: @unchecked Sendable {
    typealias Deliver = @Sendable (DaemonEvent) -> Void
    private let lock = ThreadLock()
    /// Guarded by `lock`.
    private var subscribers: [ObjectIdentifier: Deliver] = [:]

    func add(_ id: ObjectIdentifier, deliver: @escaping Deliver) {
        lock.withLock { subscribers[id] = deliver }
    }

    func remove(_ id: ObjectIdentifier) {
        _ = lock.withLock { subscribers.removeValue(forKey: id) }
    }

    func publish(_ event: DaemonEvent) {
        let targets = lock.withLock { Array(subscribers.values) }
        for deliver in targets { deliver(event) }
    }

    var count: Int { lock.withLock { subscribers.count } }
}
