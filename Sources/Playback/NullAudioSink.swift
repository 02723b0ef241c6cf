// An audio output that plays nothing but keeps time: on the monotonic clock (`--audio null`, and the
// fallback when no PulseAudio server is reachable), or untimed — heard as soon as written — for tests,
// soak runs and benchmarks, optionally keeping what it was given (the capture output).

import FoundationEssentials
import Glibc
import SystemSupport
import SystemClock

public final class NullAudioSink: AudioSink, @unchecked Sendable {
    public enum Mode: Sendable {
        /// Frames are heard at the format's rate on the monotonic clock; `write` blocks past `buffer` seconds.
        case realtime(buffer: Double)
        /// Frames are heard the moment they are written; `write` never blocks.
        case untimed
    }

    public let format: AudioFormat
    private let mode: Mode
    private let keepSamples: Bool
    /// Guards everything below.
    private let condition = ThreadCondition()
    private var written: Int64 = 0
    /// Heard frames at `runningSince`; the clock runs from there while not paused and not starved.
    private var heardBase: Int64 = 0
    private var runningSince: Double = Monotonic.now()
    private var paused = false
    private var closed = false
    /// Bumped by `flush` and `cancelWrite`: a `write` or `drain` begun under an older value gives up.
    private var generation = 0
    private var samples: [Float] = []
    private var gain: Float = 1

    public init(format: AudioFormat = AudioFormat(), mode: Mode, keepSamples: Bool = false) {
        self.format = format
        self.mode = mode
        self.keepSamples = keepSamples
    }

    /// A sink that takes over another one's timeline: `written` frames accepted, `heard` of them heard,
    /// the clock running from now (or held, when `paused`). For an output that lost its device.
    public convenience init(format: AudioFormat, mode: Mode, continuing written: Int64, heard: Int64, paused: Bool) {
        self.init(format: format, mode: mode)
        self.written = written
        heardBase = min(heard, written)
        self.paused = paused
    }

    public func write(_ chunk: [Float]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let generationAtStart = generation
        if case .realtime(let buffer) = mode {
            let limit = Int64(buffer * Double(format.sampleRate))
            while !closed && generation == generationAtStart && written - heardLocked() > limit {
                _ = condition.wait(seconds: 0.005)
            }
        }
        guard !closed && generation == generationAtStart else { return false }
        if heardLocked() >= written { runningSince = Monotonic.now() }  // was starved: restart the clock here
        written += Int64(chunk.count / format.channels)
        if keepSamples {
            samples.append(contentsOf: gain == 1 ? chunk : chunk.map { $0 * gain })
        }
        condition.broadcast()
        return true
    }

    public func writtenFrames() -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        return written
    }

    public func playedFrames() -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        return heardLocked()
    }

    /// Frames heard now; re-bases the clock so it neither runs while paused nor past what was written.
    private func heardLocked() -> Int64 {
        guard case .realtime = mode else { return written }
        if paused { return heardBase }
        let now = Monotonic.now()
        let heard = heardBase + Int64((now - runningSince) * Double(format.sampleRate))
        if heard >= written {
            heardBase = written
            runningSince = now
            return written
        }
        return heard
    }

    public func setPaused(_ paused: Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard paused != self.paused else { return }
        heardBase = heardLocked()
        runningSince = Monotonic.now()
        self.paused = paused
        condition.broadcast()
    }

    public func flush() {
        condition.lock()
        defer { condition.unlock() }
        let heard = heardLocked()
        if keepSamples {
            samples.removeLast(Int(written - heard) * format.channels)
        }
        written = heard
        heardBase = heard
        runningSince = Monotonic.now()
        generation += 1
        condition.broadcast()
    }

    /// Realtime: what is not yet heard `lead` seconds from now can be taken back (untimed: nothing is).
    public func retract(from frame: Int64, lead: Double) -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        let earliest = heardLocked() + Int64(lead * Double(format.sampleRate))
        let cut = min(written, max(frame, earliest))
        if keepSamples { samples.removeLast(Int(written - cut) * format.channels) }
        written = cut
        return written
    }

    public func cancelWrite() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Nothing here waits for a device: the same as `flush`.
    public func requestFlush() { flush() }

    public func setVolume(_ volume: Float, muted: Bool) {
        condition.lock()
        gain = muted ? 0 : volume
        condition.unlock()
    }

    public func drain() {
        condition.lock()
        defer { condition.unlock() }
        let generationAtStart = generation
        while !closed && generation == generationAtStart && heardLocked() < written {
            _ = condition.wait(seconds: 0.005)
        }
    }

    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Everything written and kept so far (capture mode), interleaved.
    public func capturedSamples() -> [Float] {
        condition.lock()
        defer { condition.unlock() }
        return samples
    }
}
