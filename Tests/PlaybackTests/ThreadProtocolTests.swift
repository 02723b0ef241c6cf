// The threads' half of the engine's protocol, without threads: the driver asks `decoderNext` and
// `presenterNext` exactly as DecodeLoop.run and Presenter.nextAction do, and each story checks what the
// state answers — requests taken once, a replaced thread leaving, the picture hand-off between plays, late
// pictures counted as dropped, video settings handed over once, black and the schedule fallback shown once,
// the picture after the dark, an armed start waited for, spun to and let go — and the phase the state is in along the way.

import Media
import QueueModel
import Testing

@testable import Playback

extension EngineStateDriver {
    /// Opens the requested play as one with pictures.
    func openRequestedWithPictures() -> Cursor? {
        guard let request = takeRequest() else { return nil }
        written = heard
        let segment = Segment(
            serial: state.serial, cursor: request.cursor, startFrame: written, itemOffset: request.position,
            duration: nil, showsVideo: true, continuesPlay: request.continuesPlay)
        let accepted = state.playOpened(segment, knownDuration: nil)
        #expect(accepted)
        return request.cursor
    }

    /// The decode thread queues pictures of `cursor`'s play at these timeline seconds.
    func queuePictures(_ cursor: Cursor, at times: [Double]) throws {
        for time in times {
            let frame = try #require(VideoFrame.solid(width: 2, height: 2, y: 128, u: 128, v: 128, pts: time))
            state.frames.append(TimedFrame(serial: state.serial, cursor: cursor, time: time, frame: frame))
        }
    }

    /// The presenter asks what to show with the listener at `frame`; a picture it shows is reported
    /// presented, as Presenter.present does.
    func present(heard frame: Int64, now: Double = 0, screen: inout ScreenShows) -> PresenterStep {
        heard = frame
        let step = state.presenterNext(heard: frame, now: now, wallClock: 0, screen: &screen)
        if case .show(let timed, _) = step {
            state.picturePresented(serial: timed.serial, cursor: timed.cursor, wallClock: 0)
        }
        collect()
        return step
    }
}

/// The picture a step shows (its timeline second), or nil.
private func shownTime(_ step: PresenterStep) -> Double? {
    if case .show(let timed, _) = step { return timed.time }
    return nil
}

@Suite struct ThreadProtocolTests {
    let items = [MediaItem(uri: "/a.mp4", title: "A"), MediaItem(uri: "/b.mp4")]

    @Test func theDecodeThreadTakesARequestOnceFeedsItsPlayAndLeavesWhenReplaced() throws {
        let driver = try EngineStateDriver(items: items)
        let generation = driver.state.decoderGeneration
        #expect(driver.state.decoderNext(generation: generation, serial: -1, activeSerial: nil) == .idle(wait: 0.5))
        try driver.state.play(id: nil)
        let request = try #require(driver.takeRequest())
        // Taken, not yet opened: asked again, the same thread has nothing new, and the request is still what
        // is about to play for every command.
        #expect(
            driver.state.decoderNext(generation: generation, serial: request.serial, activeSerial: nil)
                == .idle(wait: 0.5))
        #expect(driver.state.current?.cursor == request.cursor && driver.state.current?.segment == nil)
        driver.open(request.cursor)
        #expect(driver.state.phase.run?.feed == .feeding)
        #expect(driver.state.current?.segment?.cursor == request.cursor)
        #expect(
            driver.state.decoderNext(generation: generation, serial: request.serial, activeSerial: request.serial)
                == .feed)
        // A cut makes the active play stale: the next answer is the new request.
        try driver.state.next()
        guard case .begin(let next) = driver.state.decoderNext(
            generation: generation, serial: request.serial, activeSerial: request.serial)
        else {
            Issue.record("a cut's request is begun")
            return
        }
        #expect(next.cursor.id == driver.ids[1] && next.serial > request.serial)
        // A stalled thread replaced by a newer one leaves at its next question; so does every thread at shutdown.
        let abandoned = driver.state.abandonStalledPlay(message: "stuck")
        #expect(abandoned)
        #expect(driver.state.decoderNext(generation: generation, serial: next.serial, activeSerial: nil) == .leave)
        driver.state.shuttingDown = true
        #expect(
            driver.state.decoderNext(generation: driver.state.decoderGeneration, serial: -1, activeSerial: nil)
                == .leave)
    }

    @Test func theFirstPictureOfTheNextPlayEndsThePreviousOneAndStartsItsOwn() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequestedWithPictures())
        try driver.queuePictures(a, at: [0, 0.04])
        _ = driver.story()
        // Heard, but a play with pictures starts with its first picture.
        driver.hear(0)
        #expect(driver.story().isEmpty)
        #expect(shownTime(driver.present(heard: 0, screen: &screen)) == 0)
        #expect(driver.story() == ["start 1.1"])
        #expect(screen.black == false)
        // A is written to frame 8; B opens right after it, its picture at 0.08 s.
        let b = try #require(driver.write(a, frames: 8))
        try driver.queuePictures(b, at: [0.08])
        #expect(shownTime(driver.present(heard: 4, screen: &screen)) == 0.04)
        #expect(driver.story().isEmpty, "A's second picture starts nothing")
        #expect(shownTime(driver.present(heard: 8, screen: &screen)) == 0.08)
        #expect(driver.story() == ["end 1.1 eof", "start 2.1"], "B's first picture ends A, then starts B")
        #expect(driver.state.startedPlay == b)
    }

    @Test func picturesAlreadyLateAreSkippedAndCountedAsDropped() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequestedWithPictures())
        try driver.queuePictures(a, at: [0, 0.04, 0.08, 0.12, 0.16])
        #expect(shownTime(driver.present(heard: 0, screen: &screen)) == 0)
        // The listener jumped to 0.125 s: 0.04 and 0.08 are late, 0.12 is due.
        let step = driver.present(heard: 12, screen: &screen)
        guard case .show(let timed, let dropped) = step else {
            Issue.record("a due picture is shown")
            return
        }
        #expect(timed.time == 0.12 && dropped == 2)
        #expect(driver.state.status.droppedFrames == 2)
        // Nothing due until 0.16 s: wait no longer than that.
        guard case .wait(let seconds) = driver.present(heard: 13, screen: &screen) else {
            Issue.record("nothing due: the presenter waits")
            return
        }
        #expect(seconds > 0 && seconds <= 0.03 + 1e-9)
        #expect(driver.state.frames.count == 1 && driver.state.status.droppedFrames == 2)
    }

    @Test func videoSettingsAreHandedOverOnceBeforeAnythingElse() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        driver.state.setFit(.fill)
        driver.state.setRotation(.clockwise90)
        guard case .configure(let change) = driver.present(heard: 0, screen: &screen) else {
            Issue.record("settings go to the presenter first")
            return
        }
        #expect(change == DisplayChange(fit: .fill, fullscreen: nil, rotation: .clockwise90))
        guard case .wait = driver.present(heard: 0, screen: &screen) else {
            Issue.record("handed over once")
            return
        }
        #expect(driver.state.pendingDisplay.isEmpty)
    }

    @Test func blackIsShownOnceWhenPlaybackStops() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        guard case .wait = driver.present(heard: 0, screen: &screen) else {
            Issue.record("idle at start: the screen is black already")
            return
        }
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequestedWithPictures())
        try driver.queuePictures(a, at: [0])
        _ = driver.present(heard: 0, screen: &screen)
        driver.state.stop()
        guard case .black = driver.present(heard: 1, screen: &screen) else {
            Issue.record("stopped: black")
            return
        }
        guard case .wait = driver.present(heard: 1, screen: &screen) else {
            Issue.record("black once")
            return
        }
        #expect(driver.state.phase == .stopped(resume: a, error: nil))
    }

    /// The state decides what the screen shows after the dark: a paused play's picture again (the play on
    /// screen is still the current one); after a stop, black.
    @Test func aScreenWokenShowsThePausedPlaysPictureAgainAndBlackAfterAStop() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequestedWithPictures())
        try driver.queuePictures(a, at: [0])
        #expect(shownTime(driver.present(heard: 0, screen: &screen)) == 0)
        driver.state.pause()
        /// The screen off, then on (`meanwhile` done in the dark): whether the wake shows the picture again.
        func night(_ meanwhile: () -> Void = {}) -> Bool? {
            driver.state.setScreenPower(.off)
            guard case .darken = driver.present(heard: 1, screen: &screen) else { return nil }
            meanwhile()
            driver.state.setScreenPower(.on)
            guard case .wake(_, let reshow) = driver.present(heard: 1, screen: &screen) else { return nil }
            return reshow
        }
        var inTheDark: ScreenShows?
        let first = night { inTheDark = screen }
        #expect(inTheDark?.black == true && inTheDark?.beforeDark == a)
        #expect(first == true && !screen.black, "the paused picture is shown again")
        // The next night too: the picture shown again is the one on screen.
        #expect(night() == true && !screen.black, "a second dark shows the paused picture again too")
        #expect(night { driver.state.stop() } == false && screen.black, "stopped in the dark: black after it")
    }

    /// The entering play's first picture is at its start frame divided by the rate; multiplied back in
    /// floating point that can fall just short of the frame (29 / 100 × 100 = 28.999…), and the picture
    /// missed its own crossfade — it came in alone and the leaving picture never went over it (seen under
    /// load, when the first play started a few frames in).
    @Test func theEnteringPlaysFirstPictureFindsItsCrossfadeWhateverItsStartFrame() throws {
        let driver = try EngineStateDriver(items: items)
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequestedWithPictures())
        #expect(29.0 / 100 * 100 < 29, "the rounding this story is about")
        var entering = Segment(
            serial: driver.state.serial, cursor: Cursor(id: driver.ids[1], play: 1, pass: a.pass), startFrame: 29, itemOffset: 0,
            duration: nil, showsVideo: true, continuesPlay: false)
        entering.overlapFrames = 20
        driver.state.segments.append(entering)
        let overlap = driver.state.crossfade(at: 29.0 / 100)
        #expect(overlap?.leaving == a && overlap?.entering == entering.cursor && overlap?.mix == 0)
        #expect(driver.state.crossfade(at: 39.0 / 100)?.mix == 0.5)
        #expect(driver.state.crossfade(at: 49.0 / 100) == nil, "past the overlap")
    }

    @Test func anArmedStartIsWaitedForSpunToAndLetGo() throws {
        let driver = try EngineStateDriver(items: items)
        var screen = ScreenShows()
        try driver.state.play(id: nil, at: ScheduledStart(monotonic: 100, wall: 1_800_000_000))
        #expect(driver.state.phase.run?.motion == .armed(ScheduledStart(monotonic: 100, wall: 1_800_000_000)))
        #expect(driver.state.status.state == .playing && driver.state.status.startsAt == 1_800_000_000)
        _ = driver.openRequested()
        driver.collect()
        driver.log.removeAll()
        guard case .wait(let seconds) = driver.present(heard: 0, now: 99, screen: &screen) else {
            Issue.record("far from the instant: a timed wait")
            return
        }
        #expect(seconds <= 0.01)
        guard case .spin(let until) = driver.present(heard: 0, now: 99.999, screen: &screen) else {
            Issue.record("within 2 ms: a spin")
            return
        }
        #expect(until == 100)
        #expect(!driver.log.contains(.setAudioPaused(false)), "still corked before the instant")
        _ = driver.present(heard: 0, now: 100, screen: &screen)
        #expect(driver.log.contains(.setAudioPaused(false)))
        #expect(driver.state.phase.run?.motion == .playing && driver.state.status.startsAt == nil)
        #expect(driver.story().contains("start 1.1"))
    }

    @Test func thePhaseSaysWhatPlaybackDoesAndTheStatusReportsIt() throws {
        let driver = try EngineStateDriver(items: items)
        #expect(driver.state.phase == .idle && driver.state.current == nil)
        try driver.state.play(id: nil)
        let request = try #require(driver.state.startRequest)
        #expect(driver.state.phase == .running(PlaybackRun(motion: .playing, feed: .requested(request))))
        let a = try #require(driver.openRequested())
        driver.hear(1)
        #expect(driver.state.phase.run?.started == a)
        driver.state.pause()
        #expect(driver.state.phase.run?.motion == .paused && driver.state.status.state == .paused)
        // Armed while paused, then paused again: the armed start is called off, nothing is left armed.
        try driver.state.play(id: nil, at: ScheduledStart(monotonic: 5, wall: 5))
        driver.state.pause()
        #expect(driver.state.scheduledStart == nil && driver.state.status.startsAt == nil)
        driver.state.stop()
        #expect(driver.state.phase == .stopped(resume: a, error: nil) && driver.state.status.state == .stopped)
        #expect(driver.state.startRequest == nil && driver.state.current == nil)
        // The last play written: the run is complete, and idle once it has been heard.
        try driver.state.play(id: driver.ids[1])
        let b = try #require(driver.openRequested())
        #expect(driver.write(b, frames: 10) == nil)
        #expect(driver.state.phase.run?.feed == .complete(error: nil))
        driver.hear(driver.heard + 1)
        #expect(driver.state.phase.run != nil, "not yet heard to its end")
        driver.hear(driver.written)
        #expect(driver.state.phase == .idle && driver.state.status.state == .idle)
    }
}
