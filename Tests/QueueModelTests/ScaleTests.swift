import Testing

@testable import QueueModel

/// The daemon holds 100,000 items. These check correctness at that size (timing is left to benchmarks);
/// a reference array of ids checks every edit, and the full invariant check runs now and then.
@Suite struct ScaleTests {
    @Test func hundredThousandItemsWithEditsInTheMiddle() throws {
        var queue = PlayQueue()
        var reference: [ItemID] = []
        for batch in 0..<10 {
            let added = try queue.append(makeItems(10_000, prefix: "b\(batch)-"))
            #expect(added.first == ItemID(batch * 10_000 + 1) && added.count == 10_000)
            reference += added
        }
        #expect(queue.count == 100_000)
        #expect(ids(queue) == reference)
        #expect(queue.invariantViolations().isEmpty)

        var rng = SplitMix64(seed: 0x5EED)
        var removedIDs: Set<ItemID> = []
        for step in 0..<1_000 {
            let middle = reference.count / 2
            let position = middle - 500 + Int(rng.next() % 1_000)
            switch step % 3 {
            case 0:
                let new = try queue.insert(makeItems(1, prefix: "s\(step)-"), at: position)
                reference.insert(new[0], at: position)
                #expect(new[0].rawValue == 100_000 + step / 3 + 1)
            case 1:
                let id = reference[position]
                let destination = Int(rng.next() % UInt64(reference.count))
                try queue.move(id, to: destination)
                reference.remove(at: position)
                reference.insert(id, at: destination)
            default:
                let id = reference[position]
                let removed = queue.remove([id])
                #expect(removed == [id])
                reference.remove(at: position)
                removedIDs.insert(id)
            }
            // Spot-check lookups around the edit and at both ends.
            for probe in [0, position - 1, position, position + 1, reference.count - 1] where probe >= 0 {
                let id = reference[probe]
                #expect(queue.index(of: id) == probe)
                #expect(queue.entry(id)?.id == id)
            }
            if step % 250 == 0 { #expect(queue.invariantViolations().isEmpty) }
        }
        #expect(ids(queue) == reference)
        #expect(queue.invariantViolations().isEmpty)
        #expect(removedIDs.allSatisfy { queue.index(of: $0) == nil })
        #expect(queue.version == 10 + 1_000)
    }

    @Test func bulkRemovalOfHalfTheQueue() throws {
        var (queue, original) = try makeQueue(100_000)
        let odd = original.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let removed = queue.remove(odd.reversed())
        #expect(removed == odd)
        #expect(ids(queue) == original.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        #expect(queue.invariantViolations().isEmpty)
        // Freed lookup slots are recycled by later additions.
        let added = try queue.append(makeItems(60_000, prefix: "again"))
        #expect(added.first == ItemID(100_001))
        #expect(queue.invariantViolations().isEmpty)
    }
}

/// A tiny deterministic generator so the scale test is reproducible.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
