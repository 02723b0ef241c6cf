// Which network item to download ahead next, decided one URL at a time as the cache frees a transfer:
// the queue in play order from the current item, once around (with --prefetch N, only the N network items
// after the current one, and again each time it moves), and the items added since — first, unless so many
// came at once (a replace) that the walk starts over instead. A value owned by NetworkItems (under its
// walkLock, Sources/queued/NetworkItems.swift); pure: the entries and the test for a network URI are handed in.

public struct PrefetchWalk: Sendable {
    /// Network items after the current one to download ahead (nil: all).
    public let limit: Int?
    /// More added at once than this start the walk over rather than wait in `fresh`.
    public static let freshLimit = 4096

    /// Items added since the walk began, to hand out before it goes on (from `freshNext`).
    private var fresh: [ItemID] = []
    private var freshNext = 0
    /// The entry the walk looks at next (nil: walked once around, or not begun).
    private var next: ItemID?
    /// Entries the walk may still look at: it stops once around even when entries come and go meanwhile.
    private var stepsLeft = 0
    /// Network items handed out since the walk began (for `limit`).
    private var handedOut = 0
    private var current: ItemID?
    private var begun = false
    /// The walk starts over from the current item (the queue's first without one) at the next `next`.
    private var restartPending = false

    public init(limit: Int?) { self.limit = limit }

    /// What a look at the queue found: the current item, the network items added. Returns whether there is
    /// anything new to hand out.
    public mutating func follow(current: ItemID?, added: [ItemID]) -> Bool {
        let moved = current != self.current
        self.current = current
        if !begun || added.count > Self.freshLimit || (limit != nil && (moved || !added.isEmpty)) {
            // With a limit, what is ahead is counted from the current item: walk it again (N items, cheap).
            begun = true
            fresh = []
            freshNext = 0
            restartPending = true
            return true
        }
        fresh += added
        return !added.isEmpty
    }

    /// The next URL to download ahead (nil: none now).
    public mutating func next(in entries: QueueEntries, isNetwork: (String) -> Bool) -> String? {
        if restartPending {
            restartPending = false
            let queued = current.flatMap { entries.position(of: $0) } != nil
            next = queued ? current : entries.first?.id
            stepsLeft = entries.count
            handedOut = 0
        }
        while freshNext < fresh.count {
            let id = fresh[freshNext]
            freshNext += 1
            if freshNext == fresh.count {
                fresh = []
                freshNext = 0
            }
            // A web page is loaded by its web engine, never fetched into the cache.
            if let position = entries.position(of: id), case let uri = entries.uri(at: position), isNetwork(uri),
                !entries[position].item.isWebPage
            {
                return uri
            }
        }
        while let id = next, stepsLeft > 0 {
            // The entry to go on from was removed: go on from the current item's place instead.
            guard let position = entries.position(of: id) ?? current.flatMap({ entries.position(of: $0) }) else {
                next = nil
                return nil
            }
            stepsLeft -= 1
            let following = (position + 1) % entries.count
            next = stepsLeft > 0 ? entries.id(at: following) : nil
            let uri = entries.uri(at: position)
            guard isNetwork(uri), !entries[position].item.isWebPage else { continue }
            if let limit, handedOut > limit {
                next = nil
                return nil
            }
            handedOut += 1
            return uri
        }
        return nil
    }
}
