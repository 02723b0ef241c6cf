// Transport decisions: play, pause, stop, next, previous, seek, volume, rate, video settings. The ones that
// change what is heard go through `cut`, which ends the started play with a reason, drops everything
// queued ahead of the listener, asks the audio output to drop what it holds, and leaves a start request
// for the decode thread. `heard` is the listener's position on the timeline (the audio clock, read by the
// caller), so these stay free of clocks.

import QueueModel

extension EngineState {
    /// Plays `id` from its start, or resumes / starts playback when `id` is nil.
    mutating func play(id: ItemID?) throws(PlayerError) {
        if let id {
            guard let cursor = queue.cursor(for: id) else { throw .itemNotFound(id) }
            cut(to: cursor, endReason: .skipped)
            resume()
            return
        }
        switch status.state {
        case .playing: return
        case .paused: resume()
        case .idle, .stopped:
            guard let cursor = startingPlay else { throw .queueEmpty }
            // Items outside their schedule are skipped; when all are, playback waits for a window.
            if startOrWait(from: cursor, endReason: nil) { resume() }
        }
    }

    /// Where `play` starts when nothing is current: the stopped play if still queued, else the front.
    var startingPlay: Cursor? {
        resumeCursor.flatMap { queue.entry($0.id) != nil ? $0 : nil } ?? queue.first()
    }

    mutating func pause() {
        guard status.state == .playing else { return }
        updateStatus { $0.state = .paused }
        cancelScheduledStart()
        actions.append(.setAudioPaused(true))
    }

    /// Stops: the play ends (`stopped`), the screen goes black; `play` starts that item again.
    mutating func stop() {
        guard status.state == .playing || status.state == .paused else { return }
        let reference = referenceCursor?.isInterrupt == true ? interruptedPlay?.cursor : referenceCursor
        resumeCursor = (reference ?? scheduleWait).map { Cursor(id: $0.id, play: 1, pass: $0.pass) }
        cut(to: nil, endReason: .stopped)
        updateStatus {
            $0.state = .stopped
            $0.currentID = nil
            $0.play = 0
            $0.duration = nil
        }
    }

    /// Skips to the next play (the current one ends `skipped`); past the last one playback goes idle.
    mutating func next() throws(PlayerError) {
        guard let cursor = referenceCursor ?? scheduleWait else { throw .nothingPlaying }
        if cursor.isInterrupt {
            skipInterrupt(cursor)
            return
        }
        if !startOrWait(from: queue.following(cursor), endReason: .skipped) {
            updateStatus {
                $0.state = .idle
                $0.currentID = nil
            }
        }
    }

    /// Playback stopped moving (the stall detector): the current play ends with reason `error` and
    /// `message` — announced or not, it is reported ended — the play after it is requested, and a new
    /// decode thread takes over (the stuck one may never return). False when nothing is playing.
    mutating func abandonStalledPlay(message: String) -> Bool {
        guard status.state == .playing, let cursor = referenceCursor else { return false }
        let target = cursor.isInterrupt ? interruptedPlay?.cursor : queue.following(cursor)
        if startedPlay == cursor {
            cut(to: target, endReason: .error, error: message)
        } else {
            cut(to: target, endReason: nil)
            endPlay(cursor, reason: .error, error: message)
        }
        decoderGeneration += 1
        if target == nil {
            updateStatus {
                $0.state = .idle
                $0.currentID = nil
            }
        }
        return true
    }

    mutating func previous() throws(PlayerError) {
        guard let cursor = referenceCursor else { throw .nothingPlaying }
        // An interrupt has nothing before it: its play starts again.
        if cursor.isInterrupt {
            cut(to: cursor, endReason: nil, continuesPlay: true)
            return
        }
        cut(to: queue.preceding(cursor), endReason: .skipped)
    }

    /// Moves within the current play (seconds; `relative` adds to the position at `heard`).
    mutating func seek(to position: Double, relative: Bool, heard: Int64) throws(PlayerError) {
        guard let now = currentPlay(heard: heard) else { throw .nothingPlaying }
        var target = relative ? now.position + position : position
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
        if let now = currentPlay(heard: heard) {
            cut(to: now.cursor, position: now.position, endReason: nil, continuesPlay: true)
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

    mutating func resume() {
        actions.append(.setAudioPaused(false))
        stopError = nil
        updateStatus {
            $0.state = .playing
            $0.error = nil
        }
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
            startedPlay = nil
            endPlay(heard, reason: endReason, error: error)
        }
        let resumesInterrupted = keepInterrupts && target != nil && target == interruptions.suspended
        if !keepInterrupts && target?.isInterrupt != true {
            abandonInterrupts(reason: endReason, target: target)
        }
        segments.removeAll()
        frames.removeAll()
        wakeWaiters = true
        upcoming = nil
        timelineComplete = false
        // Only a play that was announced started goes on without a new start (a seek before its first
        // picture still owes its itemStarted).
        let continues = continuesPlay && target != nil && (target == startedPlay || resumesInterrupted)
        startRequest = target.map {
            StartRequest(serial: serial, cursor: $0, position: position, continuesPlay: continues)
        }
        // Drops what is queued and wakes a decode thread blocked in write; it completes the flush before
        // it writes the new start.
        actions.append(.requestAudioFlush)
    }
}
