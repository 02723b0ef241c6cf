import Testing

@testable import QueueModel

@Suite struct EditingTests {
    @Test func emptyQueue() {
        let queue = PlayQueue()
        #expect(queue.isEmpty && queue.count == 0)
        #expect(queue.version == 0 && queue.loops == 1 && queue.current == nil)
        #expect(queue.entry(ItemID(1)) == nil && queue.index(of: ItemID(1)) == nil)
        #expect(PlayQueue(loops: 0).loops == 0)
    }

    @Test func appendAssignsIncreasingIDsFromOne() throws {
        var queue = PlayQueue()
        let first = try queue.append(makeItems(3))
        let second = try queue.append(makeItems(2, prefix: "b"))
        #expect(first == [ItemID(1), ItemID(2), ItemID(3)])
        #expect(second == [ItemID(4), ItemID(5)])
        #expect(ids(queue) == first + second)
        #expect(queue.count == 5 && !queue.isEmpty)
        let entry = try #require(queue.entry(ItemID(4)))
        #expect(entry == QueueEntry(id: ItemID(4), item: MediaItem(uri: "/m/b0.flac")))
        #expect(entry.playsDone == 0 && entry.state == .queued && entry.knownDuration == nil)
        #expect(queue.index(of: ItemID(5)) == 4)
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func appendNothingChangesNothing() throws {
        var (queue, _) = try makeQueue(2)
        let before = Snapshot(queue)
        let appended = try queue.append([])
        let inserted = try queue.insert([], at: 1)
        #expect(appended.isEmpty && inserted.isEmpty)
        #expect(Snapshot(queue) == before)
    }

    @Test func invalidItemRejectsTheWholeBatch() throws {
        var (queue, _) = try makeQueue(2)
        let before = Snapshot(queue)
        let batch = [MediaItem(uri: "/ok"), MediaItem(uri: "/bad", start: 5, end: 4)]
        #expect(throws: QueueError.invalidWindow("end (4.0) must be after start (5.0)")) {
            try queue.append(batch)
        }
        #expect(throws: QueueError.invalidLoops(-1)) { try queue.insert([MediaItem(uri: "/x", loops: -1)], at: 0) }
        #expect(throws: QueueError.invalidWindow("duration must be a finite number of seconds > 0 (got 0.0)")) {
            try queue.insert([MediaItem(uri: "/x", duration: 0)], after: ItemID(1))
        }
        #expect(Snapshot(queue) == before)
        // The rejected batch did not use up ids.
        let next = try queue.append(makeItems(1))
        #expect(next == [ItemID(3)])
    }

    @Test func insertAtIndex() throws {
        var (queue, original) = try makeQueue(3)
        let front = try queue.insert(makeItems(2, prefix: "f"), at: 0)
        #expect(ids(queue) == front + original)
        let middle = try queue.insert(makeItems(1, prefix: "m"), at: 3)
        #expect(ids(queue) == front + [original[0]] + middle + [original[1], original[2]])
        let end = try queue.insert(makeItems(1, prefix: "e"), at: queue.count)
        #expect(ids(queue).last == end[0])
        #expect(queue.entry(middle[0])?.item.uri == "/m/m0.flac")
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test(arguments: [-1, 4, 100])
    func insertAtBadIndexThrows(index: Int) throws {
        var (queue, _) = try makeQueue(3)
        let before = Snapshot(queue)
        #expect(throws: QueueError.indexOutOfRange(index: index, count: 3)) {
            try queue.insert(makeItems(1), at: index)
        }
        #expect(Snapshot(queue) == before)
    }

    @Test func insertAfterID() throws {
        var (queue, original) = try makeQueue(3)
        let afterFirst = try queue.insert(makeItems(2, prefix: "x"), after: original[0])
        #expect(ids(queue) == [original[0]] + afterFirst + [original[1], original[2]])
        let afterLast = try queue.insert(makeItems(1, prefix: "y"), after: original[2])
        #expect(ids(queue).last == afterLast[0])
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func insertAfterUnknownIDThrows() throws {
        var (queue, original) = try makeQueue(2)
        queue.remove([original[1]])
        let before = Snapshot(queue)
        #expect(throws: QueueError.itemNotFound(original[1])) { try queue.insert(makeItems(1), after: original[1]) }
        #expect(throws: QueueError.itemNotFound(ItemID(99))) { try queue.insert(makeItems(1), after: ItemID(99)) }
        #expect(Snapshot(queue) == before)
    }

    @Test func removeReturnsRemovedInQueueOrderIgnoringUnknownAndDuplicates() throws {
        var (queue, original) = try makeQueue(6)
        try queue.move(original[5], to: 0)  // 6 1 2 3 4 5
        let removed = queue.remove([original[3], ItemID(99), original[5], original[3], original[1]])
        #expect(removed == [original[5], original[1], original[3]])
        #expect(ids(queue) == [original[0], original[2], original[4]])
        #expect(queue.entry(original[3]) == nil && queue.index(of: original[3]) == nil)
        #expect(queue.index(of: original[4]) == 2)
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func removeUnknownChangesNothing() throws {
        var (queue, _) = try makeQueue(2)
        let before = Snapshot(queue)
        let unknown = queue.remove([ItemID(50)])
        let none = queue.remove([])
        #expect(unknown.isEmpty && none.isEmpty)
        #expect(Snapshot(queue) == before)
    }

    @Test func removeEverythingThenAppend() throws {
        var (queue, original) = try makeQueue(4)
        let removed = queue.remove(original.reversed())
        #expect(removed == original)
        #expect(queue.isEmpty)
        let added = try queue.append(makeItems(2))
        #expect(added == [ItemID(5), ItemID(6)])
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func idsAreNeverReusedEvenAfterClear() throws {
        var (queue, original) = try makeQueue(3)
        queue.remove([original[2]])
        let fourth = try queue.append(makeItems(1))
        #expect(fourth == [ItemID(4)])
        queue.clear()
        #expect(queue.isEmpty && queue.entry(ItemID(1)) == nil)
        let afterClear = try queue.append(makeItems(2))
        let inFront = try queue.insert(makeItems(1), at: 0)
        #expect(afterClear == [ItemID(5), ItemID(6)])
        #expect(inFront == [ItemID(7)])
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func clearRemovesCurrent() throws {
        var (queue, original) = try makeQueue(3)
        queue.begin(cursor(original[1]))
        let version = queue.version
        queue.clear()
        #expect(queue.current == nil && queue.version == version + 1)
        let emptyBefore = Snapshot(queue)
        queue.clear()
        #expect(Snapshot(queue) == emptyBefore)
    }

    @Test(arguments: [
        // (from, to, expected order of the original indices)
        (0, 0, [0, 1, 2, 3, 4]),
        (0, 4, [1, 2, 3, 4, 0]),
        (4, 0, [4, 0, 1, 2, 3]),
        (1, 3, [0, 2, 3, 1, 4]),
        (3, 1, [0, 3, 1, 2, 4]),
        (2, 3, [0, 1, 3, 2, 4]),
        (3, 2, [0, 1, 3, 2, 4]),
    ])
    func moveToFinalPosition(from: Int, to: Int, expected: [Int]) throws {
        var (queue, original) = try makeQueue(5)
        try queue.move(original[from], to: to)
        #expect(ids(queue) == expected.map { original[$0] })
        #expect(queue.index(of: original[from]) == to)
        #expect(queue.invariantViolations().isEmpty)
    }

    @Test func moveErrorsChangeNothing() throws {
        var (queue, original) = try makeQueue(3)
        let before = Snapshot(queue)
        #expect(throws: QueueError.itemNotFound(ItemID(9))) { try queue.move(ItemID(9), to: 0) }
        #expect(throws: QueueError.indexOutOfRange(index: 3, count: 3)) { try queue.move(original[0], to: 3) }
        #expect(throws: QueueError.indexOutOfRange(index: -1, count: 3)) { try queue.move(original[0], to: -1) }
        try queue.move(original[1], to: 1)  // no-op
        #expect(Snapshot(queue) == before)
    }

    @Test func moveKeepsEntryState() throws {
        var (queue, original) = try makeQueue(3)
        queue.setKnownDuration(original[0], 12.5)
        queue.begin(cursor(original[0]))
        try queue.move(original[0], to: 2)
        let entry = try #require(queue.entry(original[0]))
        #expect(entry.knownDuration == 12.5 && entry.state == .playing)
        #expect(queue.current == cursor(original[0]))
    }

    @Test func updateEditsInPlace() throws {
        var (queue, original) = try makeQueue(2)
        try queue.update(original[1]) {
            $0.title = "Song"
            $0.loops = 3
            $0.start = 10
            $0.end = 20
        }
        let item = try #require(queue.entry(original[1])?.item)
        #expect(item == MediaItem(uri: "/m/1.flac", loops: 3, start: 10, end: 20, title: "Song"))
        #expect(ids(queue) == original)
    }

    @Test func updateIsValidatedAndAtomic() throws {
        var (queue, original) = try makeQueue(2)
        try queue.update(original[0]) { $0.start = 5 }
        let before = Snapshot(queue)
        #expect(throws: QueueError.invalidWindow("end (3.0) must be after start (5.0)")) {
            try queue.update(original[0]) {
                $0.title = "changed too"
                $0.end = 3
            }
        }
        #expect(throws: QueueError.invalidLoops(-4)) { try queue.update(original[1]) { $0.loops = -4 } }
        #expect(throws: QueueError.itemNotFound(ItemID(77))) { try queue.update(ItemID(77)) { $0.title = "x" } }
        #expect(Snapshot(queue) == before)
    }

    @Test func setLoops() throws {
        var queue = PlayQueue()
        try queue.setLoops(0)
        #expect(queue.loops == 0)
        try queue.setLoops(5)
        #expect(queue.loops == 5)
        let before = Snapshot(queue)
        #expect(throws: QueueError.invalidLoops(-1)) { try queue.setLoops(-1) }
        #expect(Snapshot(queue) == before)
    }

    @Test func setKnownDuration() throws {
        var (queue, original) = try makeQueue(2)
        queue.setKnownDuration(original[1], 180.25)
        #expect(queue.entry(original[1])?.knownDuration == 180.25)
        let before = Snapshot(queue)
        queue.setKnownDuration(ItemID(99), 3)
        queue.setKnownDuration(original[0], .nan)
        queue.setKnownDuration(original[0], -1)
        queue.setKnownDuration(original[1], 180.25)
        #expect(Snapshot(queue) == before)
    }

    @Test func versionBumpsOncePerMutation() throws {
        var queue = PlayQueue()
        var expected: UInt64 = 0
        func step(_ label: Comment, _ mutate: (inout PlayQueue) throws -> Void) rethrows {
            try mutate(&queue)
            expected += 1
            #expect(queue.version == expected, label)
        }
        let a = try queue.append(makeItems(3))
        expected += 1
        #expect(queue.version == expected)
        try step("insert at") { _ = try $0.insert(makeItems(1, prefix: "i"), at: 1) }
        try step("insert after") { _ = try $0.insert(makeItems(1, prefix: "j"), after: a[2]) }
        step("remove") { _ = $0.remove([a[1]]) }
        try step("move") { try $0.move(a[0], to: 2) }
        try step("update") { try $0.update(a[2]) { $0.title = "t" } }
        try step("setLoops") { try $0.setLoops(3) }
        step("setKnownDuration") { $0.setKnownDuration(a[0], 9) }
        step("begin") { $0.begin(cursor(a[0])) }
        step("finish") { $0.finish(cursor(a[0]), reason: .eof, error: nil) }
        step("begin again") { $0.begin(cursor(a[0], play: 2)) }
        step("finish with error") { $0.finish(cursor(a[0], play: 2), reason: .error, error: "bad") }
        step("clear") { $0.clear() }

        // Calls that change nothing leave the version alone.
        let (unchanged, _) = try makeQueue(1)
        var copy = unchanged
        try copy.update(ItemID(1)) { _ in }
        try copy.setLoops(1)
        copy.finish(cursor(ItemID(5)), reason: .eof, error: nil)
        let began = copy.begin(cursor(ItemID(5)))
        #expect(!began)
        #expect(copy.version == unchanged.version)
    }
}
