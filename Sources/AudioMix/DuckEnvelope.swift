// The music zone's gain (issue 39): turned down by `depth` dB while the audio zone plays an item with sound,
// and back up after it, each change a ramp of `rampFrames` frames that starts at the frame the change is
// due. The gain is continuous from sample to sample (no click): a raised-cosine curve between the two
// levels, and a change that comes mid-ramp starts from wherever the gain is. A value type: the mixer asks
// it for the gains of each chunk it mixes (output-timeline frames), so tests measure ramps sample by sample.

import Glibc

public struct DuckEnvelope: Sendable, Equatable {
    /// How far down (dB, ≤ 0) and the amplitude that is.
    public let depth: Double
    public let duckedGain: Float
    public let rampFrames: Int64
    /// The ramps asked for, in frame order: from the gain at `start` to `target` over `rampFrames`.
    private var ramps: [Ramp] = []
    /// The gain before the first ramp still kept.
    private var restingGain: Float = 1

    struct Ramp: Sendable, Equatable {
        var start: Int64
        var from: Float
        var target: Float
    }

    public init(depth: Double = -18, rampSeconds: Double = 0.5, sampleRate: Int) {
        self.depth = depth
        duckedGain = Float(pow(10, depth / 20))
        rampFrames = max(1, Int64((rampSeconds * Double(sampleRate)).rounded()))
    }

    /// From timeline frame `frame` on, the music is ducked (or not). A change at an earlier frame than one
    /// already asked for replaces the later ones (the audio zone's plan changed: a cut).
    public mutating func set(ducked: Bool, at frame: Int64) {
        set(gain: ducked ? duckedGain : 1, at: frame)
    }

    /// From timeline frame `frame` on, the music heads for `target` (0: silent, under an alert).
    public mutating func set(gain target: Float, at frame: Int64) {
        ramps.removeAll { $0.start >= frame }
        // Already heading there: the ramp under way (or the resting level) gets there by itself.
        guard (ramps.last?.target ?? restingGain) != target else { return }
        ramps.append(Ramp(start: frame, from: gain(at: frame), target: target))
    }

    /// Starts at `gain` (what another envelope had reached at `frame`), heading for this one's ducked level or
    /// full over a ramp from `frame`: a change of depth with no step.
    public mutating func resume(from gain: Float, ducked: Bool, at frame: Int64) {
        ramps = []
        restingGain = gain
        let target: Float = ducked ? duckedGain : 1
        if target != gain { ramps.append(Ramp(start: frame, from: gain, target: target)) }
    }

    /// The gain at timeline frame `frame`.
    public func gain(at frame: Int64) -> Float {
        guard let index = ramps.lastIndex(where: { $0.start <= frame }) else { return restingGain }
        let ramp = ramps[index]
        let into = frame - ramp.start
        guard into < rampFrames else { return ramp.target }
        // Raised cosine: 0 at the ramp's first frame, 1 after its last; each frame at its start.
        let x = Double(into) / Double(rampFrames)
        let shape = Float((1 - cos(x * Double.pi)) / 2)
        return ramp.from + (ramp.target - ramp.from) * shape
    }

    /// Whether the music is at its ducked level (or going there) at `frame`.
    public func isDucked(at frame: Int64) -> Bool {
        guard let ramp = ramps.last(where: { $0.start <= frame }) else { return restingGain != 1 }
        return ramp.target != 1
    }

    /// Scales interleaved `samples` (`channels` a frame) that start at timeline frame `frame`.
    public func apply(to samples: inout [Float], channels: Int, from frame: Int64) {
        let frames = samples.count / channels
        guard frames > 0 else { return }
        // Nothing moves in this chunk: one gain for all of it.
        if let steady = steadyGain(from: frame, frames: Int64(frames)) {
            if steady != 1 { for index in samples.indices { samples[index] *= steady } }
            return
        }
        for offset in 0..<frames {
            let gain = self.gain(at: frame + Int64(offset))
            for channel in 0..<channels { samples[offset * channels + channel] *= gain }
        }
    }

    /// Forgets the ramps finished before `frame` (what the mixer has mixed): the state stays small.
    public mutating func forget(before frame: Int64) {
        guard let last = ramps.lastIndex(where: { $0.start + rampFrames <= frame }) else { return }
        restingGain = ramps[last].target
        ramps.removeFirst(last + 1)
    }

    private func steadyGain(from frame: Int64, frames: Int64) -> Float? {
        let end = frame + frames
        // A ramp under way or one starting inside the chunk: not steady.
        if ramps.contains(where: { $0.start < end && $0.start + rampFrames > frame }) { return nil }
        return gain(at: frame)
    }
}
