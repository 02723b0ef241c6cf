import Testing

@testable import QueueModel

@Suite struct TransitionTests {
    @Test func beginMakesCurrentAndPlaying() throws {
        var (queue, original) = try makeQueue(2)
        let began = queue.begin(cursor(original[1]))
        #expect(began)
        #expect(queue.current == cursor(original[1]))
        #expect(queue.entry(original[1])?.state == .playing)
        #expect(queue.entry(original[0])?.state == .queued)
    }

    @Test func beginOfAnItemNoLongerQueuedIsRefused() throws {
        var (queue, original) = try makeQueue(2)
        queue.remove([original[0]])
        let before = Snapshot(queue)
        let began = queue.begin(cursor(original[0]))
        #expect(!began)
        #expect(Snapshot(queue) == before)
    }

    @Test func finishAfterEndOfFile() throws {
        var (queue, original) = try makeQueue(2, itemLoops: 2)
        let play1 = cursor(original[0])
        queue.begin(play1)
        queue.finish(play1, reason: .eof, error: nil)
        var entry = try #require(queue.entry(original[0]))
        #expect(entry.state == .played && entry.playsDone == 1 && queue.current == nil)
        let play2 = cursor(original[0], play: 2)
        queue.begin(play2)
        #expect(queue.entry(original[0])?.state == .playing)
        queue.finish(play2, reason: .eof, error: nil)
        entry = try #require(queue.entry(original[0]))
        #expect(entry.state == .played && entry.playsDone == 2)
    }

    @Test(arguments: [EndReason.eof, .skipped, .stopped, .removed])
    func everyReasonButErrorCountsAPlay(reason: EndReason) throws {
        var (queue, original) = try makeQueue(1)
        queue.begin(cursor(original[0]))
        queue.finish(cursor(original[0]), reason: reason, error: nil)
        #expect(queue.entry(original[0])?.playsDone == 1)
        #expect(queue.entry(original[0])?.state == .played)
        #expect(queue.current == nil)
    }

    @Test func errorMarksFailedWithoutCountingAPlay() throws {
        var (queue, original) = try makeQueue(2)
        queue.begin(cursor(original[0]))
        queue.finish(cursor(original[0]), reason: .error, error: "Invalid data found when processing input")
        let entry = try #require(queue.entry(original[0]))
        #expect(entry.state == .failed(message: "Invalid data found when processing input"))
        #expect(entry.playsDone == 0 && queue.current == nil)
        queue.finish(cursor(original[1]), reason: .error, error: nil)
        #expect(queue.entry(original[1])?.state == .failed(message: "playback failed"))
    }

    @Test func finishOfANonCurrentCursorKeepsCurrent() throws {
        var (queue, original) = try makeQueue(3)
        queue.begin(cursor(original[1]))
        // The prefetched item failed to open before it was ever heard.
        queue.finish(cursor(original[2]), reason: .error, error: "no such file")
        #expect(queue.current == cursor(original[1]))
        // A different play of the current item is not the current cursor either.
        queue.finish(cursor(original[1], play: 2), reason: .eof, error: nil)
        #expect(queue.current == cursor(original[1]))
    }

    @Test func finishOfTheRemovedCurrentOnlyClearsCurrent() throws {
        var (queue, original) = try makeQueue(2)
        queue.begin(cursor(original[0]))
        queue.remove([original[0]])
        let before = Snapshot(queue)
        queue.finish(cursor(original[0]), reason: .removed, error: nil)
        #expect(Snapshot(queue) == before)
    }

    @Test func aNewPassResetsPlaysAndStates() throws {
        var queue = PlayQueue(loops: 2)
        let a = try queue.append([MediaItem(uri: "/a", loops: 2), MediaItem(uri: "/b"), MediaItem(uri: "/c")])
        var next = queue.first()
        // Pass 1: a plays twice, b fails, c plays.
        while let cursor = next, cursor.pass == 1 {
            queue.begin(cursor)
            let failing = cursor.id == a[1]
            queue.finish(cursor, reason: failing ? .error : .eof, error: failing ? "broken" : nil)
            next = queue.successor(of: cursor)
        }
        #expect(queue.entries.map(\.playsDone) == [2, 0, 1])
        #expect(queue.entries.map(\.state) == [.played, .failed(message: "broken"), .played])
        let secondPass = try #require(next)
        #expect(secondPass == cursor(a[0], pass: 2))
        queue.begin(secondPass)
        #expect(queue.entries.map(\.playsDone) == [0, 0, 0])
        #expect(queue.entries.map(\.state) == [.playing, .queued, .queued])
    }

    @Test func samePassDoesNotReset() throws {
        var (queue, original) = try makeQueue(3)
        queue.begin(cursor(original[0]))
        queue.finish(cursor(original[0]), reason: .eof, error: nil)
        queue.begin(cursor(original[2]))  // a jump within pass 1
        #expect(queue.entry(original[0])?.state == .played)
        #expect(queue.entry(original[0])?.playsDone == 1)
    }

    @Test func restartingFromTheTopIsANewPass() throws {
        var (queue, original) = try makeQueue(2, loops: 2)
        _ = playThrough(&queue, limit: 100)
        #expect(queue.entries.allSatisfy { $0.state == .played && $0.playsDone == 1 })
        let restart = try #require(queue.first())
        queue.begin(restart)
        #expect(queue.entries.map(\.state) == [.playing, .queued])
        #expect(queue.entries.map(\.playsDone) == [0, 0])
        #expect(original.count == 2)
    }

    @Test func resetLeavesAStillPlayingEntryPlaying() throws {
        var (queue, original) = try makeQueue(2, loops: 0)
        queue.begin(cursor(original[1]))
        // Gapless hand-over reported start-first: the next pass begins before the last item's end.
        queue.begin(cursor(original[0], pass: 2))
        #expect(queue.entry(original[1])?.state == .playing)
        #expect(queue.current == cursor(original[0], pass: 2))
    }

    @Test func beginTwiceIsANoOp() throws {
        var (queue, original) = try makeQueue(1)
        queue.begin(cursor(original[0]))
        let before = Snapshot(queue)
        queue.begin(cursor(original[0]))
        #expect(Snapshot(queue) == before)
    }
}
