// The music zone's audio output: its engine's samples scaled by the duck envelope on their way to the real
// output (PulseAudio mixes the music's stream with the audio zone's). The audio zone's engine says when its
// plays with sound and without sound will be heard (monotonic seconds); each is placed on this output's own
// timeline at the frame heard then, and the envelope ramps there. Samples already written when a change is
// told are not taken back: a late change ramps from the first frame not yet written, never jumping.
// `write` runs on the music engine's decode thread; `duck`/`release` on the audio zone's threads; a small
// lock guards the envelope (no waiting under it).

import Playback
import SystemClock
import SystemSupport

public final class DuckedAudioSink: AudioSink, @unchecked Sendable {
    private let inner: AudioSink
    private let lock = ThreadLock()
    /// Guarded by `lock`: the envelope, the duck last asked for, and whether an alert holds the music silent
    /// (above any duck; the duck asked for meanwhile applies when it ends).
    private var envelope: DuckEnvelope
    private var ducked = false
    private var silenced = false

    public init(_ inner: AudioSink, depth: Double, rampSeconds: Double) {
        self.inner = inner
        envelope = DuckEnvelope(depth: depth, rampSeconds: rampSeconds, sampleRate: inner.format.sampleRate)
    }

    /// A new depth and ramp (the layout changed them): from the next change on; a duck in force goes to the
    /// new depth over the new ramp.
    public func setDepth(_ depth: Double, rampSeconds: Double) {
        let written = inner.writtenFrames()
        lock.withLock {
            let ducked = envelope.isDucked(at: written)
            var fresh = DuckEnvelope(depth: depth, rampSeconds: rampSeconds, sampleRate: inner.format.sampleRate)
            // Continue from where the gain is: the old level held, then a ramp to the new one.
            fresh.resume(from: envelope.gain(at: written), ducked: ducked, at: written)
            if silenced { fresh.set(gain: 0, at: written) }
            envelope = fresh
        }
    }

    /// From monotonic time `heardAt` on (nil: now), the music is ducked (or comes back up).
    public func set(ducked: Bool, heardAt: Double? = nil) {
        let rate = Double(format.sampleRate)
        let written = inner.writtenFrames()
        var frame = written
        if let heardAt {
            let played = inner.playedFrames()
            frame = played + Int64(((heardAt - Monotonic.now()) * rate).rounded())
        }
        // Not before what is already written: a ramp starts where samples can still take it.
        frame = max(frame, written)
        lock.withLock {
            self.ducked = ducked
            if !silenced { envelope.set(ducked: ducked, at: frame) }
        }
    }

    /// From now on the music falls silent over its ramp (an alert on the screen), or comes back to the level
    /// the duck calls for.
    public func silence(_ on: Bool) {
        let written = inner.writtenFrames()
        lock.withLock {
            guard silenced != on else { return }
            silenced = on
            if on { envelope.set(gain: 0, at: written) } else { envelope.set(ducked: ducked, at: written) }
        }
    }

    /// The gain the samples written next get (for the status and tests).
    public func gainNow() -> Float {
        let written = inner.writtenFrames()
        return lock.withLock { envelope.gain(at: written) }
    }

    public var format: AudioFormat { inner.format }

    public func write(_ samples: [Float]) -> Bool {
        let from = inner.writtenFrames()
        var scaled = samples
        lock.withLock {
            envelope.apply(to: &scaled, channels: format.channels, from: from)
            envelope.forget(before: from)
        }
        return inner.write(scaled)
    }

    public func writtenFrames() -> Int64 { inner.writtenFrames() }
    public func playedFrames() -> Int64 { inner.playedFrames() }
    public func setPaused(_ paused: Bool) { inner.setPaused(paused) }
    public func flush() { inner.flush() }
    public func requestFlush() { inner.requestFlush() }
    public func retract(from frame: Int64, lead: Double) -> Int64 { inner.retract(from: frame, lead: lead) }
    public func cancelWrite() { inner.cancelWrite() }
    public func setVolume(_ volume: Float, muted: Bool) { inner.setVolume(volume, muted: muted) }
    public func drain() { inner.drain() }
    public func close() { inner.close() }
}
