// The wait before a document that failed for a reason that may pass is tried again: 5 s doubling to 5 min,
// with "equal jitter" (half the step fixed, half random), so a fleet whose media server was down for a minute
// does not come back in the same second, and one that stays down is asked every five minutes at most.
// A value with no clock: DesiredState owns one per document being retried.

public struct RetryBackoff: Sendable, Equatable {
    public static let initial: Duration = .seconds(5)
    public static let maximum: Duration = .seconds(300)
    /// Failed attempts of the current document.
    public private(set) var failures = 0

    public init() {}

    /// The step for the current failure count: 5 s · 2^failures, at most 5 min.
    public var step: Duration {
        min(Self.initial * (1 << min(failures, 16)), Self.maximum)
    }

    /// The wait before the next attempt, in [step/2, step]; counts one more failure.
    public mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let milliseconds = Int64(step / .milliseconds(1))
        let half = milliseconds / 2
        failures += 1
        return .milliseconds(half + Int64.random(in: 0...(milliseconds - half), using: &generator))
    }
}
