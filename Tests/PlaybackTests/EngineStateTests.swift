// EngineState without threads or clocks: a small driver plays the decode thread (open a play, write N
// frames, finish it) and the presenter (the listener reaches frame F), and each test checks the events and
// audio requests the state records, and what it reports as current.

import QueueModel
import Testing

@testable import Playback

/// Drives an EngineState the way the decode and presenter threads do, one step at a time.
final class EngineStateDriver {
    var state: EngineState
    /// Frames the "decode thread" has put on the timeline.
    var written: Int64 = 0
    /// Where the "listener" is.
    var heard: Int64 = 0
    /// Everything recorded so far, in order.
    var log: [EngineAction] = []
    /// The serial the "decode thread" last began (what EngineState.decoderNext compares requests with).
    var decoderSerial = -1

    init(items: [MediaItem], queueLoops: Int = 1) throws {
        var queue = PlayQueue(loops: queueLoops)
        _ = try queue.append(items)
        state = EngineState(queue: queue, sampleRate: 100, untimed: false, progressInterval: 0)
    }

    var ids: [ItemID] { state.queue.entries.map(\.id) }

    /// The decode thread asks what to do, as DecodeLoop.run does, and takes a start request if there is one.
    func takeRequest() -> StartRequest? {
        guard case .begin(let request) = state.decoderNext(
            generation: state.decoderGeneration, serial: decoderSerial, activeSerial: nil)
        else { return nil }
        decoderSerial = request.serial
        return request
    }

    /// The decode thread takes the start request and opens that play at the current end of the timeline.
    func openRequested(duration: Double? = nil) -> Cursor? {
        guard let request = takeRequest() else { return nil }
        written = heard  // the cut flushed what was not heard
        open(request.cursor, offset: request.position, continuesPlay: request.continuesPlay, duration: duration)
        state.startHandled(request)
        return request.cursor
    }

    func open(
        _ cursor: Cursor, offset: Double = 0, continuesPlay: Bool = false, duration: Double? = nil, joins: Bool = false
    ) {
        var segment = Segment(
            serial: state.serial, cursor: cursor, startFrame: written, itemOffset: offset,
            duration: duration, showsVideo: false, continuesPlay: continuesPlay)
        segment.joinsPrevious = joins
        let accepted = state.playOpened(segment, knownDuration: duration)
        #expect(accepted)
    }

    /// The decode thread writes `frames` of `cursor`'s play and finishes it; returns what it opens next.
    @discardableResult
    func write(_ cursor: Cursor, frames: Int64, failure: String? = nil) -> Cursor? {
        written += frames
        let next = state.playWritten(cursor, serial: state.serial, endFrame: written, failure: failure)?.cursor
        if let next { open(next, joins: true) }
        return next
    }

    /// The listener reaches frame `frame`.
    func hear(_ frame: Int64) {
        heard = frame
        state.listenerReached(frame, wallClock: 0)
        collect()
    }

    func collect() { log += state.takeActions() }

    /// "start 1.1" / "end 1.1 eof" for the item events logged since the last call, "flush" for flushes.
    func story() -> [String] {
        collect()
        defer { log.removeAll() }
        return log.compactMap { action in
            switch action {
            case .emit(.itemStarted(let id, let play, _, _, let interrupt, _, _, _, _)):
                return "start \(interrupt ? "!" : "")\(id).\(play)"
            case .emit(.itemEnded(let id, let play, let reason, _, let interrupt)):
                return "end \(interrupt ? "!" : "")\(id).\(play) \(reason.rawValue)"
            case .requestAudioFlush: return "flush"
            default: return nil
            }
        }
    }
}

@Suite struct EngineStateTests {
    let items = [MediaItem(uri: "/a.wav", title: "A"), MediaItem(uri: "/b.wav"), MediaItem(uri: "/c.wav")]

    @Test func playStartsTheFirstItemAndTheStatusNamesItAtOnce() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        #expect(driver.story() == ["flush"])
        let status = driver.state.status(heard: 0)
        #expect(
            status.state == .playing && status.currentID == driver.ids[0] && status.title == "A"
                && status.uri == "/a.wav")
        _ = driver.openRequested()
        driver.hear(1)
        #expect(driver.story() == ["start 1.1"])
    }

    @Test func nextAndPreviousAtBothEnds() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        _ = driver.openRequested()
        driver.hear(0)
        _ = driver.story()
        // previous at the first item plays it again from its start.
        try driver.state.previous()
        #expect(driver.story() == ["end 1.1 skipped", "flush"])
        #expect(driver.state.status(heard: driver.heard).currentID == driver.ids[0])
        _ = driver.openRequested()
        driver.hear(driver.heard)
        try driver.state.play(id: driver.ids[2])
        _ = driver.openRequested()
        driver.hear(driver.heard)
        #expect(driver.story() == ["start 1.1", "end 1.1 skipped", "flush", "start 3.1"])
        // next past the last item: it ends and playback goes idle, nothing more starts.
        try driver.state.next()
        #expect(driver.story() == ["end 3.1 skipped", "flush"])
        #expect(driver.state.status.state == .idle)
        #expect(driver.state.startRequest == nil && driver.state.status(heard: driver.heard).currentID == nil)
        #expect(throws: PlayerError.nothingPlaying) { try driver.state.next() }
    }

    @Test func aLoopSeamAndQueueLoopsFollowEachOtherWithoutGaps() throws {
        let driver = try EngineStateDriver(
            items: [MediaItem(uri: "/a.wav", loops: 2), MediaItem(uri: "/b.wav")], queueLoops: 2)
        try driver.state.play(id: nil)
        var cursor = try #require(driver.openRequested())
        var starts: [Int64] = []
        for _ in 0..<6 {  // (a, a, b) × 2 passes
            starts.append(driver.written)
            guard let next = driver.write(cursor, frames: 100) else { break }
            cursor = next
        }
        driver.hear(driver.written)
        #expect(starts == [0, 100, 200, 300, 400, 500], "every play right after the previous one")
        #expect(
            driver.story() == [
                "flush", "start 1.1", "end 1.1 eof", "start 1.2", "end 1.2 eof", "start 2.1", "end 2.1 eof",
                "start 1.1", "end 1.1 eof", "start 1.2", "end 1.2 eof", "start 2.1", "end 2.1 eof",
            ])
        #expect(driver.state.status.state == .idle, "played through both passes")
    }

    @Test func seekKeepsThePlayAndReportsItsTargetUntilTheClockMoves() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        _ = driver.openRequested(duration: 10)
        driver.hear(50)
        _ = driver.story()
        try driver.state.seek(to: 7.5, relative: false, heard: driver.heard)
        #expect(driver.story() == ["flush"], "a seek ends nothing")
        #expect(driver.state.status(heard: driver.heard).position == 7.5)
        _ = driver.openRequested(duration: 10)
        driver.hear(driver.heard + 100)
        #expect(driver.story().isEmpty, "no second start for the same play")
        #expect(abs(driver.state.status(heard: driver.heard).position - 8.5) < 1e-9)
        // Relative, and clamped to the item.
        try driver.state.seek(to: 60, relative: true, heard: driver.heard)
        #expect(abs(driver.state.status(heard: driver.heard).position - 9.999) < 1e-9)
    }

    @Test func aSeekBeforeThePlayStartedStillAnnouncesItsStart() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        try driver.state.seek(to: 2, relative: false, heard: 0)
        _ = driver.openRequested()
        driver.hear(1)
        #expect(driver.story() == ["flush", "flush", "start 1.1"])
    }

    @Test func removingTheCurrentItemOrItsNeighbours() throws {
        let driver = try EngineStateDriver(items: items + [MediaItem(uri: "/d.wav")])
        let ids = driver.ids
        try driver.state.play(id: ids[1])
        let playing = try #require(driver.openRequested())
        driver.hear(0)
        // The one it prefetched (c) is removed: the current play is fed again so d follows it; b goes on.
        driver.open(try #require(driver.state.queue.successor(of: playing)))
        _ = driver.story()
        _ = driver.state.remove([ids[2]], heard: 30)
        #expect(driver.story() == ["flush"], "a re-feed, not an end")
        #expect(driver.state.startRequest?.cursor == playing && driver.state.startRequest?.continuesPlay == true)
        // A neighbour before it: nothing happens to playback.
        _ = driver.openRequested()
        driver.hear(driver.heard)
        _ = driver.state.remove([ids[0]], heard: driver.heard)
        #expect(driver.story().isEmpty)
        // The current item: it ends `removed`, the one that took its place is current at once.
        _ = driver.state.remove([ids[1]], heard: driver.heard)
        #expect(driver.story() == ["end 2.1 removed", "flush"])
        #expect(driver.state.status(heard: driver.heard).currentID == ids[3])
    }

    @Test func stopThenPlayStartsTheStoppedItemAgain() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: driver.ids[1])
        _ = driver.openRequested()
        driver.hear(10)
        driver.state.stop()
        #expect(driver.story() == ["flush", "start 2.1", "end 2.1 stopped", "flush"])
        #expect(driver.state.status.state == .stopped && driver.state.status(heard: 10).currentID == nil)
        try driver.state.play(id: nil)
        #expect(driver.state.status(heard: 10).currentID == driver.ids[1])
        driver.state.pause()
        let actions = driver.state.takeActions()
        #expect(actions.contains(.setAudioPaused(true)))
    }

    @Test func aPassWhereEveryItemFailsStopsWithTheReason() throws {
        let driver = try EngineStateDriver(items: items, queueLoops: 0)
        try driver.state.play(id: nil)
        var cursor = driver.takeRequest()?.cursor
        var attempts = 0
        while let failing = cursor, attempts < 10 {
            cursor = driver.state.openFailed(failing, serial: driver.state.serial, at: 0, error: "broken \(failing.id)")?
                .cursor
            attempts += 1
        }
        #expect(attempts == 3, "one failed open per item, then a stop — no spinning through passes")
        driver.hear(0)
        #expect(
            driver.story() == ["flush", "end 1.1 error", "end 2.1 error", "end 3.1 error"],
            "only ends: nothing was shown or heard")
        #expect(driver.state.status.state == .stopped)
        #expect(driver.state.status.error?.contains("every item in the queue failed") == true)
    }

    @Test func aPlayThatFailedAfterWritingNothingCountsAsFailedToo() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/broken.png")], queueLoops: 0)
        try driver.state.play(id: nil)
        let cursor = try #require(driver.openRequested())
        #expect(driver.write(cursor, frames: 0, failure: "the image could not be decoded") == nil)
        driver.hear(0)
        #expect(driver.story() == ["flush", "end 1.1 error"])
        #expect(driver.state.status.state == .stopped)
    }
}
