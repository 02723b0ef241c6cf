// The clock a sync group's exchanges and plays are timed on: the monotonic clock (never stepped by NTP),
// run `skewPPM` fast when a test says so — a box whose crystal is off, as the daemon's sound is played that
// much fast too (TrimmedAudioSink). The test option is the environment's QUEUED_TEST_CLOCK_SKEW_PPM (at
// most ±1000); nothing sets it by default. The daemon and its sync program read the same variable.

public struct GroupClock: Sendable, Equatable {
    /// The fraction the clock runs fast (100 ppm: 0.0001).
    public let skew: Double

    public init(skewPPM: Double = 0) { skew = skewPPM / 1e6 }

    /// The skew the environment asks for (0 when absent, unreadable or beyond ±1000 ppm).
    public static func fromEnvironment(_ environment: [String: String]) -> GroupClock {
        guard let text = environment["QUEUED_TEST_CLOCK_SKEW_PPM"], let ppm = Double(text), abs(ppm) <= 1000 else {
            return GroupClock()
        }
        return GroupClock(skewPPM: ppm)
    }

    public var skewPPM: Double { skew * 1e6 }

    /// Now, in seconds.
    public func now() -> Double { groupTime(ofMonotonic: Monotonic.now()) }

    public func groupTime(ofMonotonic monotonic: Double) -> Double { monotonic * (1 + skew) }
    public func monotonic(ofGroupTime time: Double) -> Double { time / (1 + skew) }
}
