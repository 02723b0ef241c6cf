// The music zone's ducking, sample by sample (issue 39): −18 dB over 0.5 s from the frame the audio zone's
// item with sound starts, back after it, a raised-cosine ramp with no step anywhere (no click), a change
// mid-ramp continuing from where the gain is, and a cut taking back a change planned later.

import AudioMix
import Testing

struct DuckEnvelopeTests {
    let rate = 48_000

    /// The largest step between neighbouring frames over `range`.
    func largestStep(_ envelope: DuckEnvelope, _ range: Range<Int64>) -> Float {
        var largest: Float = 0
        var last = envelope.gain(at: range.lowerBound)
        for frame in range.dropFirst() {
            let gain = envelope.gain(at: frame)
            largest = max(largest, abs(gain - last))
            last = gain
        }
        return largest
    }

    @Test func theMusicGoesDownEighteenDecibelsOverHalfASecondAndComesBack() {
        var envelope = DuckEnvelope(depth: -18, rampSeconds: 0.5, sampleRate: rate)
        #expect(envelope.rampFrames == 24_000)
        #expect(abs(envelope.duckedGain - 0.125_89) < 1e-4)
        envelope.set(ducked: true, at: 10_000)
        envelope.set(ducked: false, at: 200_000)
        #expect(envelope.gain(at: 9_999) == 1 && envelope.gain(at: 10_000) == 1, "the ramp starts at its frame")
        #expect(abs(envelope.gain(at: 22_000) - (1 + envelope.duckedGain) / 2) < 1e-6, "half way at the ramp's middle")
        #expect(envelope.gain(at: 34_000) == envelope.duckedGain && envelope.gain(at: 199_999) == envelope.duckedGain)
        #expect(envelope.gain(at: 224_000) == 1)
        // Monotonic, and no step larger than the curve's steepest (π/2 × depth / ramp frames): no click.
        let steepest = Float.pi / 2 * (1 - envelope.duckedGain) / 24_000
        #expect(largestStep(envelope, 9_000..<230_000) <= steepest * 1.01, "Float rounding aside")
        let down = (10_000..<34_000).map { envelope.gain(at: Int64($0)) }
        #expect(zip(down, down.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(envelope.isDucked(at: 20_000) && !envelope.isDucked(at: 210_000) && !envelope.isDucked(at: 0))
    }

    @Test func aChangeMidRampGoesOnFromWhereTheGainIsAndACutTakesBackWhatWasPlannedLater() {
        var envelope = DuckEnvelope(sampleRate: rate)
        envelope.set(ducked: true, at: 0)
        envelope.set(ducked: false, at: 12_000)  // the item with sound was a quarter second long
        let turn = envelope.gain(at: 12_000)
        #expect(abs(turn - (1 + envelope.duckedGain) / 2) < 1e-6)
        #expect(abs(envelope.gain(at: 11_999) - turn) < 1e-4, "continuous at the turn")
        #expect(envelope.gain(at: 36_000) == 1)
        #expect(largestStep(envelope, 0..<40_000) < 1e-4)
        // Planned: ducked at 100 000; a cut at 90 000 says the item with sound will not come.
        envelope.set(ducked: true, at: 100_000)
        envelope.set(ducked: false, at: 90_000)
        #expect(envelope.gain(at: 120_000) == 1 && !envelope.isDucked(at: 130_000))
        // The same state twice is one ramp.
        envelope.set(ducked: true, at: 200_000)
        envelope.set(ducked: true, at: 210_000)
        #expect(largestStep(envelope, 190_000..<240_000) < 1e-4 && envelope.gain(at: 234_000) == envelope.duckedGain)
    }

    @Test func chunksAreScaledFrameByFrameAndForgettingOldRampsChangesNothing() {
        var envelope = DuckEnvelope(depth: -12, rampSeconds: 0.01, sampleRate: rate)  // 480 frames
        envelope.set(ducked: true, at: 1_000)
        var chunk = [Float](repeating: 1, count: 2 * 2_000)  // stereo, frames 0..<2000
        envelope.apply(to: &chunk, channels: 2, from: 0)
        for frame in [0, 999, 1_000, 1_240, 1_479, 1_480, 1_999] {
            #expect(chunk[2 * frame] == envelope.gain(at: Int64(frame)) && chunk[2 * frame + 1] == chunk[2 * frame])
        }
        var steady = [Float](repeating: 0.5, count: 8)
        envelope.apply(to: &steady, channels: 2, from: 5_000)
        #expect(steady.allSatisfy { $0 == 0.5 * envelope.duckedGain })
        let before = (0..<3).map { envelope.gain(at: Int64(5_000 + $0)) }
        envelope.forget(before: 4_000)
        #expect((0..<3).map { envelope.gain(at: Int64(5_000 + $0)) } == before)
        envelope.set(ducked: false, at: 6_000)
        #expect(envelope.gain(at: 6_480) == 1 && envelope.gain(at: 6_000) == envelope.duckedGain)
    }
}
