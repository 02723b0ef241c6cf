// queue.replace in the model: one version and one journal record for the whole swap, nothing changed when
// an item is refused, the removed current item's place at the front, and an entry kept for the play under
// way that plays no more of its loops, is followed by the new items and leaves when that play ends —
// also when the journal is replayed.

import Testing

@testable import QueueModel

@Suite struct ReplaceTests {
    @Test func aSwapIsOneVersionAndOneRecordAndTheOldCurrentsPlaceIsTheFront() throws {
        var (queue, old) = try makeQueue(3)
        queue.begin(cursor(old[1]))
        queue.recordsChanges = true
        let version = queue.version
        let new = try queue.replace(with: makeItems(2, prefix: "n"), loops: 2, rev: 7)
        #expect(queue.version == version + 1)
        #expect(queue.takeChanges() == [.replace(makeItems(2, prefix: "n"), loops: 2, rev: 7, keeping: nil)])
        #expect(ids(queue) == new && queue.loops == 2 && queue.appliedRev == 7)
        #expect(queue.current == nil && queue.leaving == nil)
        // The play that was current is gone; what follows it is the new queue's top.
        #expect(queue.successor(of: cursor(old[1])) == cursor(new[0]))
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func aRefusedItemChangesNothing() throws {
        var (queue, _) = try makeQueue(2)
        let before = Snapshot(queue)
        #expect(throws: QueueError.self) {
            try queue.replace(with: [MediaItem(uri: "/a.flac"), MediaItem(uri: "/b.flac", start: -1)], rev: 3)
        }
        #expect(throws: QueueError.invalidLoops(-1)) { try queue.replace(with: makeItems(1), loops: -1) }
        #expect(Snapshot(queue) == before)
    }

    @Test func theKeptPlayEndsWholeThenTheNewQueueFollowsAndTheEntryLeaves() throws {
        var (queue, old) = try makeQueue(3, itemLoops: 0)  // each item forever: only the swap moves on
        let playing = cursor(old[2], play: 4)
        queue.begin(playing)
        let new = try queue.replace(with: makeItems(2, prefix: "n"), rev: 1, keeping: old[2])
        #expect(ids(queue) == [old[2]] + new, "listed until its play ends")
        #expect(queue.leaving == old[2] && queue.current == playing)
        #expect(queue.successor(of: playing) == cursor(new[0]), "no more of its (endless) loops")
        queue.finish(playing, reason: .eof, error: nil)
        #expect(ids(queue) == new && queue.leaving == nil)
        #expect(playThrough(&queue, from: cursor(new[0]), limit: 10).map(\.id) == new)
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func theKeptEntryLeavesWhateverEndsItsPlay() throws {
        for reason in [EndReason.skipped, .error, .stopped] {
            var (queue, old) = try makeQueue(2)
            queue.begin(cursor(old[0]))
            _ = try queue.replace(with: makeItems(1, prefix: "n"), keeping: old[0])
            queue.finish(cursor(old[0]), reason: reason, error: reason == .error ? "bad" : nil)
            #expect(!ids(queue).contains(old[0]), "\(reason)")
        }
        // Removed by hand before its play ended: nothing is left leaving.
        var (queue, old) = try makeQueue(2)
        queue.begin(cursor(old[0]))
        _ = try queue.replace(with: makeItems(1, prefix: "n"), keeping: old[0])
        queue.remove([old[0]])
        #expect(queue.leaving == nil && queue.invariantViolations().isEmpty)
    }

    @Test func replayingASwapWithAKeptPlayGivesTheSameQueue() throws {
        var (queue, old) = try makeQueue(3)
        queue.begin(cursor(old[0]))
        let start = queue.snapshot
        queue.recordsChanges = true
        let new = try queue.replace(with: makeItems(2, prefix: "n"), loops: 0, rev: 12, keeping: old[0])
        queue.finish(cursor(old[0]), reason: .eof, error: nil)
        queue.begin(cursor(new[0]))
        var replayed = try #require(PlayQueue(snapshot: start))
        for change in queue.takeChanges() { try replayed.apply(change) }
        #expect(replayed.snapshot == queue.snapshot)
        #expect(replayed.appliedRev == 12 && replayed.leaving == nil && ids(replayed) == new)
    }
}
