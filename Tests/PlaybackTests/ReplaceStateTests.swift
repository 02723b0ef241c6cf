// queue.replace as EngineState decisions, driven step by step (see EngineStateDriver): `now` ends what plays
// and starts the new top; `itemEnd` lets the play under way end whole and puts the new queue right after it
// on the timeline — re-feeding the kept play when the old next play was already written — and a stale
// `ifVersion` changes nothing.

import QueueModel
import Testing

@testable import Playback

@Suite struct ReplaceStateTests {
    let items = [MediaItem(uri: "/a.wav", title: "A"), MediaItem(uri: "/b.wav")]
    let newItems = [MediaItem(uri: "/c.wav", title: "C")]

    @Test func nowEndsWhatPlaysAndStartsTheNewTop() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        _ = driver.openRequested()
        driver.hear(1)
        #expect(driver.story() == ["flush", "start 1.1"])
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: 5, at: .now, ifVersion: nil, heard: driver.heard, wallClock: 0)
        #expect(driver.story() == ["end 1.1 removed", "flush"])
        #expect(driver.state.startRequest?.cursor.id == ids[0])
        #expect(driver.state.status.appliedRev == 5 && driver.state.queue.entries.map(\.id) == ids)
    }

    @Test func itemEndLetsThePlayEndWholeThenTheNewQueueFollows() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/a.wav", loops: 0), MediaItem(uri: "/b.wav")])
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested())
        driver.hear(1)
        _ = driver.story()
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: 1, at: .itemEnd, ifVersion: nil, heard: driver.heard, wallClock: 0)
        #expect(driver.story().isEmpty, "nothing ends, nothing is flushed")
        #expect(driver.state.queue.entries.map(\.id) == [a.id] + ids)
        let next = try #require(driver.write(a, frames: 100))
        #expect(next.id == ids[0], "the new queue right after, not A's next loop")
        driver.hear(101)
        #expect(driver.story() == ["end 1.1 eof", "start 3.1"])
        #expect(driver.state.queue.entries.map(\.id) == ids)
    }

    @Test func aNextPlayAlreadyWrittenIsReplacedByRefeedingTheKeptPlay() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 1))
        driver.hear(1)
        #expect(driver.write(a, frames: 100)?.id == driver.ids[1], "B is on the timeline after A")
        driver.hear(50)
        _ = driver.story()
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: nil, at: .itemEnd, ifVersion: nil, heard: driver.heard, wallClock: 0)
        #expect(driver.story() == ["flush"], "B's head start is dropped; A is not ended")
        let request = try #require(driver.state.startRequest)
        #expect(request.cursor == a && request.continuesPlay && abs(request.position - 0.5) < 1e-9)
        _ = driver.openRequested()
        #expect(driver.write(a, frames: 50)?.id == ids[0])
    }

    /// Found by the fleet benchmark under load: the decode thread had finished writing the kept play and
    /// was opening its next loop (outside the lock) when the queue was replaced. That loop must not be
    /// accepted: the kept play is fed again and the new queue follows it.
    @Test func aNextPlayBeingOpenedWhenTheQueueIsReplacedIsDropped() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/a.wav", loops: 0)])
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 1))
        driver.hear(1)
        driver.written += 100
        let oldSerial = driver.state.serial
        let written = driver.state.playWritten(a, serial: oldSerial, endFrame: driver.written, failure: nil)
        let opening = try #require(written)
        #expect(opening.cursor.id == a.id, "A's next loop is being opened")
        driver.hear(50)
        _ = driver.story()
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: 2, at: .itemEnd, ifVersion: nil, heard: driver.heard, wallClock: 0)
        let request = try #require(driver.state.startRequest, "the kept play is fed again")
        #expect(request.cursor == a && request.continuesPlay && abs(request.position - 0.5) < 1e-9)
        // The stale open comes back from the decode thread: refused.
        let stale = Segment(
            serial: oldSerial, cursor: opening.cursor, startFrame: 100, itemOffset: 0, duration: 1, showsVideo: false,
            continuesPlay: false)
        let accepted = driver.state.playOpened(stale, knownDuration: 1)
        #expect(!accepted)
        _ = driver.openRequested()
        #expect(driver.write(a, frames: 50)?.id == ids[0], "the new queue follows A")
        driver.hear(101)
        #expect(driver.story() == ["flush", "end 1.1 eof", "start 2.1"], "the refeed's flush, then A ends whole")
        #expect(driver.state.queue.entries.map(\.id) == ids)
    }

    /// The untimed engine test found it (2 runs in 24): the listener had heard the kept play to its very end
    /// while the announcements lagged, and the decode thread was opening its next loop. Feeding the kept
    /// play again "from where it is heard" meant from its end: its tail was written twice. The replace now
    /// takes the play heard from the listener: that play is over, nothing is under way, and the new queue
    /// starts right where it ended.
    @Test func aKeptPlayAlreadyHeardToItsEndIsNotFedAgain() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/a.wav", loops: 0)])
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 1))
        driver.hear(1)
        driver.written += 100
        let oldSerial = driver.state.serial
        let written = driver.state.playWritten(a, serial: oldSerial, endFrame: driver.written, failure: nil)
        let opening = try #require(written)
        _ = driver.story()
        // Heard to frame 100, not yet announced.
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: 3, at: .itemEnd, ifVersion: nil, heard: 100, wallClock: 0)
        #expect(driver.story() == ["end 1.1 eof", "flush"], "A ended whole; its next loop never starts")
        let request = try #require(driver.state.startRequest)
        #expect(request.cursor.id == ids[0] && request.position == 0 && !request.continuesPlay)
        let stale = Segment(
            serial: oldSerial, cursor: opening.cursor, startFrame: 100, itemOffset: 0, duration: 1, showsVideo: false,
            continuesPlay: false)
        let accepted = driver.state.playOpened(stale, knownDuration: 1)
        #expect(!accepted)
        #expect(driver.state.queue.entries.map(\.id) == ids)
    }

    /// The same lag one play later: the kept item's next loop is already being heard. That loop is the play
    /// under way: it ends whole, and the new queue follows it.
    @Test func aNextLoopAlreadyHeardIsThePlayUnderWay() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/a.wav", loops: 0)])
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 1))
        driver.hear(1)
        let wrote = driver.write(a, frames: 100)
        let second = try #require(wrote)
        #expect(second.id == a.id && second.play == 2)
        _ = driver.story()
        let ids = try driver.state.replaceQueue(
            with: newItems, loops: nil, rev: 3, at: .itemEnd, ifVersion: nil, heard: 120, wallClock: 0)
        #expect(driver.story() == ["end 1.1 eof", "start 1.2"], "no refeed, no flush")
        #expect(driver.state.queue.entries.map(\.id) == [a.id] + ids)
        let after = driver.write(second, frames: 100)
        #expect(after?.id == ids[0], "the new queue follows the loop heard")
        driver.hear(201)
        #expect(driver.story() == ["end 1.2 eof", "start 2.1"])
        #expect(driver.state.queue.entries.map(\.id) == ids)
    }

    @Test func aStaleIfVersionChangesNothing() throws {
        let driver = try EngineStateDriver(items: items)
        let before = driver.state.queue.snapshot
        #expect(throws: PlayerError.queueChanged(expected: before.version - 1, actual: before.version)) {
            try driver.state.replaceQueue(
                with: newItems, loops: nil, rev: 9, at: .now, ifVersion: before.version - 1, heard: 0, wallClock: 0)
        }
        #expect(driver.state.queue.snapshot == before && driver.state.status.appliedRev == nil)
    }
}
