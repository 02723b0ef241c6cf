// The presenter thread: the video sink's one thread (SDL wants all its calls on one thread). It shows
// each queued picture when the master clock (the audio sink's heard position) reaches its time,
// dropping pictures that are already late, and tells EngineState where the listener is and which picture
// is on screen (the state announces item started / ended, progress, the end of the queue). Owns the video
// sink.

import Foundation
import Glibc
import Media
import Overlays
import QueueModel
import SystemClock

final class Presenter: @unchecked Sendable {
    private let engine: PlayerEngine
    private var core: EngineCore { engine.core }
    private var rate: Double { Double(engine.audio.format.sampleRate) }
    private var lastPump = 0.0
    private var showingBlack = true
    /// The schedule fallback is on screen (shown once per wait).
    private var showingFallback = false
    private var reportedClose = false
    /// The overlays and their item as last handed to the video sink.
    private var sentOverlays = OverlaySet()
    private var sentPlaying: PlayingItem?
    /// What the next action shows them with (set under the lock by `nextAction`).
    private var overlays = OverlaySet()
    private var playing: PlayingItem?
    /// The play and item time of the picture on screen (nil: black).
    private var shown: (cursor: Cursor, time: Double)?

    init(engine: PlayerEngine) {
        self.engine = engine
    }

    func run(opened: OpenResult) {
        // Pictures are due to the millisecond: ask for a better scheduling priority (allowed for root or
        // with CAP_SYS_NICE / an rlimit; otherwise nothing changes).
        // On Linux the nice value is per thread, and who = 0 means the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10)
        if let video = engine.video {
            do {
                try video.open()
                video.showBlack()
            } catch {
                opened.fail(error)
                return
            }
        }
        opened.succeed()
        while let action = nextAction() {
            if let video = engine.video, overlays != sentOverlays || playing != sentPlaying {
                video.setOverlays(overlays, playing: playing)
                sentOverlays = overlays
                sentPlaying = playing
            }
            switch action {
            case .show(let timed): present(timed)
            case .black:
                engine.video?.showBlack()
                showingBlack = true
            case .fallback:
                showingFallback = true
                switch engine.config.scheduleFallback {
                case .black:
                    engine.video?.showBlack()
                    showingBlack = true
                case .lastPicture: break
                case .still(let frame):
                    engine.video?.show(frame)
                    showingBlack = false
                }
            case .configure(let change):
                if let fit = change.fit { engine.video?.setFit(fit) }
                if let fullscreen = change.fullscreen { engine.video?.setFullscreen(fullscreen) }
                if let rotation = change.rotation { engine.video?.setRotation(rotation) }
            case .spin(let deadline):
                while Monotonic.now() < deadline { sched_yield() }
            case .idle: break
            }
            let now = Monotonic.now()
            if now - lastPump >= 0.01, let video = engine.video {
                video.pump()
                lastPump = now
                if video.closeRequested && !reportedClose {
                    reportedClose = true
                    engine.config.onWindowClosed?()
                }
            }
        }
        engine.video?.close()
    }

    private enum Action {
        case show(TimedFrame)
        case black
        /// Every item is outside its schedule: the configured fallback picture.
        case fallback
        case configure(DisplayChange)
        /// A synchronized start is due within a couple of milliseconds: wait it out precisely, unlocked.
        case spin(until: Double)
        case idle
    }

    /// Under the lock: tells the state what the listener has reached, then picks the picture due now, or waits
    /// a little (woken early by any state change), and notes the overlays to draw with it. nil once the
    /// engine shuts down.
    private func nextAction() -> Action? {
        core.lock()
        defer { core.unlock() }
        guard let action = decideLocked() else { return nil }
        switch action {
        case .show(let timed): shown = (timed.cursor, timed.frame.pts)
        case .black: shown = nil
        default: break
        }
        overlays = core.state.overlays
        // Without overlays nothing needs the playing item: the loop does no more work than before them.
        guard !overlays.isEmpty else { return action }
        if case .show(let timed) = action {
            let duration = core.state.segments.first { $0.cursor == timed.cursor }?.duration
            playing = core.state.playingItem(timed.cursor, position: timed.frame.pts, duration: duration)
        } else {
            let now = core.state.overlayItemWithoutPicture(heard: engine.audio.playedFrames())
            if !now.keepsPictureItem {
                playing = now.item
            } else if let heard = now.item, heard.id == shown?.cursor.id.rawValue {
                playing = heard
            } else if let shown, playing?.id != shown.cursor.id.rawValue {
                playing = core.state.playingItem(shown.cursor, position: shown.time, duration: nil)
            }
        }
        return action
    }

    /// The wait while nothing is due: a moving overlay (a ticker) wants redraws at display rate.
    private func idleWait(_ seconds: Double) -> Double {
        core.state.overlays.animates ? min(seconds, 1.0 / 60) : seconds
    }

    private func decideLocked() -> Action? {
        if core.state.shuttingDown { return nil }
        if !core.state.pendingDisplay.isEmpty {
            defer { core.state.pendingDisplay = DisplayChange() }
            return .configure(core.state.pendingDisplay)
        }
        if let start = core.state.scheduledStart {
            // A timed wait is only as exact as the scheduler: wait to 2 ms before, then spin.
            let remaining = start.monotonic - Monotonic.now()
            if remaining > 0.002 {
                core.wait(timeout: min(0.01, remaining - 0.002))
                return .idle
            }
            if remaining > 0 { return .spin(until: start.monotonic) }
            core.state.releaseScheduledStart()
        }
        let heard = engine.audio.playedFrames()
        core.state.listenerReached(heard, wallClock: Monotonic.wallClock())
        let state = core.state.status.state
        if core.state.status.waitingForSchedule && core.state.frames.isEmpty {
            if !showingFallback { return .fallback }
        } else {
            showingFallback = false
        }
        if (state == .idle || state == .stopped) && core.state.frames.isEmpty && !showingBlack {
            return .black
        }
        guard let head = core.state.frames.first, state != .paused else {
            // Nothing to show: wake at 100 Hz while playing (to announce what is heard), 20 Hz otherwise.
            core.wait(timeout: idleWait(state == .playing ? 0.01 : 0.05))
            return .idle
        }
        if engine.config.untimed {
            core.state.wakeWaiters = true  // room for the decode thread
            return .show(core.state.frames.removeFirst())
        }
        let now = Double(heard) / rate
        guard head.time <= now + 0.001 else {
            core.wait(timeout: min(0.01, head.time - now))
            return .idle
        }
        core.state.wakeWaiters = true  // room for the decode thread
        var due = core.state.frames.removeFirst()
        while let next = core.state.frames.first, next.time <= now + 0.001 {
            core.state.status.droppedFrames += 1
            due = core.state.frames.removeFirst()
        }
        return .show(due)
    }

    private func present(_ timed: TimedFrame) {
        engine.video?.show(timed.frame)
        showingBlack = false
        core.locked {
            $0.picturePresented(serial: timed.serial, cursor: timed.cursor, wallClock: Monotonic.wallClock())
        }
        engine.config.onFramePresented?(
            PresentedFrame(
                id: timed.cursor.id, play: timed.cursor.play, timeline: timed.time,
                itemTime: timed.frame.pts, frame: timed.frame))
    }
}
