// Transport commands: play, pause, stop, next, previous, jump, seek, volume. Each is a state change
// under the lock; the ones that change what is heard go through `cut`, which ends the audible item with
// a reason, drops everything queued ahead of the listener, and asks the decode thread for a new start.
import QueueModel

extension PlayerEngine {
    /// Plays `id` from its start, or resumes / starts playback when `id` is nil.
    public func play(id: ItemID? = nil) throws {
        try core.locked { shared in
            if let id {
                guard let cursor = shared.queue.cursor(for: id) else { throw PlayerError.itemNotFound(id) }
                cutLocked(&shared, to: cursor, endReason: .skipped)
                resumeLocked(&shared)
                return
            }
            switch shared.status.state {
            case .playing: return
            case .paused: resumeLocked(&shared)
            case .idle, .stopped:
                guard let cursor = shared.resumeCursor.flatMap({ shared.queue.entry($0.id) != nil ? $0 : nil })
                    ?? shared.queue.first()
                else { throw PlayerError.queueEmpty }
                cutLocked(&shared, to: cursor, endReason: nil)
                resumeLocked(&shared)
            }
        }
    }

    public func pause() {
        core.locked { shared in
            guard shared.status.state == .playing else { return }
            audio.setPaused(true)
            shared.updateStatus { $0.state = .paused }
        }
    }

    public func toggle() throws {
        let state = core.locked { $0.status.state }
        if state == .playing { pause() } else { try play() }
    }

    /// Stops: the item ends (`stopped`), the screen goes black; `play` starts that item again.
    public func stop() {
        core.locked { shared in
            guard shared.status.state == .playing || shared.status.state == .paused else { return }
            shared.resumeCursor = referenceCursorLocked(shared).map { Cursor(id: $0.id, play: 1, pass: $0.pass) }
            cutLocked(&shared, to: nil, endReason: .stopped)
            shared.updateStatus {
                $0.state = .stopped
                $0.currentID = nil
                $0.play = 0
                $0.duration = nil
            }
        }
    }

    /// Skips to the next item (the current one ends `skipped`); past the last one playback goes idle.
    public func next() throws {
        try core.locked { shared in
            guard let cursor = referenceCursorLocked(shared) else { throw PlayerError.badState("nothing is playing") }
            let target = shared.queue.following(cursor)
            cutLocked(&shared, to: target, endReason: .skipped)
            if target == nil { shared.updateStatus { $0.state = .idle; $0.currentID = nil } }
        }
    }

    public func previous() throws {
        try core.locked { shared in
            guard let cursor = referenceCursorLocked(shared) else { throw PlayerError.badState("nothing is playing") }
            cutLocked(&shared, to: shared.queue.preceding(cursor), endReason: .skipped)
        }
    }

    /// Moves within the current item (seconds; `relative` adds to the current position).
    public func seek(to position: Double, relative: Bool = false) throws {
        try core.locked { shared in
            guard let now = currentPlayLocked(shared) else { throw PlayerError.badState("nothing is playing") }
            var target = relative ? now.position + position : position
            if let duration = now.duration { target = min(target, max(0, duration - 0.001)) }
            cutLocked(&shared, to: now.cursor, position: max(0, target), endReason: nil, continuesPlay: true)
        }
    }

    /// Volume 0...100 and mute, applied without reopening the audio stream.
    public func setVolume(_ volume: Int? = nil, muted: Bool? = nil) {
        core.locked { shared in
            shared.updateStatus {
                if let volume { $0.volume = max(0, min(100, volume)) }
                if let muted { $0.muted = muted }
            }
            audio.setVolume(Float(shared.status.volume) / 100, muted: shared.status.muted)
        }
    }

    /// Playback speed 0.5...2.0, pitch preserved. The item being heard continues from where it is at the
    /// new speed.
    public func setRate(_ rate: Double) throws {
        guard rate.isFinite, (0.5...2.0).contains(rate) else {
            throw PlayerError.badState("rate must be between 0.5 and 2.0 (got \(rate))")
        }
        core.locked { shared in
            guard rate != shared.status.rate else { return }
            shared.updateStatus { $0.rate = rate }
            if let now = currentPlayLocked(shared) {
                cutLocked(&shared, to: now.cursor, position: now.position, endReason: nil, continuesPlay: true)
            }
        }
    }

    public func setFit(_ fit: VideoFit) {
        core.locked { shared in
            shared.pendingFit = fit
            shared.wakeWaiters = true
            shared.updateStatus { $0.fit = fit }
        }
    }

    public func setFullscreen(_ fullscreen: Bool) {
        core.locked { shared in
            shared.pendingFullscreen = fullscreen
            shared.wakeWaiters = true
            shared.updateStatus { $0.fullscreen = fullscreen }
        }
    }

    /// A PNG of what is on screen now.
    public func screenshot() throws -> [UInt8] {
        guard let video else { throw PlayerError.badState("no video output") }
        guard let png = video.screenshot() else { throw PlayerError.badState("nothing is on screen") }
        return png
    }

    // MARK: Internals (caller holds the lock)

    /// The play that commands refer to: the one heard now, else the one about to start.
    func referenceCursorLocked(_ shared: EngineCore.Shared) -> Cursor? {
        shared.startedPlay ?? shared.audibleSegment?.cursor ?? shared.startRequest?.cursor ?? shared.segments.first?.cursor
            ?? shared.upcoming
    }

    /// The play commands act on, with its position: the one heard now, else the one about to start
    /// (right after a cut, before its first sound or picture).
    func currentPlayLocked(_ shared: EngineCore.Shared) -> (cursor: Cursor, position: Double, duration: Double?)? {
        if let segment = shared.audibleSegment { return (segment.cursor, position(in: segment), segment.duration) }
        // Not a play that failed without reaching the timeline: that one is only about to be reported.
        if let segment = shared.segments.first(where: {
            $0.serial == shared.serial && !($0.failure != nil && $0.endFrame == $0.startFrame)
        }) {
            return (segment.cursor, segment.itemOffset, segment.duration)
        }
        if let request = shared.startRequest { return (request.cursor, request.position, nil) }
        return nil
    }

    private func resumeLocked(_ shared: inout EngineCore.Shared) {
        audio.setPaused(false)
        shared.stopError = nil
        shared.updateStatus {
            $0.state = .playing
            $0.error = nil
        }
    }

    /// Ends the audible play with `endReason` (nil: a seek, the play goes on), drops everything decoded
    /// ahead, and asks the decode thread to start `target` at `position` (nil: nothing more plays).
    func cutLocked(
        _ shared: inout EngineCore.Shared, to target: Cursor?, position: Double = 0, endReason: EndReason?,
        continuesPlay: Bool = false
    ) {
        shared.serial += 1
        if let endReason, let heard = shared.startedPlay {
            shared.startedPlay = nil
            shared.events.append(.itemEnded(id: heard.id, play: heard.play, reason: endReason, error: nil))
            let before = shared.queue.version
            shared.queue.finish(heard, reason: endReason, error: nil)
            shared.noteQueueChange(from: before)
        }
        shared.segments.removeAll()
        shared.frames.removeAll()
        shared.wakeWaiters = true
        shared.upcoming = nil
        shared.timelineComplete = false
        shared.startRequest = target.map {
            StartRequest(serial: shared.serial, cursor: $0, position: position, continuesPlay: continuesPlay)
        }
        // Never waits for the device: drops what is queued, wakes a decode thread blocked in write, and
        // holds the clock. The decode thread completes the flush before it writes the new start.
        audio.requestFlush()
    }
}
