// The presenter thread: the video sink's one thread (SDL wants all its calls on one thread). It shows
// each queued picture when the master clock (the audio sink's heard position) reaches its time,
// dropping pictures that are already late, and tells EngineState where the listener is and which picture
// is on screen (the state announces item started / ended, progress, the end of the queue). It decides
// nothing itself: what to show, after the dark and while schedules are closed, and the overlays with it,
// are EngineState's answers (presenterNext, noteOverlays); it carries them out. Owns the video sink.

import FoundationEssentials
import SystemSupport
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
    /// What the screen shows, as EngineState.presenterNext needs to know.
    private var screen = ScreenShows()
    private var reportedClose = false
    /// The veil and the moving still's view last handed to the video sink.
    private var sentVeil: PictureVeil?
    private var sentMotion: MotionFrame?
    private var sentCrossfade: CrossfadeLayer?
    /// The overlays and their item as last handed to the video sink.
    private var sentOverlays = OverlaySet()
    private var sentPlaying: PlayingItem?
    /// The last picture shown, put back when the screen wakes with the same play (a paused one).
    private var lastPicture: VideoFrame?

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
        let support = engine.video?.screenPowerSupport() ?? .unsupported("there is no video output")
        let power = core.locked { state in
            state.noteScreenPowerSupport(support, commands: engine.config.displayCommands != nil)
            return state.screenPower.info
        }
        if power.method == .none {
            core.logger.info("display power: nothing tells the screen to sleep (\(power.why)); off is black and silent")
        } else {
            core.logger.info("display power: \(power.method.rawValue) (\(power.why))")
        }
        opened.succeed()
        while let action = nextAction() {
            if let video = engine.video, screen.overlays != sentOverlays || screen.overlayItem != sentPlaying {
                video.setOverlays(screen.overlays, playing: screen.overlayItem)
                sentOverlays = screen.overlays
                sentPlaying = screen.overlayItem
            }
            if let video = engine.video, screen.veil != sentVeil {
                video.setVeil(screen.veil)
                sentVeil = screen.veil
            }
            if let video = engine.video, screen.crossfade != sentCrossfade {
                video.setCrossfade(screen.crossfade)
                sentCrossfade = screen.crossfade
            }
            if let video = engine.video, screen.motion != sentMotion {
                video.setMotion(screen.motion)
                sentMotion = screen.motion
            }
            switch action {
            case .show(let timed, _): present(timed)
            case .black:
                engine.video?.showBlack()
                lastPicture = nil
            case .darken(let tellScreen):
                engine.video?.showBlack()
                if tellScreen { tellScreenPower(on: false) }
            case .wake(let tellScreen, let reshow):
                if tellScreen { tellScreenPower(on: true) }
                if reshow, let lastPicture { engine.video?.show(lastPicture) }
            case .fallback(let fallback):
                switch fallback {
                case .black: engine.video?.showBlack()
                case .lastPicture: break
                case .still(let frame): engine.video?.show(frame)
                }
            case .configure(let change):
                if let fit = change.fit { engine.video?.setFit(fit) }
                if let fullscreen = change.fullscreen { engine.video?.setFullscreen(fullscreen) }
                if let rotation = change.rotation { engine.video?.setRotation(rotation) }
            case .spin(let deadline):
                while Monotonic.now() < deadline { sched_yield() }
            case .redraw: engine.video?.redraw()
            case .wait, .leave: break
            }
            let now = Monotonic.now()
            if let video = engine.video, now - lastPump >= 0.01 || video.hasPendingDraw {
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

    /// Under the lock: asks the state what to show (EngineState.presenterNext: it also learns what the
    /// listener reached) and the overlays to draw with it; when nothing is due, waits after the batch
    /// (woken early by any state change). nil once the engine shuts down.
    private func nextAction() -> PresenterStep? {
        let heard = engine.audio.playedFrames()
        return core.lockedThenWait(
            { state -> (PresenterStep?, wait: Double?) in
                let action = state.presenterNext(
                    heard: heard, now: Monotonic.now(), wallClock: Monotonic.wallClock(), screen: &screen)
                if case .leave = action { return (nil, nil) }
                state.noteOverlays(for: action, heard: heard, screen: &screen)
                if case .wait(let timeout) = action { return (action, timeout) }
                return (action, nil)
            },
            // What woke the wait (an overlay edited, the item moved on) is drawn with this turn, not the next.
            afterWake: { state in
                state.noteOverlays(for: .wait(0), heard: self.engine.audio.playedFrames(), screen: &self.screen)
            })
    }

    /// The video output's own way (X11 DPMS, DRM): unlocked, then the outcome goes to the state.
    private func tellScreenPower(on: Bool) {
        guard let video = engine.video else { return }
        let outcome = video.setScreenPower(on)
        if case .failed(let message) = outcome {
            core.logger.warning("display \(on ? "on" : "off"): \(message)")
        } else {
            core.logger.info("display \(on ? "on" : "off"): told the screen")
        }
        core.locked { $0.screenPowerTold(on: on, outcome: outcome) }
    }

    private func present(_ timed: TimedFrame) {
        engine.video?.show(timed.frame)
        lastPicture = timed.frame
        core.locked {
            $0.picturePresented(serial: timed.serial, cursor: timed.cursor, wallClock: Monotonic.wallClock())
        }
        engine.config.onFramePresented?(
            PresentedFrame(
                id: timed.cursor.id, play: timed.cursor.play, timeline: timed.time,
                itemTime: timed.frame.pts, frame: timed.frame))
    }
}
