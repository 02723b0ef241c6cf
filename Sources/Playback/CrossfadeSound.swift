// The sound of a crossfade, as values the decode thread carries: the leaving play's samples read ahead of
// what is mixed (HeldSamples), and how far the equal-power curve has gone (CrossfadeMix). Both plays'
// samples are already at the output's rate and channel count (each reader resamples and remixes to it), so
// mixing is sample by sample whatever the two files were.

import Glibc

/// Interleaved samples read and not yet used, oldest first. Decode thread only.
struct HeldSamples {
    private var samples: [Float] = []
    /// Where the unused samples begin in `samples` (the front is dropped in bulk, not per chunk).
    private var start = 0

    var isEmpty: Bool { start == samples.count }
    var count: Int { samples.count - start }

    mutating func append(_ chunk: ArraySlice<Float>) { samples.append(contentsOf: chunk) }

    /// Takes the `n` oldest samples (fewer when fewer are held).
    mutating func take(_ n: Int) -> [Float] {
        let end = start + min(n, count)
        let taken = Array(samples[start..<end])
        start = end
        if start == samples.count {
            samples.removeAll(keepingCapacity: true)
            start = 0
        } else if start > samples.count / 2 {
            samples.removeFirst(start)
            start = 0
        }
        return taken
    }

    mutating func removeAll() {
        samples.removeAll()
        start = 0
    }
}

/// How far the entering play's first samples have been mixed with the leaving play's last ones.
struct CrossfadeMix: Equatable {
    /// Frames the two plays overlap.
    let frames: Int
    let channels: Int
    /// Frames mixed so far.
    private(set) var done = 0

    init(frames: Int, channels: Int) {
        self.frames = frames
        self.channels = channels
    }

    var isFinished: Bool { done >= frames }
    /// Frames still to mix.
    var remaining: Int { max(0, frames - done) }

    /// The gains at frame `index` of the overlap: equal power (cos² + sin² = 1), so that two uncorrelated
    /// sounds keep their loudness through the change; each frame at its centre, so neither end is 0 or 1.
    static func gains(at index: Int, of frames: Int) -> (leaving: Float, entering: Float) {
        let x = (Double(index) + 0.5) / Double(frames) * Double.pi / 2
        return (Float(cos(x)), Float(sin(x)))
    }

    /// Mixes `leaving` (interleaved, at most `remaining` frames; missing ones are silence) under the first
    /// frames of `chunk` (the entering play's next samples).
    mutating func mix(_ leaving: [Float], into chunk: inout [Float]) {
        let count = min(chunk.count / channels, remaining)
        guard count > 0 else { return }
        let channels = channels, done = done, frames = frames
        chunk.withUnsafeMutableBufferPointer { entering in
            for frame in 0..<count {
                let gain = Self.gains(at: done + frame, of: frames)
                for channel in 0..<channels {
                    let at = frame * channels + channel
                    let under = at < leaving.count ? leaving[at] : 0
                    entering[at] = entering[at] * gain.entering + under * gain.leaving
                }
            }
        }
        self.done += count
    }
}
