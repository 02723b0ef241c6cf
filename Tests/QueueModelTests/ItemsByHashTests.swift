// The compact id index against a plain dictionary of arrays: random adds and removals (shared hashes,
// colliding tags, ids past 40 bits), every lookup answering at least the ids added with that hash and only
// ids whose tag matches.

import Testing

@testable import QueueModel

@Suite struct ItemsByHashTests {
    @Test func randomAddsAndRemovalsAgreeWithADictionary() {
        var random = SplitMix64(seed: 0xB1A5)
        var index = ItemsByHash()
        var reference: [Int: [ItemID]] = [:]
        var live: [(ItemID, Int)] = []
        // Few distinct hashes, and hashes that share their top bits (the tag): runs and collisions.
        let hashes = (0..<3_000).map { _ in Int(bitPattern: UInt(random.next() % 64) << 58 | UInt(random.next() % 1_000)) }
        var nextID = 1
        for step in 0..<30_000 {
            if random.next() % 3 != 0 || live.isEmpty {
                let hash = hashes[Int(random.next() % UInt64(hashes.count))]
                let id = ItemID(step % 5_000 == 0 ? (1 << 41) + nextID : nextID)
                nextID += 1
                index.add(id, hash: hash)
                reference[hash, default: []].append(id)
                live.append((id, hash))
            } else {
                let (id, hash) = live.remove(at: Int(random.next() % UInt64(live.count)))
                index.remove(id, hash: hash)
                reference[hash]?.removeAll { $0 == id }
            }
            if step % 997 == 0 {
                for hash in hashes.prefix(200) {
                    let found = Set(index.ids(hash))
                    #expect(Set(reference[hash] ?? []).isSubset(of: found), "step \(step)")
                    #expect(found.isSubset(of: Set(live.map(\.0))), "step \(step): only live ids")
                }
            }
        }
        #expect(index.count == live.count)
        for (id, hash) in live { index.remove(id, hash: hash) }
        #expect(index.count == 0 && hashes.allSatisfy { index.ids($0).isEmpty })
    }
}
