// Interrupts as EngineState decisions, driven step by step (see EngineStateDriver): where the splice puts
// the interrupt, which events its plays and the interrupted play get, and where the queue goes back to.

import QueueModel
import Testing

@testable import Playback

extension EngineStateDriver {
    /// The decode thread takes an interrupt's splice request: the audio output still held `unsent` frames
    /// (dropped), so the interrupt's first play opens where they began.
    func spliceRequested(unsent: Int64) -> Cursor? {
        guard state.startRequest?.splice == true, let request = takeRequest() else { return nil }
        let at = max(request.spliceAfter, written - unsent)
        state.spliced(at: at, serial: state.serial)
        written = at
        open(request.cursor)
        state.startHandled(request)
        return request.cursor
    }

    /// Finishes `cursor`'s play after `frames` more and opens what follows as the state says (from its
    /// position, continuing or not).
    @discardableResult
    func finish(_ cursor: Cursor, frames: Int64) -> NextPlay? {
        written += frames
        let next = state.playWritten(cursor, serial: state.serial, endFrame: written, failure: nil)
        if let next { open(next.cursor, offset: next.position, continuesPlay: next.continuesPlay) }
        return next
    }

    func interrupt(_ uri: String = "/urgent.wav", plays: Int = 1) -> ItemID {
        let id = state.queue.reserveID()
        state.interrupt(Interrupt(id: id, item: MediaItem(uri: uri, title: "Urgent"), plays: plays))
        return id
    }
}

@Suite struct InterruptStateTests {
    let items = [MediaItem(uri: "/a.wav", title: "A"), MediaItem(uri: "/b.wav")]

    @Test func anInterruptPlaysItsTimesAndTheInterruptedPlayGoesOnWhereItWas() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 400  // A written to 4.0 s, heard to 3.0 s
        driver.hear(300)
        #expect(driver.story() == ["flush", "start 1.1"])

        let b = driver.interrupt(plays: 2)
        #expect(driver.story().isEmpty, "a splice drops nothing heard: no flush, nothing ends")
        // The output had sent up to 3.1 s: the interrupt goes there, and A resumes from there.
        let first = try #require(driver.spliceRequested(unsent: 90))
        #expect(first == Cursor(id: b, play: 1, pass: 0))
        #expect(driver.finish(first, frames: 50)?.cursor == Cursor(id: b, play: 2, pass: 0))
        let back = try #require(driver.finish(Cursor(id: b, play: 2, pass: 0), frames: 50))
        #expect(back == NextPlay(cursor: a, position: 3.1, continuesPlay: true))

        driver.hear(310)
        #expect(driver.story() == ["start !3.1"], "A is suspended, not ended")
        let status = driver.state.status(heard: 310)
        #expect(status.currentID == b && status.interrupt && status.title == "Urgent" && status.loops == 2)
        driver.hear(360)
        driver.hear(410)
        #expect(driver.story() == ["end !3.1 eof", "start !3.2", "end !3.2 eof"])
        let resumed = driver.state.status(heard: 420)
        #expect(resumed.currentID == a.id && !resumed.interrupt && resumed.play == 1)
        #expect(abs(resumed.position - 3.2) < 1e-9)
        #expect(driver.state.queue.entry(a.id)?.playsDone == 0, "the play count is unchanged")
        // A plays to its end once: one end for its one start.
        driver.finish(a, frames: 690)
        driver.hear(1100)
        #expect(driver.story() == ["end 1.1 eof", "start 2.1"])
        #expect(driver.state.interruptions.isEmpty)
    }

    /// An interrupt withdrawn (an alert cleared) while it is being spliced in, or once placed after what is
    /// heard but not yet heard, is never heard: the interrupted play goes on as the same play, from where the
    /// listener is, its unheard rest written again.
    @Test(arguments: [false, true])
    func anInterruptWithdrawnBeforeItIsHeardNeverPlays(placed: Bool) throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 400
        driver.hear(300)
        #expect(driver.story() == ["flush", "start 1.1"])
        let b = driver.interrupt()
        if placed { _ = try #require(driver.spliceRequested(unsent: 90)) }
        driver.state.withdrawInterrupts([b], heardFrame: 305)
        #expect(driver.story() == ["flush"], "the unheard part is dropped, nothing ends or starts")
        // The decode thread's next request: A again, from where it is heard, as the same play.
        let request = try #require(driver.takeRequest())
        #expect(request.cursor == a && request.continuesPlay && !request.splice)
        #expect(abs(request.position - 3.05) < 1e-9)
        driver.written = driver.heard
        driver.open(request.cursor, offset: request.position, continuesPlay: true, duration: 10)
        driver.state.startHandled(request)
        driver.hear(420)
        #expect(driver.story().isEmpty, "A goes on; B never starts")
        #expect(driver.state.status(heard: 420).currentID == a.id && !driver.state.status(heard: 420).interrupt)
        #expect(driver.state.interruptions.isEmpty)
    }

    /// A synchronized start corks the output until its instant; an interrupt before it calls the start off
    /// and must let the sound go again, or the interrupt would never be heard (and the stall detector end it).
    @Test func anInterruptCallsAnArmedSynchronizedStartOffAndTheSoundGoesOn() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil, at: ScheduledStart(monotonic: 1_000, wall: 2_000_000_000))
        func corked() -> Bool? {
            driver.collect()
            return driver.log.reversed().lazy.compactMap { action -> Bool? in
                if case .setAudioPaused(let paused) = action { paused } else { nil }
            }.first
        }
        #expect(corked() == true)
        #expect(driver.state.status.startsAt == 2_000_000_000)
        let b = driver.interrupt()
        #expect(corked() == false, "the output goes again")
        #expect(driver.state.scheduledStart == nil && driver.state.status.startsAt == nil)
        #expect(driver.state.status.state == .playing)
        #expect(driver.openRequested() == Cursor(id: b, play: 1, pass: 0), "the interrupt is what opens")

        // A pause before the instant leaves it corked.
        let paused = try EngineStateDriver(items: items)
        try paused.state.play(id: nil, at: ScheduledStart(monotonic: 1_000, wall: 2_000_000_000))
        paused.state.pause()
        paused.collect()
        let last = paused.log.reversed().lazy.compactMap { action -> Bool? in
            if case .setAudioPaused(let value) = action { value } else { nil }
        }.first
        #expect(last == true && paused.state.status.state == .paused)
    }

    @Test func aSecondInterruptQueuesBehindTheFirst() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 200
        driver.hear(100)
        let b = driver.interrupt()
        let c = driver.interrupt("/second.wav")
        let first = try #require(driver.spliceRequested(unsent: 50))
        #expect(first.id == b)
        #expect(driver.finish(first, frames: 100)?.cursor == Cursor(id: c, play: 1, pass: 0))
        #expect(driver.finish(Cursor(id: c, play: 1, pass: 0), frames: 100)?.cursor == a)
        driver.hear(500)
        #expect(driver.story() == ["flush", "start 1.1", "start !3.1", "end !3.1 eof", "start !4.1", "end !4.1 eof"])
    }

    @Test func nextSkipsTheInterruptAndStopEndsTheInterruptedPlayToo() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 200
        driver.hear(100)
        let b = driver.interrupt(plays: 3)
        _ = try #require(driver.spliceRequested(unsent: 0))
        driver.written += 50
        driver.hear(220)
        _ = driver.story()
        // next: the rest of the interrupt is dropped, A goes on where it was (no second start).
        try driver.state.next()
        #expect(driver.story() == ["end !3.1 skipped", "flush"])
        let request = try #require(driver.state.startRequest)
        #expect(request.cursor == a && request.continuesPlay && abs(request.position - 2.0) < 1e-9)
        _ = driver.openRequested()
        driver.hear(230)
        #expect(driver.story().isEmpty)

        driver.written += 30
        // A second interrupt, then stop: both the interrupt and the play it interrupted end, stopped.
        let c = driver.interrupt()
        _ = try #require(driver.spliceRequested(unsent: 0))
        driver.written += 50
        driver.hear(260)
        driver.state.stop()
        #expect(driver.story() == ["start !\(c).1", "end !\(c).1 stopped", "end 1.1 stopped", "flush"])
        #expect(driver.state.phase == .stopped(resume: Cursor(id: a.id, play: 1, pass: a.pass), error: nil), "play starts the interrupted item again, not the interrupt")
        #expect(driver.state.interruptions.isEmpty)
        _ = b
    }

    @Test func anInterruptWhileIdlePlaysAndGoesIdleAgain() throws {
        let driver = try EngineStateDriver(items: items)
        let b = driver.interrupt()
        #expect(driver.state.status.state == .playing)
        let first = try #require(driver.openRequested())
        #expect(first.id == b)
        #expect(driver.finish(first, frames: 100) == nil)
        driver.hear(100)
        #expect(driver.story() == ["flush", "start !3.1", "end !3.1 eof"])
        #expect(driver.state.status.state == .idle)
    }

    @Test func theRecordedPlayDuringAnInterruptIsTheInterruptedOne() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 300
        driver.hear(200)
        _ = driver.interrupt()
        _ = try #require(driver.spliceRequested(unsent: 50))
        driver.written += 20
        driver.hear(260)
        let snapshot = driver.state.playerSnapshot(heard: 260)
        #expect(snapshot.current == a && abs(snapshot.position - 2.5) < 1e-9)
        #expect(!driver.state.playerDiffers(from: snapshot))
    }
}

extension InterruptStateTests {
    @Test func removingTheInterruptedItemEndsItsPlayAndTheQueueGoesOnAfterIt() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        driver.written = 300
        driver.hear(200)
        let b = driver.interrupt()
        let first = try #require(driver.spliceRequested(unsent: 50))
        driver.written += 50
        driver.hear(260)
        _ = driver.story()
        _ = driver.state.remove([a.id], heard: 260)
        #expect(driver.story() == ["end 1.1 removed"])
        let next = try #require(driver.finish(first, frames: 0))
        #expect(next.cursor.id == driver.ids[0] && next.position == 0 && !next.continuesPlay)
        driver.hear(400)
        #expect(driver.story() == ["end !\(b).1 eof", "start 2.1"])
    }
}
