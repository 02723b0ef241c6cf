// The threads' half of the protocol, as decisions: the decode thread and the presenter thread each ask
// what to do next (`decoderNext`, `presenterNext`), under the lock, and carry the answer out after it —
// opening, feeding, showing, waiting. What they must remember between questions (the decode thread's
// serial and active play, what the presenter's screen shows) they pass in, so EngineStateTests drive both
// sides without threads, through these same methods.

import Media
import Overlays
import QueueModel

/// What the decode thread does next.
enum DecoderStep: Equatable {
    /// The engine shuts down, or a newer decode thread took over: leave.
    case leave
    /// Start this request (a cut, a seek, an interrupt's splice): open its play.
    case begin(StartRequest)
    /// Go on writing the active play.
    case feed
    /// Nothing to write: drop the active play (stale) and wait up to this many seconds for a change.
    case idle(wait: Double)
    /// The screen is off: keep the active play open, write nothing, wait up to this many seconds.
    case hold(wait: Double)
}

/// What the presenter thread does next.
enum PresenterStep {
    /// The engine shuts down.
    case leave
    /// Apply these video settings (only the presenter talks to the video sink).
    case configure(DisplayChange)
    /// Show this picture now; `dropped` pictures before it were already late and are skipped.
    case show(TimedFrame, dropped: Int)
    /// Nothing plays: black.
    case black
    /// Every item is outside its schedule: the configured fallback (black, the last picture left up, or a
    /// still).
    case fallback(ScheduleFallback)
    /// A synchronized start is due within a couple of milliseconds: wait it out precisely, unlocked.
    case spin(until: Double)
    /// Nothing is due: wait up to this many seconds (woken early by any change that concerns the presenter).
    case wait(Double)
    /// Draw the picture on screen again, under `ScreenShows.veil` and with its `motion` (a fade moving over a
    /// still or between a video's pictures, a still gliding).
    case redraw
    /// The screen goes off: black, no overlays; `tellScreen`: the video output puts the screen to sleep.
    case darken(tellScreen: Bool)
    /// The screen is on again: wake it (`tellScreen`) and, with `reshow`, show the picture it had before
    /// (the play on screen then is still the current one: a paused play); otherwise it stays black.
    case wake(tellScreen: Bool, reshow: Bool)
}

/// What the presenter's screen shows, as far as the decisions care. Owned by the presenter thread (or a
/// test driver); updated by `presenterNext` as it decides.
struct ScreenShows: Equatable {
    var black = true
    /// The schedule fallback is on screen (shown once per wait).
    var fallback = false
    /// The screen is off (darkened once per off).
    var dark = false
    /// The play whose picture was on screen when it went dark (nil: none, or the screen is on).
    var beforeDark: Cursor?
    /// The play and item time of the picture last shown (nil: black), which overlays describe.
    var shownItem: ShownItem?
    /// The overlays to draw and the play they describe (EngineState.noteOverlays).
    var overlays = OverlaySet()
    var overlayItem: PlayingItem?
    /// A play's picture on screen and how it was last drawn (nil: none, black or the fallback).
    var picture: ShownPicture?
    /// In a crossfade: the leaving play's last picture, drawn over `picture` (the entering play's) at
    /// 1 - `mix` (nil: none).
    var leaving: ShownPicture?
    /// How far the crossfade on screen has gone, 0 to 1 (nil: none).
    var mix: Double?

    /// The veil over the picture on screen (nil: none).
    var veil: PictureVeil? { picture?.veil }
    /// The part of a moving still in view (nil: the whole picture).
    var motion: MotionFrame? { picture?.motion }
    /// It is redrawn at display rate while anything on it moves.
    var moves: Bool { picture?.moves == true || mix != nil }
    /// What the video sink draws over the picture (nil: no crossfade).
    var crossfade: CrossfadeLayer? {
        mix.map { CrossfadeLayer(leaving: leaving?.frame?.frame, motion: leaving?.motion, mix: $0) }
    }

    /// Nothing of a play on screen (black, the fallback, the dark).
    mutating func clearPicture() {
        picture = nil
        leaving = nil
        mix = nil
    }
}

/// The play and item time of a picture shown.
struct ShownItem: Equatable {
    var cursor: Cursor
    var time: Double
}

/// A picture kept by identity (a decision compares which picture, never its pixels).
struct FrameRef: Equatable {
    let frame: VideoFrame
    init(_ frame: VideoFrame) { self.frame = frame }
    static func == (left: FrameRef, right: FrameRef) -> Bool { left.frame === right.frame }
}

/// The play a picture on screen belongs to, the veil it is drawn under, the part of it in view, and when it
/// was last drawn (monotonic seconds).
struct ShownPicture: Equatable {
    var cursor: Cursor
    var serial: Int
    var veil: PictureVeil?
    var motion: MotionFrame?
    var drawnAt: Double
    /// The picture itself, kept while it may become a crossfade's leaving picture.
    var frame: FrameRef?

    /// It is redrawn at display rate while either moves.
    var moves: Bool { veil != nil || motion != nil }
}

extension EngineState {
    // MARK: The decode thread

    /// The decode thread of `generation`, working for `serial` with an active play of `activeSerial` (nil:
    /// none), asks what to do. A start request is the thread's until its play is opened (it stays what is
    /// current meanwhile); while idle, a schedule window that opens starts the play waiting for it.
    mutating func decoderNext(generation: Int, serial: Int, activeSerial: Int?) -> DecoderStep {
        if shuttingDown || decoderGeneration != generation { return .leave }
        // Nothing decodes for a dark screen; a start asked meanwhile is taken once it is on.
        if !status.display.on { return .hold(wait: 0.5) }
        if let request = startRequest, request.serial > serial { return .begin(request) }
        if activeSerial == self.serial { return .feed }
        // Reading the local time is a computation, not a wait: it may run under the lock.
        resumeIfScheduleOpens()
        if let request = startRequest, request.serial > serial { return .begin(request) }
        return .idle(wait: 0.5)
    }

    /// The decode thread finished `request`'s start: if it did not open a play (the item went away
    /// meanwhile), nothing more will come of it and the run ends once what was heard is over.
    mutating func startHandled(_ request: StartRequest) {
        guard startRequest == request else { return }
        updateRun { $0.feed = .complete(error: nil) }
    }

    // MARK: The presenter thread

    /// The presenter asks what to show, the listener at timeline frame `heard`; `now` is monotonic seconds
    /// and `wallClock` Unix seconds (for itemStarted). Tells the state what the listener reached, counts
    /// pictures dropped for being late, and hands over video settings once.
    mutating func presenterNext(heard: Int64, now: Double, wallClock: Double, screen: inout ScreenShows) -> PresenterStep {
        let step = nextPresenterStep(heard: heard, now: now, wallClock: wallClock, screen: &screen)
        // The picture last shown (overlays describe it; a wake shows it again) outlives a reshow after a dark.
        switch step {
        case .show(let timed, _): screen.shownItem = ShownItem(cursor: timed.cursor, time: timed.frame.pts)
        case .black: screen.shownItem = nil
        case .wake(_, let reshow): if !reshow { screen.shownItem = nil }
        default: break
        }
        return step
    }

    private mutating func nextPresenterStep(
        heard: Int64, now: Double, wallClock: Double, screen: inout ScreenShows
    ) -> PresenterStep {
        if shuttingDown { return .leave }
        screenPowerTick()
        if !status.display.on {
            if !screen.dark {
                screen.dark = true
                // The picture last shown, which a reshow after an earlier dark leaves on screen too.
                screen.beforeDark = screen.black ? nil : screen.shownItem?.cursor
                screen.black = true
                screen.fallback = false  // drawn again after the dark if still due
                screen.clearPicture()
                return .darken(tellScreen: screenToldByPresenter)
            }
            // Woken at once by `display.power`; the schedule's edge is kept to half a second.
            return .wait(0.5)
        }
        if screen.dark {
            screen.dark = false
            let reshow = screen.beforeDark != nil && screen.beforeDark == current?.cursor
            screen.beforeDark = nil
            screen.black = !reshow
            return .wake(tellScreen: screenToldByPresenter, reshow: reshow)
        }
        if !pendingDisplay.isEmpty {
            defer { pendingDisplay = DisplayChange() }
            return .configure(pendingDisplay)
        }
        if let start = scheduledStart {
            // A timed wait is only as exact as the scheduler: wait to 2 ms before, then spin.
            let remaining = start.monotonic - now
            if remaining > 0.002 { return .wait(min(0.01, remaining - 0.002)) }
            if remaining > 0 { return .spin(until: start.monotonic) }
            releaseScheduledStart()
        }
        listenerReached(heard, wallClock: wallClock)
        let state = status.state
        if status.waitingForSchedule && frames.isEmpty {
            if !screen.fallback {
                screen.fallback = true
                switch scheduleFallback {
                case .black:
                    screen.black = true
                    screen.clearPicture()
                case .lastPicture: break  // the picture and what the screen knows of it stay
                case .still:
                    screen.black = false
                    screen.clearPicture()
                }
                return .fallback(scheduleFallback)
            }
        } else {
            screen.fallback = false
        }
        if (state == .idle || state == .stopped) && frames.isEmpty && !screen.black {
            screen.black = true
            screen.clearPicture()
            return .black
        }
        // A stream down whose item says `onStall: black`: black until its pictures come back (`show`). Its
        // pictures decoded ahead of its last sound may wait there, never due while it is down.
        if !screen.black, let shown = screen.picture?.cursor,
            segments.contains(where: { $0.cursor == shown && $0.blackWhileDown && $0.stream?.down == true }),
            frames.allSatisfy({ $0.cursor == shown && $0.time > Double(heard) / sampleRate + 0.001 })
        {
            screen.black = true
            screen.clearPicture()
            return .black
        }
        let heardTime = Double(heard) / sampleRate
        guard let head = frames.first, state != .paused else {
            if let redraw = moveLook(at: heardTime, now: now, screen: &screen) { return redraw }
            // Nothing to show: wake at 100 Hz while playing (to announce what is heard), 20 Hz otherwise.
            return .wait(idleWait(state == .playing ? 0.01 : 0.05, moving: screen.moves))
        }
        if untimed {
            wakeWaiters = true  // room for the decode thread
            return show(frames.removeFirst(), dropped: 0, now: now, screen: &screen)
        }
        guard head.time <= heardTime + 0.001 else {
            if let redraw = moveLook(at: heardTime, now: now, screen: &screen) { return redraw }
            let wait = min(0.01, head.time - heardTime)
            return .wait(screen.moves ? min(wait, Self.veilInterval) : wait)
        }
        wakeWaiters = true  // room for the decode thread
        var dueFrames = [frames.removeFirst()]
        while let next = frames.first, next.time <= heardTime + 0.001 { dueFrames.append(frames.removeFirst()) }
        // In a crossfade whose entering play is on screen (or due), the leaving play's pictures go over it.
        // (A picture is due a millisecond early: look where the latest one due is, too.)
        let overlap = crossfade(at: max(heardTime, dueFrames.last?.time ?? heardTime))
        let blending =
            overlap.map { overlap in
                screen.picture?.cursor == overlap.entering || dueFrames.contains { $0.cursor == overlap.entering }
            } ?? false
        var due: TimedFrame?
        var leavingDue: TimedFrame?
        var dropped = 0
        for frame in dueFrames {
            if blending && frame.cursor == overlap?.leaving {
                if leavingDue != nil { dropped += 1 }
                leavingDue = frame
            } else {
                if due != nil { dropped += 1 }
                due = frame
            }
        }
        if dropped > 0 { status.droppedFrames += dropped }
        if let leavingDue {
            screen.leaving = shownPicture(leavingDue, at: heardTime, now: now)
        } else if blending, screen.leaving == nil, let shown = screen.picture, shown.cursor == overlap?.leaving {
            screen.leaving = shown  // the leaving play's picture on screen goes over the entering one's
        }
        guard let due else {
            // Only the leaving picture changed: draw both again.
            screen.mix = overlap?.mix
            screen.picture?.drawnAt = now
            return .redraw
        }
        return show(due, dropped: dropped, now: now, screen: &screen)
    }

    /// Puts `due` on screen, with the veil and view its play has at its time, and the crossfade it is in.
    private func show(_ due: TimedFrame, dropped: Int, now: Double, screen: inout ScreenShows) -> PresenterStep {
        screen.black = false
        let before = screen.picture
        screen.picture = shownPicture(due, at: due.time, now: now)
        if let overlap = crossfade(at: due.time), overlap.entering == due.cursor {
            // The entering play's first picture: the leaving one's on screen goes over it.
            if screen.leaving == nil, let before, before.cursor == overlap.leaving { screen.leaving = before }
            screen.mix = overlap.mix
        } else {
            screen.leaving = nil
            screen.mix = nil
        }
        return .show(due, dropped: dropped)
    }

    private func shownPicture(_ timed: TimedFrame, at time: Double, now: Double) -> ShownPicture {
        ShownPicture(
            cursor: timed.cursor, serial: timed.serial,
            veil: fadeWindow(for: timed.cursor, serial: timed.serial)?.veil(at: time),
            motion: motionFrame(for: timed.cursor, serial: timed.serial, at: time), drawnAt: now,
            frame: FrameRef(timed.frame))
    }

    /// How often a moving veil redraws the picture under it: the display's rate.
    static let veilInterval = 1.0 / 60

    /// The picture on screen under the veil and with the view it should have at `heardTime`: a redraw when
    /// either changed and the last one is a display interval old (a still fading out or gliding, a fade
    /// between a video's pictures).
    private func moveLook(at heardTime: Double, now: Double, screen: inout ScreenShows) -> PresenterStep? {
        guard !untimed, var picture = screen.picture else { return nil }
        let veil = fadeWindow(for: picture.cursor, serial: picture.serial)?.veil(at: heardTime)
        let motion = motionFrame(for: picture.cursor, serial: picture.serial, at: heardTime)
        // The crossfade goes on while the entering play's picture is on screen, over its overlap.
        let overlap = crossfade(at: heardTime).flatMap { $0.entering == picture.cursor ? $0 : nil }
        var leaving = overlap == nil ? nil : screen.leaving
        if let shown = leaving {
            leaving?.motion = motionFrame(for: shown.cursor, serial: shown.serial, at: heardTime)
        }
        let ended = (veil == nil && picture.veil != nil) || (overlap == nil && screen.mix != nil)
        guard veil != picture.veil || motion != picture.motion || overlap?.mix != screen.mix,
            now - picture.drawnAt >= Self.veilInterval || ended
        else { return nil }
        picture.veil = veil
        picture.motion = motion
        picture.drawnAt = now
        screen.picture = picture
        screen.leaving = leaving
        screen.mix = overlap?.mix
        return .redraw
    }

    /// The crossfade the listener is in at `time` (timeline seconds): the two plays and how far it has gone.
    func crossfade(at time: Double) -> (leaving: Cursor, entering: Cursor, mix: Double)? {
        // To the nearest frame: the entering play's first picture is at startFrame / rate, which times the
        // rate is not always startFrame again in floating point (29 / 100 × 100 = 28.999…): it would miss its
        // own crossfade and come in without the leaving picture over it.
        let frame = (time * sampleRate).rounded()
        guard
            let index = segments.lastIndex(where: {
                $0.serial == serial && $0.overlapFrames > 0 && Double($0.startFrame) <= frame
                    && frame < Double($0.startFrame + $0.overlapFrames)
            }),
            let leaving = segments[..<index].last(where: { $0.serial == serial })
        else { return nil }
        let entering = segments[index]
        return (leaving.cursor, entering.cursor, (frame - Double(entering.startFrame)) / Double(entering.overlapFrames))
    }

    /// The wait while nothing is due: a moving overlay (a ticker), veil or still wants redraws at display rate.
    private func idleWait(_ seconds: Double, moving: Bool = false) -> Double {
        overlays.animates || moving ? min(seconds, Self.veilInterval) : seconds
    }
}
