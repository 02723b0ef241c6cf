// How long to wait before the next connection attempt: a step that starts at `initial` and doubles per
// failure up to `maximum` (1 s → 60 s), with "equal jitter": half the step is fixed, the other half random.
// The fixed half keeps a refused client from hammering the broker; the random half spreads a fleet of
// screens that lost the broker together, so they do not all come back in the same second.
// A value type with no clock and no thread: MosquittoClient's network thread owns one.

public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    /// Failed attempts since the last success (or reset).
    public private(set) var failures = 0

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The step for the current failure count: initial · 2^failures, capped at maximum.
    public var step: Duration {
        let doublings = min(failures, 30)
        let scaled = initial * (1 << doublings)
        return min(scaled, maximum)
    }

    /// The wait before the next attempt, in [step/2, step]; counts one more failure.
    public mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let stepNanoseconds = Self.nanoseconds(step)
        let half = stepNanoseconds / 2
        let jitter = half > 0 ? Int64.random(in: 0...(stepNanoseconds - half), using: &generator) : 0
        failures += 1
        return .nanoseconds(half + jitter)
    }

    /// After a successful connection: the next loss starts again from `initial`.
    public mutating func reset() { failures = 0 }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
