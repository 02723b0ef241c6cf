// The presenter thread: the video sink's one thread (SDL wants all its calls on one thread). It shows
// each queued picture when the master clock (the audio sink's heard position) reaches its time,
// dropping pictures that are already late, and it announces what the listener reaches on the timeline:
// item started / ended, progress, and the end of the queue. Owns the video sink.
import Foundation
import Glibc
import Media
import QueueModel

final class Presenter: @unchecked Sendable {
    private let engine: PlayerEngine
    private var core: EngineCore { engine.core }
    private var rate: Double { Double(engine.audio.format.sampleRate) }
    /// Timeline frame of the last progress event.
    private var lastProgressFrame: Int64 = .min
    private var lastPump = 0.0
    private var showingBlack = true
    private var reportedClose = false

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
            switch action {
            case .show(let timed): present(timed)
            case .black:
                engine.video?.showBlack()
                showingBlack = true
            case .configure(let fit, let fullscreen):
                if let fit { engine.video?.setFit(fit) }
                if let fullscreen { engine.video?.setFullscreen(fullscreen) }
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
        case configure(fit: VideoFit?, fullscreen: Bool?)
        case idle
    }

    /// Under the lock: announces what the listener has reached, then picks the picture due now, or waits
    /// a little (woken early by any state change). nil once the engine shuts down.
    private func nextAction() -> Action? {
        core.lock()
        defer { core.unlock() }
        if core.shared.shuttingDown { return nil }
        if core.shared.pendingFit != nil || core.shared.pendingFullscreen != nil {
            defer {
                core.shared.pendingFit = nil
                core.shared.pendingFullscreen = nil
            }
            return .configure(fit: core.shared.pendingFit, fullscreen: core.shared.pendingFullscreen)
        }
        let heard = engine.audio.playedFrames()
        announce(&core.shared, heard: heard)
        let state = core.shared.status.state
        if (state == .idle || state == .stopped) && core.shared.frames.isEmpty && !showingBlack {
            return .black
        }
        guard let head = core.shared.frames.first, state != .paused else {
            // Nothing to show: wake at 100 Hz while playing (to announce what is heard), 20 Hz otherwise.
            core.wait(timeout: state == .playing ? 0.01 : 0.05)
            return .idle
        }
        if engine.config.untimed {
            core.shared.wakeWaiters = true  // room for the decode thread
            return .show(core.shared.frames.removeFirst())
        }
        let now = Double(heard) / rate
        guard head.time <= now + 0.001 else {
            core.wait(timeout: min(0.01, head.time - now))
            return .idle
        }
        core.shared.wakeWaiters = true  // room for the decode thread
        var due = core.shared.frames.removeFirst()
        while let next = core.shared.frames.first, next.time <= now + 0.001 {
            core.shared.status.droppedFrames += 1
            due = core.shared.frames.removeFirst()
        }
        return .show(due)
    }

    private func present(_ timed: TimedFrame) {
        engine.video?.show(timed.frame)
        showingBlack = false
        core.locked { shared in
            func index() -> Int? {
                shared.segments.firstIndex { $0.serial == timed.serial && $0.cursor == timed.cursor && !$0.announcedEnd }
            }
            guard let found = index(), !shared.segments[found].announcedStart else { return }
            // A picture of this play is on screen, so every play before it on the timeline is over: they
            // are announced (started if they never were, and ended) before this start. That may remove
            // segments, so look it up again.
            announce(&shared, heard: shared.segments[found].startFrame, upTo: found, closingEarlier: true)
            if let again = index(), !shared.segments[again].announcedStart { announceStart(&shared, again) }
        }
        engine.config.onFramePresented?(
            PresentedFrame(
                id: timed.cursor.id, play: timed.cursor.play, timeline: timed.time,
                itemTime: timed.frame.pts, frame: timed.frame))
    }

    // MARK: Announcing the timeline (caller holds the lock)

    /// Announces starts and ends of segments the listener has reached, in timeline order (at most up to
    /// `limit`). With `closingEarlier` (a picture of the segment at `limit` is on screen), every segment
    /// before `limit` is over whatever the clock says: each is started if it never was, then ended.
    /// Every play thus gets exactly one start before exactly one end, and none of the next play's events
    /// comes before that end. A play that put nothing on the timeline and failed gets only its end.
    private func announce(
        _ shared: inout EngineCore.Shared, heard: Int64, upTo limit: Int? = nil, closingEarlier: Bool = false
    ) {
        var index = 0
        while index < min(shared.segments.count, limit ?? .max) {
            let segment = shared.segments[index]
            guard segment.serial == shared.serial else {
                index += 1
                continue
            }
            if !segment.announcedStart {
                guard closingEarlier || heard >= segment.startFrame else { break }
                if segment.failure != nil, segment.endFrame == segment.startFrame {
                    shared.segments[index].announcedStart = true
                    announceEnd(&shared, index)
                    index += 1
                    continue
                }
                if !closingEarlier && segment.showsVideo && !pictureWaitIsOver(segment, heard: heard) { break }
                announceStart(&shared, index)
            }
            guard let end = shared.segments[index].endFrame, closingEarlier || heard >= end else { break }
            announceEnd(&shared, index)
            index += 1
        }
        shared.segments.removeAll { $0.announcedEnd }
        // Played through once everything was heard and every picture shown.
        if shared.segments.isEmpty && shared.timelineComplete && shared.frames.isEmpty && limit == nil {
            shared.timelineComplete = false
            let error = shared.stopError
            shared.updateStatus {
                $0.state = error == nil ? .idle : .stopped
                $0.error = error
                $0.currentID = nil
                $0.play = 0
                $0.duration = nil
            }
        }
        reportProgress(&shared, heard: heard)
    }

    /// A play with pictures starts when its first picture is shown. Timed, one that shows none within half
    /// a second (or by its end, if sooner) starts by the clock. Untimed there is no clock to wait on: the
    /// decode thread clears `showsVideo` when a play ends with no picture left to show.
    private func pictureWaitIsOver(_ segment: Segment, heard: Int64) -> Bool {
        guard !engine.config.untimed else { return false }
        return heard >= min(segment.startFrame + Int64(rate / 2), segment.endFrame ?? .max)
    }

    private func announceEnd(_ shared: inout EngineCore.Shared, _ index: Int) {
        shared.segments[index].announcedEnd = true
        let segment = shared.segments[index]
        let reason: EndReason = segment.failure == nil ? .eof : .error
        shared.events.append(.itemEnded(id: segment.cursor.id, play: segment.cursor.play, reason: reason, error: segment.failure))
        if shared.startedPlay == segment.cursor { shared.startedPlay = nil }
        let before = shared.queue.version
        shared.queue.finish(segment.cursor, reason: reason, error: segment.failure)
        shared.noteQueueChange(from: before)
    }

    private func announceStart(_ shared: inout EngineCore.Shared, _ index: Int) {
        shared.segments[index].announcedStart = true
        let segment = shared.segments[index]
        lastProgressFrame = .min
        if !segment.continuesPlay {
            shared.startedPlay = segment.cursor
            shared.events.append(
                .itemStarted(
                    id: segment.cursor.id, play: segment.cursor.play, wallClock: Monotonic.wallClock(),
                    timeline: Double(segment.startFrame) / rate))
            let before = shared.queue.version
            _ = shared.queue.begin(segment.cursor)
            shared.noteQueueChange(from: before)
        }
        shared.updateStatus {
            $0.currentID = segment.cursor.id
            $0.play = segment.cursor.play
            $0.duration = segment.duration
        }
    }

    private func reportProgress(_ shared: inout EngineCore.Shared, heard: Int64) {
        let interval = engine.config.progressInterval
        guard interval > 0, shared.status.state == .playing, let segment = shared.audibleSegment else { return }
        guard lastProgressFrame == .min || heard - lastProgressFrame >= Int64(interval * rate) else { return }
        lastProgressFrame = heard
        shared.events.append(
            .progress(id: segment.cursor.id, position: engine.position(in: segment), duration: segment.duration, play: segment.cursor.play))
    }
}
