// Transport commands from any thread: each is one EngineState decision under the lock (see
// EngineState+Transport), with the listener's position read from the audio output's clock.

import QueueModel
import SystemClock

extension PlayerEngine {
    /// Plays `id` from its start, or resumes / starts playback when `id` is nil.
    public func play(id: ItemID? = nil) throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            try state.play(id: id, heard: audio.playedFrames(), now: Monotonic.now())
        }
    }

    /// A synchronized start: prepares `id`'s play (nil: the current play from its start, else what `play`
    /// would start) and shows its first picture, sound with it, at `wallClock` (Unix seconds), converted to
    /// the monotonic clock once, now.
    public func play(id: ItemID?, at wallClock: Double) throws {
        let start = ScheduledStart(monotonic: Monotonic.now() + (wallClock - Monotonic.wallClock()), wall: wallClock)
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.play(id: id, at: start) }
    }

    public func pause() {
        core.locked { $0.pause(now: Monotonic.now()) }
    }

    public func toggle() throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            if state.status.state == .playing {
                state.pause(now: Monotonic.now())
            } else {
                try state.play(id: nil, heard: audio.playedFrames(), now: Monotonic.now())
            }
        }
    }

    /// Stops: the item ends (`stopped`), the screen goes black; `play` starts that item again.
    public func stop() {
        core.locked { $0.stop() }
    }

    /// Skips to the next item (the current one ends `skipped`); past the last one playback goes idle.
    public func next() throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.next() }
    }

    public func previous() throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.previous() }
    }

    /// Moves within the current item (seconds; `relative` adds to the current position).
    public func seek(to position: Double, relative: Bool = false) throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            try state.seek(to: position, relative: relative, heard: audio.playedFrames())
        }
    }

    /// Volume 0...100 and mute, applied without reopening the audio stream.
    public func setVolume(_ volume: Int? = nil, muted: Bool? = nil) {
        core.locked { $0.setVolume(volume, muted: muted) }
    }

    /// Playback speed 0.5...2.0, pitch preserved. The item being heard continues from where it is at the
    /// new speed.
    public func setRate(_ rate: Double) throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            try state.setRate(rate, heard: audio.playedFrames())
        }
    }

    public func setFit(_ fit: VideoFit) {
        core.locked { $0.setFit(fit) }
    }

    public func setFullscreen(_ fullscreen: Bool) {
        core.locked { $0.setFullscreen(fullscreen) }
    }

    public func setRotation(_ rotation: VideoRotation) {
        core.locked { $0.setRotation(rotation) }
    }

    /// `display.power`: the screen off or on until the schedule's next change, or back to the schedule.
    public func setScreenPower(_ request: ScreenPowerRequest) {
        core.locked { $0.setScreenPower(request) }
    }

    /// How the screen is told to sleep and wake, and what it has done.
    public func screenPowerInfo() -> ScreenPowerInfo {
        core.locked { $0.screenPower.info }
    }

    /// The operator's screen commands (nil: the video output's own way).
    public var screenPowerCommands: ScreenPowerCommands? { config.displayCommands }

    /// What is on screen now, as `request` asks (PNG at full size by default).
    public func screenshot(_ request: ScreenshotRequest = ScreenshotRequest()) throws -> Screenshot {
        guard let video else { throw PlayerError.noVideoOutput }
        guard let shot = video.screenshot(request) else { throw PlayerError.nothingOnScreen }
        return shot
    }
}
