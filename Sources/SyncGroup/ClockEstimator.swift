// The leader's clock as a follower sees it, from NTP-style exchanges: the follower stamps a request when it
// leaves (t1) and when the answer arrives (t4) on its own monotonic clock; the leader stamps its arrival (t2)
// and the answer's departure (t3) on its own. Each exchange gives an offset, leader minus follower, exact up
// to half the path's asymmetry, and its round-trip delay; a queue on the way (jitter) only ever adds delay.
// So only the exchanges of least delay are believed: the best of each bucket of `bucketSeconds`, and the
// line through those best points over the last `windowSeconds` gives the offset now and the drift (the two
// crystals' difference, in ppm). Monotonic clocks on both sides: a step of the wall clock (NTP) changes
// nothing. Pure value; the sync program owns one per leader and feeds it every exchange.

public struct ClockExchange: Sendable, Equatable {
    /// Follower sent, leader received, leader answered, follower received (seconds, each on its own clock).
    public var sent: Double
    public var received: Double
    public var answered: Double
    public var returned: Double

    public init(sent: Double, received: Double, answered: Double, returned: Double) {
        (self.sent, self.received, self.answered, self.returned) = (sent, received, answered, returned)
    }

    /// Leader's clock minus the follower's, at the exchange's middle.
    public var offset: Double { ((received - sent) + (answered - returned)) / 2 }
    /// The time on the wire both ways (the leader's own time taken out).
    public var delay: Double { (returned - sent) - (answered - received) }
    /// The follower's time at the exchange's middle.
    public var middle: Double { (sent + returned) / 2 }
}

public struct ClockEstimator: Sendable {
    /// The best exchange of each bucket: (follower time, offset, delay).
    private var best: [(bucket: Int, at: Double, offset: Double, delay: Double)] = []
    public let bucketSeconds: Double
    public let windowSeconds: Double
    /// The line fitted through `best`: offset at `origin` and its slope (seconds per second).
    private var fitted: (origin: Double, offset: Double, slope: Double)?

    public init(bucketSeconds: Double = 2, windowSeconds: Double = 300) {
        (self.bucketSeconds, self.windowSeconds) = (bucketSeconds, windowSeconds)
    }

    /// Exchanges with a negative delay are impossible (a clock went backwards, a stamp was wrong): dropped.
    public mutating func add(_ exchange: ClockExchange) {
        guard exchange.delay >= 0, exchange.delay < 1 else { return }
        let bucket = Int((exchange.middle / bucketSeconds).rounded(.down))
        if let last = best.last, last.bucket == bucket {
            // A worse exchange than the bucket's best changes nothing.
            guard exchange.delay < last.delay else { return }
            best[best.count - 1] = (bucket, exchange.middle, exchange.offset, exchange.delay)
        } else {
            best.append((bucket, exchange.middle, exchange.offset, exchange.delay))
        }
        best.removeAll { exchange.middle - $0.at > windowSeconds }
        fitted = Self.fit(best)
    }

    /// Whether it has anything to say yet.
    public var isReady: Bool { fitted != nil }

    /// The leader's clock when the follower's reads `local` (nil before any exchange).
    public func leaderTime(at local: Double) -> Double? {
        guard let fitted else { return nil }
        return local + fitted.offset + fitted.slope * (local - fitted.origin)
    }

    /// How much faster the leader's clock runs, in parts per million (0 until two buckets are in).
    public var driftPPM: Double { (fitted?.slope ?? 0) * 1e6 }

    /// The delay of the best exchange kept last (what the line's points are believed to within, halved).
    public var bestDelay: Double? { best.map(\.delay).min() }

    /// Least squares through the buckets' best points, each weighed alike; one point: a level line. The
    /// worst third by delay is left out once there are six or more (a bucket whose best was still queued).
    static func fit(_ points: [(bucket: Int, at: Double, offset: Double, delay: Double)]) -> (origin: Double, offset: Double, slope: Double)? {
        guard let last = points.last else { return nil }
        guard points.count >= 2 else { return (last.at, last.offset, 0) }
        var kept = points
        if kept.count >= 6 {
            let limit = kept.map(\.delay).sorted()[kept.count * 2 / 3]
            kept = kept.filter { $0.delay <= limit }
        }
        let origin = last.at
        let n = Double(kept.count)
        let meanX = kept.reduce(0) { $0 + ($1.at - origin) } / n
        let meanY = kept.reduce(0) { $0 + $1.offset } / n
        var sxx = 0.0, sxy = 0.0
        for point in kept {
            let x = point.at - origin - meanX
            sxx += x * x
            sxy += x * (point.offset - meanY)
        }
        let slope = sxx > 1e-9 ? sxy / sxx : 0
        // The line's value at the newest point's time.
        return (origin, meanY - slope * meanX, slope)
    }
}
