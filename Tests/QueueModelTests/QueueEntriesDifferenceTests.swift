// The difference between two values of one queue, read from the chunks written since they parted, against
// the plain answer (every entry of both compared by id, URI and digest): through random inserts, removals,
// moves and in-place changes, each step diffed against the value before it, and a diff spanning many steps.

import Testing

@testable import QueueModel

@Suite struct QueueEntriesDifferenceTests {
    typealias URIEntry = QueueEntries.URIEntry

    static func isNetwork(_ uri: String) -> Bool { uri.hasPrefix("https://") }

    /// The plain answer: what left and came among the network entries, by id, URI and digest.
    static func expected(_ earlier: QueueEntries, _ later: QueueEntries) -> (removed: [URIEntry], added: [URIEntry]) {
        func network(_ entries: QueueEntries) -> [ItemID: URIEntry] {
            var found: [ItemID: URIEntry] = [:]
            for entry in entries where isNetwork(entry.item.uri) {
                found[entry.id] = URIEntry(id: entry.id, uri: entry.item.uri, sha256: entry.item.sha256)
            }
            return found
        }
        let before = network(earlier), after = network(later)
        let removed = before.values.filter { after[$0.id] != $0 }.sorted { $0.id < $1.id }
        let added = after.values.filter { before[$0.id] != $0 }.sorted { $0.id < $1.id }
        return (removed, added)
    }

    @Test func randomEditsAreFoundFromTheChunksTheyWrote() {
        var random = SplitMix64(seed: 0xD1FF)
        var nextID = 1
        func make(_ count: Int) -> [QueueEntry] { QueueEntriesTests.entries(count, nextID: &nextID, &random) }
        var store = QueueEntries(make(5_000))
        var longAgo = store
        var steps = 0
        for step in 0..<400 {
            let before = store
            switch random.next() % 5 {
            case 0:
                store.insert(contentsOf: make(Int(random.next() % 30) + 1), at: Int(random.next() % UInt64(store.count + 1)))
            case 1 where !store.isEmpty:
                let picks = Set((0..<Int(random.next() % 30) + 1).map { _ in Int(random.next() % UInt64(store.count)) })
                store.remove(atAscending: picks.sorted())
            case 2 where !store.isEmpty:
                store.move(from: Int(random.next() % UInt64(store.count)), to: Int(random.next() % UInt64(store.count)))
            case 3 where !store.isEmpty:
                let at = Int(random.next() % UInt64(store.count))
                store[at] = QueueEntriesTests.entry(store[at].id.rawValue, &random)
            case 4 where !store.isEmpty:
                // Written without changing its URI (a play counted): not a difference.
                let at = Int(random.next() % UInt64(store.count))
                var entry = store[at]
                entry.playsDone += 1
                store[at] = entry
            default: break
            }
            let found = store.difference(from: before, whereURIBeginning: Self.isNetwork)
            let want = Self.expected(before, store)
            #expect(found.removed == want.removed, "step \(step)")
            #expect(found.added.sorted { $0.id < $1.id } == want.added, "step \(step)")
            steps += 1
            if steps == 50 {
                let spanning = store.difference(from: longAgo, whereURIBeginning: Self.isNetwork)
                let wantSpanning = Self.expected(longAgo, store)
                #expect(spanning.removed == wantSpanning.removed && spanning.added.sorted { $0.id < $1.id } == wantSpanning.added)
                longAgo = store
                steps = 0
            }
        }
        // From nothing: every network entry is added.
        let whole = store.difference(from: QueueEntries(), whereURIBeginning: Self.isNetwork)
        #expect(whole.removed.isEmpty && whole.added.count == store.filter { Self.isNetwork($0.item.uri) }.count)
        #expect(whole.added.count > 100)
        #expect(store.indices.allSatisfy { store.uri(at: $0) == store[$0].item.uri })
    }

    /// One insert into a queue of 200,000 reads one chunk or two, not the queue.
    @Test func anEditReadsOnlyWhatItWrote() {
        var store = QueueEntries(
            (1...200_000).map { QueueEntry(id: ItemID($0), item: MediaItem(uri: "https://127.0.0.1/\($0)/v.mp4")) })
        let before = store
        store.insert(QueueEntry(id: ItemID(300_000), item: MediaItem(uri: "https://127.0.0.1/new/v.mp4")), at: 100_000)
        var asked = 0
        let found = store.difference(from: before) { asked += 1; return Self.isNetwork($0) }
        #expect(found.removed.isEmpty && found.added == [URIEntry(id: ItemID(300_000), uri: "https://127.0.0.1/new/v.mp4", sha256: nil)])
        #expect(asked <= 3 * QueueEntries.chunkSize, "folders asked about: \(asked)")
    }

    /// A re-pack moves every text (new references, new folder numbers): the records are compared by their
    /// text then, not by where it was.
    @Test func aRepackedStoreIsComparedByItsText() {
        let entries = (1...40_000).map { id in
            QueueEntry(id: ItemID(id), item: MediaItem(uri: "https://127.0.0.1/\(id % 7)/" + String(repeating: "n", count: 60) + "\(id).mp4"))
        }
        var store = QueueEntries(entries)
        let before = store
        store.remove(atAscending: (0..<40_000).filter { $0 % 10 != 0 })
        #expect(store.lineage !== before.lineage, "re-packed")
        store[0] = QueueEntry(id: store[0].id, item: MediaItem(uri: "https://127.0.0.1/changed.mp4"))
        let found = store.difference(from: before, whereURIBeginning: Self.isNetwork)
        let want = Self.expected(before, store)
        #expect(found.removed == want.removed && found.added.sorted { $0.id < $1.id } == want.added)
        #expect(found.removed.count == 36_001 && found.added.count == 1)
    }
}
