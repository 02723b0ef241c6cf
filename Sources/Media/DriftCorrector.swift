// Keeps a live stream's latency (what was received and is not heard yet) within a band around its target by
// playing a little faster or slower — never by dropping or repeating buffers. A live source runs on its
// encoder's clock and the sound card on its own: 20–100 ppm apart, up to 8 s a day. Played at exactly its
// own rate, a faster sender piles up (latency creeps until a buffer overflows) and a slower one runs dry
// (stalls). So: the latency, smoothed over `smoothing` seconds, leaving the band sets the pace to 1 ± 0.5 %
// (inaudible, and 50 times a crystal's error) until it is back at the target (hysteresis: no hunting).
//
// The pace maps stream time to item time: sound is resampled by it (AudioConverter's compensation) and
// pictures are placed by the same map, so they stay in step and the engine sees an ordinary play.
// A value owned by the decode thread's MediaReader; its decisions are what `observe` returns.

public struct DriftCorrector: Sendable, Equatable {
    /// The latency it steers to (seconds); nil until learned from the play itself (a segmented stream,
    /// whose latency is the segments its playlist keeps behind the live edge).
    public private(set) var target: Double?
    /// How far the latency may stray from the target before the pace changes, as a fraction of it.
    public let tolerance: Double
    /// Stream seconds played per item second: above 1 the latency falls, below 1 it grows.
    public private(set) var pace = 1.0
    /// The smoothed latency (nil before the first measurement).
    public private(set) var smoothed: Double?

    public static let maxCorrection = 0.005
    /// Seconds of stream over which measurements are averaged (segment bursts and jitter cancel out).
    public static let smoothing = 10.0
    /// A learned target is taken once the play has been measured this long.
    public static let settling = 30.0
    /// Nothing is decided in a play's first seconds: its outputs and queue are still filling.
    public static let warmUp = 5.0

    private var firstMeasured: Double?
    private var lastMeasured: Double?
    /// The map's last bend: stream time `anchorStream` is item time `anchorItem`; after it, item time runs
    /// 1/pace as fast as stream time.
    private var anchorStream = 0.0
    private var anchorItem = 0.0

    public init(target: Double?, tolerance: Double = 0.25) {
        self.target = target
        self.tolerance = tolerance
    }

    /// The band the latency is kept in, once there is a target.
    public var band: ClosedRange<Double>? {
        target.map { ($0 * (1 - tolerance))...($0 * (1 + tolerance)) }
    }

    /// Item time of stream time `stream` (seconds, both from the item's origin).
    public func itemTime(ofStream stream: Double) -> Double {
        anchorItem + (stream - anchorStream) / pace
    }

    /// A latency measured when the stream had been played up to `stream`. Returns the new pace when it
    /// changed (then the map bends there), nil otherwise.
    public mutating func observe(latency: Double, at stream: Double) -> Double? {
        guard latency.isFinite, stream.isFinite else { return nil }
        let elapsed = lastMeasured.map { max(0, stream - $0) } ?? 0
        lastMeasured = stream
        if firstMeasured == nil { firstMeasured = stream }
        if let smoothed {
            let weight = min(1, elapsed / Self.smoothing)
            self.smoothed = smoothed + (latency - smoothed) * weight
        } else {
            smoothed = latency
        }
        guard let smoothed, let firstMeasured, stream - firstMeasured >= Self.warmUp else { return nil }
        if target == nil {
            guard stream - firstMeasured >= Self.settling else { return nil }
            target = max(0.1, smoothed)
        }
        guard let target, let band else { return nil }
        let wanted: Double
        if pace > 1 {
            wanted = smoothed <= target ? 1 : pace
        } else if pace < 1 {
            wanted = smoothed >= target ? 1 : pace
        } else if smoothed > band.upperBound {
            wanted = 1 + Self.maxCorrection
        } else if smoothed < band.lowerBound {
            wanted = 1 - Self.maxCorrection
        } else {
            wanted = 1
        }
        guard wanted != pace else { return nil }
        anchorItem = itemTime(ofStream: stream)
        anchorStream = stream
        pace = wanted
        return wanted
    }

    /// The play goes on from item time `item` at stream time `stream` (a reconnect rebases the stream; an
    /// interrupt's return places it anew): the map starts there, at the pace it had.
    public mutating func restart(item: Double, stream: Double) {
        anchorItem = item
        anchorStream = stream
        lastMeasured = nil
    }
}
