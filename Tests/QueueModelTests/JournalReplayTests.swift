// The queue's journal contract: random edits and transitions, recorded; replaying the changes after any
// snapshot onto that snapshot gives the same queue, bookkeeping included; snapshots survive JSON; a
// snapshot that contradicts itself is refused instead of becoming a queue.

import Foundation
import TestSupport
import Testing

@testable import QueueModel

@Suite struct JournalReplayTests {
    /// One random edit or transition of the kinds the engine and the API make.
    private func randomStep(_ queue: inout PlayQueue, _ random: inout SeededGenerator, pass: inout Int) {
        let ids = queue.entries.map(\.id)
        switch Int.random(in: 0..<11, using: &random) {
        case 0, 1: _ = try? queue.append(makeItems(Int.random(in: 1...3, using: &random), prefix: "a"))
        case 2: _ = try? queue.insert(makeItems(2, prefix: "i"), at: Int.random(in: 0...queue.count, using: &random))
        case 3: if let id = ids.randomElement(using: &random) { _ = try? queue.insert(makeItems(1), after: id) }
        case 4: queue.remove(Array(ids.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random))))
        case 5:
            if let id = ids.randomElement(using: &random), !ids.isEmpty {
                try? queue.move(id, to: Int.random(in: 0..<ids.count, using: &random))
            }
        case 6:
            switch Int.random(in: 0..<8, using: &random) {
            case 0: queue.clear()
            case 1:
                let kept = Bool.random(using: &random) ? queue.current?.id : nil
                _ = try? queue.replace(
                    with: makeItems(Int.random(in: 0...3, using: &random), prefix: "r"), rev: Int64(pass), keeping: kept)
            default: break
            }
        case 7:
            if let id = ids.randomElement(using: &random) {
                try? queue.update(id) { $0.title = "t\(Int.random(in: 0..<100, using: &random))" }
            }
        case 8: try? queue.setLoops(Int.random(in: 0...3, using: &random))
        case 9:
            if let id = ids.randomElement(using: &random) {
                if Int.random(in: 0..<5, using: &random) == 0 { pass += 1 }
                queue.begin(Cursor(id: id, play: 1, pass: pass))
                queue.setKnownDuration(id, Double(Int.random(in: 1...9, using: &random)))
                queue.setKnownSize(id, PictureSize(width: Int.random(in: 1...3, using: &random), height: 2))
            }
        default:
            if let current = queue.current {
                let reasons: [EndReason] = [.eof, .error, .skipped]
                let reason = reasons.randomElement(using: &random)!
                queue.finish(current, reason: reason, error: reason == .error ? "bad" : nil)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func replayingTheChangesAfterASnapshotGivesTheSameQueue(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var queue = PlayQueue(loops: 1)
        queue.recordsChanges = true
        var pass = 1
        var checkpoints: [(PlayQueue.Snapshot, Int)] = [(queue.snapshot, 0)]
        var journal: [PlayQueue.Change] = []
        for step in 1...400 {
            randomStep(&queue, &random, pass: &pass)
            journal += queue.takeChanges()
            if step % 50 == 0 { checkpoints.append((queue.snapshot, journal.count)) }
        }
        for (snapshot, taken) in checkpoints {
            var replayed = try #require(PlayQueue(snapshot: snapshot))
            for change in journal[taken...] { try replayed.apply(change) }
            #expect(replayed.snapshot == queue.snapshot, "seed \(seed), from change \(taken)")
            #expect(replayed.invariantViolations().isEmpty)
        }
    }

    @Test func aSnapshotSurvivesJSON() throws {
        var (queue, ids) = try makeQueue(5)
        try queue.update(ids[1]) { $0.trackEnd = .longest }
        queue.begin(cursor(ids[2]))
        queue.finish(cursor(ids[2]), reason: .error, error: "broken")
        queue.begin(cursor(ids[3]))
        queue.remove([ids[3]])
        let data = try JSONEncoder().encode(queue.snapshot)
        let decoded = try JSONDecoder().decode(PlayQueue.Snapshot.self, from: data)
        #expect(decoded == queue.snapshot)
        let restored = try #require(PlayQueue(snapshot: decoded))
        #expect(restored.successor(of: cursor(ids[3])) == queue.successor(of: cursor(ids[3])))
    }

    @Test func aSelfContradictingSnapshotIsRefused() throws {
        let (queue, _) = try makeQueue(3)
        var duplicate = queue.snapshot
        duplicate.entries.append(duplicate.entries[0])
        #expect(PlayQueue(snapshot: duplicate) == nil)
        var reused = queue.snapshot
        reused.nextID = 2
        #expect(PlayQueue(snapshot: reused) == nil)
        var negative = queue.snapshot
        negative.loops = -1
        #expect(PlayQueue(snapshot: negative) == nil)
    }
}
