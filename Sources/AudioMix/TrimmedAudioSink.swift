// A sync group member's audio output: the engine's sound played at a pace trimmed by at most ±0.5 % (the
// sync program's correction, `setTrim`), resampled on its way to the real output (PaceResampler), so the
// engine's timeline — which follows the sound — runs that much faster or slower, pictures included, with
// nothing dropped, repeated or paused. Positions are told in the engine's frames (PaceMap maps them).
// Untrimmed it passes every sample through unchanged. A test option plays the sound `skewPPM` fast as a
// box whose crystal is off would (documented beside `QUEUED_TEST_CLOCK_SKEW_PPM`).
// `write`, `flush`, `retract` and `drain` run on the engine's decode thread; the rest on any thread; a small
// lock guards the map and the pace (never held while the device is waited on).

import Media
import Playback
import SystemSupport

public final class TrimmedAudioSink: AudioSink, @unchecked Sendable {
    public static let maximumTrimPPM = 5000.0

    private let inner: AudioSink
    private let lock = ThreadLock()
    /// Guarded by `lock`.
    private var map = PaceMap()
    private var engineWritten: Int64 = 0
    private var heard: Int64 = 0
    private var trim = 0.0
    private var resetPending = false
    private let skew: Double
    /// Decode thread only: the resampler, once the pace was ever not 1, and the fraction of a frame owed.
    private var resampler: PaceResampler?
    private var carry = 0.0

    public init(_ inner: AudioSink, skewPPM: Double = 0) {
        self.inner = inner
        skew = skewPPM / 1e6
    }

    /// Plays `ppm` parts per million faster (negative: slower) from the next chunk written on, within
    /// ±`maximumTrimPPM`. Returns the trim in force.
    @discardableResult
    public func setTrim(ppm: Double) -> Double {
        let clamped = ppm.isFinite ? min(Self.maximumTrimPPM, max(-Self.maximumTrimPPM, ppm)) : 0
        lock.withLock { trim = clamped / 1e6 }
        return clamped
    }

    /// The trim in force, in ppm.
    public var trimPPM: Double { lock.withLock { trim * 1e6 } }

    public var format: AudioFormat { inner.format }

    public func write(_ samples: [Float]) -> Bool {
        let channels = format.channels
        let frames = samples.count / channels
        let (pace, reset) = lock.withLock { () -> (Double, Bool) in
            defer { resetPending = false }
            return ((1 + skew) * (1 + trim), resetPending)
        }
        if reset {
            resampler?.reset()
            carry = 0
        }
        if resampler == nil, pace == 1 {
            // Untrimmed: the device's frames are the engine's, from the last anchor on.
            let accepted = inner.write(samples)
            lock.withLock { engineWritten += accepted ? Int64(frames) : 0 }
            if !accepted { settleAfterCancel() }
            return accepted
        }
        let resampler = self.resampler ?? PaceResampler(sampleRate: format.sampleRate, channels: channels)
        self.resampler = resampler
        let exact = Double(frames) * (1 / pace - 1) + carry
        let added = exact.rounded()
        carry = exact - added
        let held = resampler.heldFrames
        let played = inner.playedFrames()
        let device = inner.writtenFrames()
        lock.withLock {
            map.forget(before: played)
            // The frames still inside the resampler come out first, so the device's next frame is theirs.
            map.mark(device: device, engine: Double(engineWritten) - Double(held) * pace, pace: pace)
        }
        let output: [Float]
        do { output = try resampler.resample(samples, adding: Int(added)) } catch {
            // Cannot happen with a fixed format; the sound goes on untrimmed rather than not at all.
            output = samples
        }
        let accepted = inner.write(output)
        lock.withLock { engineWritten += accepted ? Int64(frames) : 0 }
        if !accepted { settleAfterCancel() }
        return accepted
    }

    /// A write given up part way (cancelled, flushed, closed): the engine's count is what the device took.
    private func settleAfterCancel() {
        let device = inner.writtenFrames()
        lock.withLock {
            engineWritten = max(heard, Int64(map.engine(atDevice: device).rounded()))
            resetPending = true
        }
    }

    public func writtenFrames() -> Int64 { lock.withLock { engineWritten } }

    public func playedFrames() -> Int64 {
        let device = inner.playedFrames()
        return lock.withLock {
            let mapped = Int64(map.engine(atDevice: device).rounded(.down))
            heard = max(heard, min(mapped, engineWritten))
            return heard
        }
    }

    public func flush() {
        inner.flush()
        rebase()
    }

    public func requestFlush() {
        inner.requestFlush()
        rebase()
    }

    /// After a flush the engine's timeline goes on from where the listener is, on both sides.
    private func rebase() {
        let device = inner.playedFrames()
        lock.withLock {
            map.forget(before: device)
            let engine = max(heard, Int64(map.engine(atDevice: device).rounded(.down)))
            heard = engine
            engineWritten = engine
            map.mark(device: device, engine: Double(engine), pace: map.anchors.last?.pace ?? 1)
            resetPending = true
        }
    }

    public func retract(from frame: Int64, lead: Double) -> Int64 {
        let device = lock.withLock { Int64(map.device(atEngine: Double(frame)).rounded(.up)) }
        let landed = inner.retract(from: device, lead: lead)
        let played = inner.playedFrames()
        return lock.withLock {
            map.forget(before: played)
            let engine = max(heard, Int64(map.engine(atDevice: landed).rounded()))
            engineWritten = engine
            map.mark(device: landed, engine: Double(engine), pace: map.anchors.last?.pace ?? 1)
            resetPending = true
            return engine
        }
    }

    public func setPaused(_ paused: Bool) { inner.setPaused(paused) }
    public func cancelWrite() { inner.cancelWrite() }
    public func setVolume(_ volume: Float, muted: Bool) { inner.setVolume(volume, muted: muted) }
    /// The end of the sound: what the resampler still holds is written too, so the last play is heard to its
    /// end (and ends). The resampler starts afresh after it.
    public func drain() {
        if let resampler, let tail = try? resampler.flush(), !tail.isEmpty {
            let device = inner.writtenFrames()
            lock.withLock { map.mark(device: device, engine: Double(engineWritten) - Double(tail.count / format.channels) * (map.anchors.last?.pace ?? 1), pace: map.anchors.last?.pace ?? 1) }
            _ = inner.write(tail)
            resampler.reset()
            carry = 0
        }
        inner.drain()
    }
    public func close() { inner.close() }
}
