// The thumbnails' schedule: every online screen asked for a screenshot, a bounded number at once, so a big
// fleet is swept without a burst of thousands of requests through the broker.

public enum Thumbnails {
    public static func takeAll(link: FleetLink, parallel: Int) async {
        let online = link.withRoster { roster in roster.screens.values.filter { $0.online == true }.map(\.id).sorted() }
        await withTaskGroup(of: Void.self) { group in
            var queue = online[...]
            for _ in 0..<max(1, parallel) {
                guard let id = queue.popFirst() else { break }
                group.addTask { _ = await link.takeThumbnail(player: id) }
            }
            for await _ in group {
                guard let id = queue.popFirst() else { continue }
                group.addTask { _ = await link.takeThumbnail(player: id) }
            }
        }
    }
}
