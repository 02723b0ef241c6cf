import Testing

@testable import QueueModel

@Suite struct NavigationTests {
    @Test func firstOfEmptyAndNonEmpty() throws {
        #expect(PlayQueue().first() == nil)
        let (queue, original) = try makeQueue(3)
        #expect(queue.first() == cursor(original[0]))
    }

    @Test func playsEachItemOnceByDefault() throws {
        var (queue, original) = try makeQueue(3)
        #expect(playThrough(&queue, limit: 100) == original.map { cursor($0) })
    }

    @Test func itemLoopsThreeGivesThreePlaysThenNext() throws {
        var queue = PlayQueue()
        let a = try queue.append([MediaItem(uri: "/a", loops: 3), MediaItem(uri: "/b")])
        let c1 = try #require(queue.first())
        let c2 = try #require(queue.successor(of: c1))
        let c3 = try #require(queue.successor(of: c2))
        let c4 = try #require(queue.successor(of: c3))
        #expect([c1, c2, c3, c4] == [cursor(a[0]), cursor(a[0], play: 2), cursor(a[0], play: 3), cursor(a[1])])
        #expect(queue.successor(of: c4) == nil)
    }

    @Test func itemLoopsZeroRepeatsUntilFollowing() throws {
        var queue = PlayQueue()
        let a = try queue.append([MediaItem(uri: "/a", loops: 0), MediaItem(uri: "/b")])
        let played = playThrough(&queue, limit: 50)
        #expect(played.count == 50)
        #expect(played.allSatisfy { $0.id == a[0] && $0.pass == 1 })
        #expect(played.map(\.play) == Array(1...50))
        let last = try #require(played.last)
        #expect(queue.following(last) == cursor(a[1]))
    }

    @Test func followingSkipsRemainingPlays() throws {
        let (queue, original) = try makeQueue(2, itemLoops: 5)
        #expect(queue.following(cursor(original[0], play: 2)) == cursor(original[1]))
        #expect(queue.following(cursor(original[1], play: 3)) == nil)
    }

    @Test func queueLoopsTwoGoesThroughTwiceThenEnds() throws {
        var (queue, original) = try makeQueue(3, loops: 2)
        let played = playThrough(&queue, limit: 100)
        #expect(played == original.map { cursor($0, pass: 1) } + original.map { cursor($0, pass: 2) })
    }

    @Test func queueLoopsTwoWithItemLoops() throws {
        var (queue, original) = try makeQueue(2, loops: 2, itemLoops: 2)
        let played = playThrough(&queue, limit: 100)
        #expect(
            played.map { "\($0.id.rawValue).\($0.play).\($0.pass)" } == [
                "1.1.1", "1.2.1", "2.1.1", "2.2.1", "1.1.2", "1.2.2", "2.1.2", "2.2.2",
            ])
        #expect(original == [ItemID(1), ItemID(2)])
    }

    @Test func queueLoopsZeroWrapsForever() throws {
        var (queue, original) = try makeQueue(2, loops: 0)
        let played = playThrough(&queue, limit: 1000)
        #expect(played.count == 1000)
        #expect(played[998] == cursor(original[0], pass: 500) && played[999] == cursor(original[1], pass: 500))
        #expect(queue.following(cursor(original[1], pass: 7)) == cursor(original[0], pass: 8))
    }

    @Test func followingWrapsOnlyWhenLoopsAllow() throws {
        var (queue, original) = try makeQueue(3, loops: 3)
        #expect(queue.following(cursor(original[2], pass: 2)) == cursor(original[0], pass: 3))
        #expect(queue.following(cursor(original[2], pass: 3)) == nil)
        try queue.setLoops(1)
        #expect(queue.following(cursor(original[2])) == nil)
        #expect(queue.following(cursor(original[0])) == cursor(original[1]))
    }

    @Test func precedingGoesBackAndStopsAtTheFirst() throws {
        let (queue, original) = try makeQueue(3, loops: 0)
        #expect(queue.preceding(cursor(original[2], play: 4, pass: 2)) == cursor(original[1], pass: 2))
        #expect(queue.preceding(cursor(original[1], pass: 2)) == cursor(original[0], pass: 2))
        #expect(queue.preceding(cursor(original[0], play: 3, pass: 2)) == cursor(original[0], pass: 2))
    }

    @Test func unknownCursorsGoNowhere() throws {
        var (queue, original) = try makeQueue(3)
        let gone = cursor(original[1])
        queue.remove([original[1]])  // never current, so no place is remembered
        #expect(queue.successor(of: gone) == nil)
        #expect(queue.following(gone) == nil)
        #expect(queue.preceding(gone) == nil)
        #expect(queue.successor(of: cursor(ItemID(42))) == nil)
    }

    @Test func jumpUsesTheCurrentPass() throws {
        var (queue, original) = try makeQueue(3, loops: 0)
        #expect(queue.cursor(for: original[2]) == cursor(original[2]))
        queue.begin(cursor(original[0], play: 2, pass: 4))
        #expect(queue.cursor(for: original[2]) == cursor(original[2], pass: 4))
        #expect(queue.cursor(for: ItemID(99)) == nil)
    }

    @Test func navigationFollowsEdits() throws {
        var (queue, original) = try makeQueue(3)
        let inserted = try queue.insert(makeItems(1, prefix: "n"), after: original[0])
        #expect(queue.following(cursor(original[0])) == cursor(inserted[0]))
        try queue.move(original[2], to: 0)
        #expect(queue.first() == cursor(original[2]))
        #expect(queue.successor(of: cursor(original[1])) == nil)
    }

    // MARK: Removing the current item

    @Test func removedCurrentContinuesWithTheItemThatTookItsPlace() throws {
        var (queue, original) = try makeQueue(4, itemLoops: 3)
        let playing = cursor(original[1], play: 2)
        queue.begin(playing)
        let removed = queue.remove([original[1]])
        #expect(removed == [original[1]])
        #expect(queue.current == nil)
        queue.finish(playing, reason: .removed, error: nil)
        #expect(queue.successor(of: playing) == cursor(original[2]))
        #expect(queue.following(playing) == cursor(original[2]))
        #expect(queue.preceding(playing) == cursor(original[0]))
    }

    @Test func removedCurrentWithNeighboursSkipsToTheFirstSurvivor() throws {
        var (queue, original) = try makeQueue(6)
        let playing = cursor(original[2])
        queue.begin(playing)
        queue.remove([original[1], original[2], original[3]])
        #expect(queue.successor(of: playing) == cursor(original[4]))
        #expect(queue.preceding(playing) == cursor(original[0]))
    }

    @Test func removedCurrentAtTheEndEndsOrWraps() throws {
        var (once, a) = try makeQueue(3)
        once.begin(cursor(a[2]))
        once.remove([a[2]])
        #expect(once.successor(of: cursor(a[2])) == nil)
        #expect(once.following(cursor(a[2])) == nil)
        #expect(once.preceding(cursor(a[2])) == cursor(a[1]))

        var forever = PlayQueue(loops: 0)
        let b = try forever.append(makeItems(3))
        forever.begin(cursor(b[2], pass: 3))
        forever.remove([b[2]])
        #expect(forever.successor(of: cursor(b[2], pass: 3)) == cursor(b[0], pass: 4))
    }

    @Test func removedCurrentAtTheFront() throws {
        var (queue, original) = try makeQueue(3)
        queue.begin(cursor(original[0]))
        queue.remove([original[0]])
        #expect(queue.successor(of: cursor(original[0])) == cursor(original[1]))
        #expect(queue.preceding(cursor(original[0])) == cursor(original[1]))
    }

    @Test func removedPlaceFollowsLaterEdits() throws {
        var (queue, original) = try makeQueue(5)
        let playing = cursor(original[2])
        queue.begin(playing)
        queue.remove([original[2]])  // 0 1 | 3 4
        _ = try queue.insert(makeItems(2, prefix: "front"), at: 0)  // f f 0 1 | 3 4
        #expect(queue.successor(of: playing) == cursor(original[3]))
        let next = try queue.insert(makeItems(1, prefix: "next"), after: original[1])  // ... 1 | n 3 4
        #expect(queue.successor(of: playing) == cursor(next[0]))
        queue.remove([original[0], next[0]])  // f f 1 | 3 4
        #expect(queue.successor(of: playing) == cursor(original[3]))
        try queue.move(original[4], to: 0)  // 4 f f 1 | 3
        #expect(queue.successor(of: playing) == cursor(original[3]))
        try queue.move(original[1], to: 4)  // 4 f f | 3 1
        #expect(queue.successor(of: playing) == cursor(original[3]))
        #expect(queue.preceding(playing)?.id == queue.entries[2].id)
        queue.clear()
        #expect(queue.successor(of: playing) == nil)
        let fresh = try queue.append(makeItems(1, prefix: "fresh"))
        #expect(queue.successor(of: playing) == cursor(fresh[0]))
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func clearWhilePlayingThenAppendContinuesWithTheNewItems() throws {
        var (queue, original) = try makeQueue(2)
        queue.begin(cursor(original[1]))
        queue.clear()
        #expect(queue.current == nil)
        let fresh = try queue.append(makeItems(2, prefix: "new"))
        #expect(queue.successor(of: cursor(original[1])) == cursor(fresh[0]))
    }

    @Test func beginForgetsTheRemovedPlace() throws {
        var (queue, original) = try makeQueue(3)
        queue.begin(cursor(original[0]))
        queue.remove([original[0]])
        queue.begin(cursor(original[1]))
        #expect(queue.successor(of: cursor(original[0])) == nil)
    }
}
