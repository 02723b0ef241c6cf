// Work for many screens at once, a bounded number at a time: the thumbnails' schedule sweeps every online
// screen, and a command to a group asks each member, without a burst of thousands of requests through the
// broker.

enum Bounded {
    /// `body` for each of `items`, at most `limit` running at once; the results by item.
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], limit: Int, _ body: @escaping @Sendable (Item) async -> Result
    ) async -> [(Item, Result)] {
        await withTaskGroup(of: (Item, Result).self) { group in
            var queue = items[...]
            var results: [(Item, Result)] = []
            for _ in 0..<max(1, limit) {
                guard let item = queue.popFirst() else { break }
                group.addTask { (item, await body(item)) }
            }
            for await result in group {
                results.append(result)
                if let item = queue.popFirst() { group.addTask { (item, await body(item)) } }
            }
            return results
        }
    }
}

public enum Thumbnails {
    public static func takeAll(link: FleetLink, parallel: Int) async {
        let online = link.withRoster { roster in roster.screens.values.filter { $0.online == true }.map(\.id).sorted() }
        _ = await Bounded.map(online, limit: parallel) { id in _ = await link.takeThumbnail(player: id) }
    }
}
