// The downloads-ahead walk as the cache meets it, one URL per free transfer: play order from the current
// item, once around; items added meanwhile first; a replace starts it over; with a limit, only that many
// after the current item, again each time it moves.

import Testing

@testable import QueueModel

@Suite struct PrefetchWalkTests {
    static func isNetwork(_ uri: String) -> Bool { uri.hasPrefix("https://") }

    /// Items 1…n: every third a local file, the rest URLs named by their id.
    static func queue(_ ids: ClosedRange<Int>) -> QueueEntries {
        QueueEntries(ids.map { QueueEntry(id: ItemID($0), item: MediaItem(uri: $0 % 3 == 0 ? "/media/\($0).mp4" : "https://127.0.0.1/\($0).mp4")) })
    }

    static func drain(_ walk: inout PrefetchWalk, _ entries: QueueEntries, max: Int = 1_000) -> [String] {
        var handed: [String] = []
        while handed.count < max, let uri = walk.next(in: entries, isNetwork: isNetwork) { handed.append(uri) }
        return handed
    }

    @Test func theWholeQueueOnceAroundFromTheCurrentItem() {
        let entries = Self.queue(1...10)
        var walk = PrefetchWalk(limit: nil)
        let began = walk.follow(current: ItemID(5), added: [])
        #expect(began)
        #expect(Self.drain(&walk, entries) == [5, 7, 8, 10, 1, 2, 4].map { "https://127.0.0.1/\($0).mp4" })
        let nextURL = walk.next(in: entries, isNetwork: Self.isNetwork)
        #expect(nextURL == nil, "once around")
        // Moving on does not start it over: everything was handed out.
        let movedOn = walk.follow(current: ItemID(7), added: [])
        #expect(!movedOn)
        #expect(Self.drain(&walk, entries).isEmpty)
    }

    @Test func itemsAddedMeanwhileComeFirstAndAReplaceStartsOver() {
        var entries = Self.queue(1...10)
        var walk = PrefetchWalk(limit: nil)
        _ = walk.follow(current: nil, added: [])
        #expect(Self.drain(&walk, entries, max: 2) == ["https://127.0.0.1/1.mp4", "https://127.0.0.1/2.mp4"])
        entries.insert(QueueEntry(id: ItemID(11), item: MediaItem(uri: "https://127.0.0.1/11.mp4")), at: 0)
        let addedOne = walk.follow(current: nil, added: [ItemID(11)])
        #expect(addedOne)
        #expect(Self.drain(&walk, entries) == [11, 4, 5, 7, 8, 10].map { "https://127.0.0.1/\($0).mp4" })
        // A replace: more than the fresh list holds, so the walk begins again from the top.
        let replaced = Self.queue(100...(100 + PrefetchWalk.freshLimit + 10))
        let replacedAll = walk.follow(current: nil, added: replaced.map(\.id))
        #expect(replacedAll)
        let handed = Self.drain(&walk, replaced, max: 10_000)
        #expect(handed.count == replaced.filter { Self.isNetwork($0.item.uri) }.count)
        #expect(handed.first == "https://127.0.0.1/100.mp4")
    }

    @Test func aLimitCountsFromTheCurrentItemAgainEachTimeItMoves() {
        let entries = Self.queue(1...10)
        var walk = PrefetchWalk(limit: 2)
        _ = walk.follow(current: ItemID(1), added: [])
        #expect(Self.drain(&walk, entries) == [1, 2, 4].map { "https://127.0.0.1/\($0).mp4" })
        let moved = walk.follow(current: ItemID(2), added: [])
        #expect(moved)
        #expect(Self.drain(&walk, entries) == [2, 4, 5].map { "https://127.0.0.1/\($0).mp4" })
    }

    @Test func aRemovedPlaceGoesOnFromTheCurrentItem() {
        var entries = Self.queue(1...10)
        var walk = PrefetchWalk(limit: nil)
        _ = walk.follow(current: ItemID(4), added: [])
        let nextURL = walk.next(in: entries, isNetwork: Self.isNetwork)
        #expect(nextURL == "https://127.0.0.1/4.mp4")
        entries.remove(atAscending: [4])  // item 5, where the walk goes on
        // From the current item again (handed out before: the cache passes over what it holds), once around.
        #expect(Self.drain(&walk, entries) == [4, 7, 8, 10, 1, 2].map { "https://127.0.0.1/\($0).mp4" })
    }
}
