// What a follower does about the distance between its media clock and the leader's (`error`: seconds the
// follower is ahead; negative: behind). Small distances are taken out by rate alone — the audio resampled by
// at most ±0.5 %, which no one hears, and the pictures follow the audio clock — with a proportional-integral
// loop whose integral learns the crystals' drift, so the rate settles where the error stays near zero. A
// distance beyond `threshold` is not chased by rate (40 ms at 0.5 % takes 8 s): the follower re-aligns once,
// at its next seam or by a cut at a frame boundary, and the loop starts again from the drift it knew. Never
// a pause. Pure value; `step` is called at every measurement with the time since the last.

public struct DriftCorrection: Sendable {
    public enum Action: Sendable, Equatable {
        /// Play at this rate (1 ± at most `maximumTrim`) until the next measurement.
        case rate(Double)
        /// Jump to the leader's position (the follower's own position minus `error`), then carry on at `rate`.
        case realign(by: Double, rate: Double)
    }

    public let threshold: Double
    public let maximumTrim: Double
    /// Proportional gain (per second of error, as a rate) and the integral's (per second of error per second).
    public let gain: Double
    public let integralGain: Double
    /// The integral: the rate trim that holds the clocks together (the drift, learned).
    public private(set) var drift = 0.0
    public private(set) var realignments = 0

    public init(threshold: Double = 0.04, maximumTrim: Double = 0.005, gain: Double = 0.5, integralGain: Double = 0.005) {
        (self.threshold, self.maximumTrim, self.gain, self.integralGain) = (threshold, maximumTrim, gain, integralGain)
    }

    /// The action for `error` measured now, `elapsed` seconds after the last measurement.
    public mutating func step(error: Double, elapsed: Double) -> Action {
        if abs(error) > threshold {
            realignments += 1
            return .realign(by: error, rate: 1 + drift)
        }
        drift = clamp(drift - integralGain * error * elapsed)
        return .rate(1 + clamp(drift - gain * error))
    }

    private func clamp(_ trim: Double) -> Double { min(maximumTrim, max(-maximumTrim, trim)) }
}
