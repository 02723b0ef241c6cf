// Transport decisions: play, pause, stop, next, previous, seek, volume, rate, video settings. The ones that
// change what is heard go through `cut`, which ends the started play with a reason, drops everything
// queued ahead of the listener, asks the audio output to drop what it holds, and leaves a start request
// for the decode thread. `heard` is the listener's position on the timeline (the audio clock, read by the
// caller), so these stay free of clocks.

import QueueModel

extension EngineState {
    /// Plays `id` from its start, or resumes / starts playback when `id` is nil. `heard` and `now`
    /// (monotonic seconds), when the caller has them, let a live stream paused long go back to its live edge.
    mutating func play(id: ItemID?, heard: Int64? = nil, now: Double? = nil) throws(PlayerError) {
        if let id {
            guard let cursor = queue.cursor(for: id) else { throw .itemNotFound(id) }
            cut(to: cursor, endReason: .skipped)
            resume()
            return
        }
        switch phase {
        case .running(let run):
            if run.motion == .paused {
                if let heard, let now { returnToLiveEdge(heard: heard, now: now) }
                resume()
            }
        case .idle, .stopped:
            guard let cursor = startingPlay else { throw .queueEmpty }
            // Items outside their schedule are skipped; when all are, playback waits for a window.
            if startOrWait(from: cursor, endReason: nil) { resume() }
        }
    }

    /// Where `play` starts when nothing is current: the stopped play if still queued, else the front.
    var startingPlay: Cursor? {
        if case .stopped(let resume?, _) = phase, queue.entry(resume.id) != nil { return resume }
        return queue.first()
    }

    /// Pauses a run (an armed synchronized start is called off: nothing starts until `play`). `now`
    /// (monotonic seconds), when the caller has it, is when: a live stream's resume looks at it.
    mutating func pause(now: Double? = nil) {
        guard let run = phase.run, run.motion != .paused else { return }
        updateRun { $0.motion = .paused }
        updateStatus { $0.startsAt = nil }
        actions.append(.setAudioPaused(true))
        pausedAt = now
    }

    /// A live stream paused this long goes back to its live edge on resume: what its sender sent meanwhile
    /// is behind it, and catching up at 0.5 % would take 200 times the pause.
    static let liveEdgeAfterPause = 2.0

    /// On resume: a live stream's play paused at least `liveEdgeAfterPause` goes on from what its sender
    /// sends now — reopened in the same play, where it was in item time, as after a drop (what it held is
    /// dropped, not heard late). A file, an on-demand stream or a short pause resume where they were.
    mutating func returnToLiveEdge(heard: Int64, now: Double) {
        defer { pausedAt = nil }
        guard let pausedAt, now - pausedAt >= Self.liveEdgeAfterPause, let play = current,
            play.segment?.stream?.live == true
        else { return }
        cut(to: play.cursor, position: position(of: play, heard: heard), endReason: nil, continuesPlay: true)
    }

    /// Stops: the play ends (`stopped`), the screen goes black; `play` starts that item again.
    mutating func stop() {
        guard phase.run != nil else { return }
        let now = current?.cursor
        let reference = now?.isInterrupt == true ? interruptedPlay?.cursor : now
        let resume = (reference ?? scheduleWait).map { Cursor(id: $0.id, play: 1, pass: $0.pass) }
        cut(to: nil, endReason: .stopped)
        enter(.stopped(resume: resume, error: nil)) { $0.describeNoPlay() }
    }

    /// Skips to the next play (the current one ends `skipped`); past the last one playback goes idle.
    mutating func next() throws(PlayerError) {
        guard let cursor = current?.cursor ?? scheduleWait else { throw .nothingPlaying }
        if cursor.isInterrupt {
            skipInterrupt(cursor)
            return
        }
        if !startOrWait(from: queue.following(cursor), endReason: .skipped) {
            enter(.idle) { $0.describeNoPlay() }
        }
    }

    /// Playback stopped moving (the stall detector): the current play ends with reason `error` and
    /// `message` — announced or not, it is reported ended — the play after it is requested, and a new
    /// decode thread takes over (the stuck one may never return). False when nothing is playing.
    mutating func abandonStalledPlay(message: String) -> Bool {
        guard phase.reportedState == .playing, let cursor = current?.cursor else { return false }
        let target = cursor.isInterrupt ? interruptedPlay?.cursor : queue.following(cursor)
        if startedPlay == cursor {
            cut(to: target, endReason: .error, error: message)
        } else {
            cut(to: target, endReason: nil)
            endPlay(cursor, reason: .error, error: message)
        }
        decoderGeneration += 1
        if target == nil {
            enter(.idle) { $0.describeNoPlay() }
        }
        return true
    }

    mutating func previous() throws(PlayerError) {
        guard let cursor = current?.cursor else { throw .nothingPlaying }
        // An interrupt has nothing before it: its play starts again.
        if cursor.isInterrupt {
            cut(to: cursor, endReason: nil, continuesPlay: true)
            return
        }
        cut(to: queue.preceding(cursor), endReason: .skipped)
    }

    /// Moves within the current play (seconds; `relative` adds to the position at `heard`).
    mutating func seek(to position: Double, relative: Bool, heard: Int64) throws(PlayerError) {
        guard let now = current else { throw .nothingPlaying }
        var target = relative ? self.position(of: now, heard: heard) + position : position
        if let duration = now.duration { target = min(target, max(0, duration - 0.001)) }
        cut(to: now.cursor, position: max(0, target), endReason: nil, continuesPlay: true)
    }

    /// Volume 0...100 and mute, applied without reopening the audio stream.
    mutating func setVolume(_ volume: Int?, muted: Bool?) {
        updateStatus {
            if let volume { $0.volume = max(0, min(100, volume)) }
            if let muted { $0.muted = muted }
        }
        actions.append(.setAudioVolume(Float(status.volume) / 100, muted: status.muted))
    }

    /// Playback speed 0.5...2.0, pitch preserved: the play being heard goes on from where it is.
    mutating func setRate(_ rate: Double, heard: Int64) throws(PlayerError) {
        guard rate.isFinite, (0.5...2.0).contains(rate) else { throw .rateOutOfRange(rate) }
        guard rate != status.rate else { return }
        updateStatus { $0.rate = rate }
        if let now = current {
            cut(to: now.cursor, position: position(of: now, heard: heard), endReason: nil, continuesPlay: true)
        }
    }

    mutating func setFit(_ fit: VideoFit) {
        pendingDisplay.fit = fit
        wakeWaiters = true
        updateStatus { $0.fit = fit }
    }

    mutating func setFullscreen(_ fullscreen: Bool) {
        pendingDisplay.fullscreen = fullscreen
        wakeWaiters = true
        updateStatus { $0.fullscreen = fullscreen }
    }

    mutating func setRotation(_ rotation: VideoRotation) {
        pendingDisplay.rotation = rotation
        wakeWaiters = true
        updateStatus { $0.rotation = rotation }
    }

    /// The run moves: the audio output is uncorked, and an error left by a stop is cleared.
    mutating func resume() {
        uncorkIfShown()
        updateRun { $0.motion = .playing }
        updateStatus { $0.error = nil }
    }

    /// The audio output goes again, unless the screen is off (it stays corked until the screen is on).
    mutating func uncorkIfShown() {
        if status.display.on { actions.append(.setAudioPaused(false)) }
    }

    /// Moves to `phase` (a run ends, or a stop leaves its resume point); the status reports it, with
    /// `change` made in the same event (a client never sees the new state without its error or item).
    mutating func enter(_ phase: PlaybackPhase, changing change: (inout PlayerStatus) -> Void = { _ in }) {
        self.phase = phase
        updateStatus(change)
    }

    /// Sets what the decode thread does next, starting a run (moving) if none was under way.
    mutating func setFeed(_ feed: PlaybackRun.Feed) {
        guard phase.run != nil else {
            enter(.running(PlaybackRun(motion: .playing, feed: feed)))
            return
        }
        updateRun { $0.feed = feed }
    }

    /// Ends the started play with `endReason` (nil: a seek, the play goes on), drops everything decoded
    /// ahead, and leaves the decode thread a request to start `target` at `position` (nil: nothing plays).
    /// `keepInterrupts`: the cut goes on with the interrupts under way (a cut to an interrupt's play always
    /// does); any other cut ends them and the play they interrupted.
    mutating func cut(
        to target: Cursor?, position: Double = 0, endReason: EndReason?, error: String? = nil,
        continuesPlay: Bool = false, keepInterrupts: Bool = false
    ) {
        serial += 1
        endScheduleWait()
        cancelScheduledStart()
        if let endReason, let heard = startedPlay {
            updateRun { $0.started = nil }
            endPlay(heard, reason: endReason, error: error)
        }
        let resumesInterrupted = keepInterrupts && target != nil && target == interruptions.suspended
        if !keepInterrupts && target?.isInterrupt != true {
            abandonInterrupts(reason: endReason, target: target)
        }
        segments.removeAll()
        frames.removeAll()
        wakeWaiters = true
        // Only a play that was announced started goes on without a new start (a seek before its first
        // picture still owes its itemStarted).
        let continues = continuesPlay && target != nil && (target == startedPlay || resumesInterrupted)
        if let target {
            setFeed(.requested(StartRequest(serial: serial, cursor: target, position: position, continuesPlay: continues)))
        } else {
            // The caller says what the run becomes (stopped, idle, a wait); left as it is, it ends once heard.
            updateRun { $0.feed = .complete(error: nil) }
        }
        // Drops what is queued and wakes a decode thread blocked in write; it completes the flush before
        // it writes the new start.
        actions.append(.requestAudioFlush)
    }
}
