// What a follower does at each measurement: compares the play it hears with the leader's, both brought to
// the same instant (the leader's clock read through the estimator), and decides — nothing yet, a trim of
// the sound's pace (DriftCorrection), or a re-alignment: the leader's play placed to be heard from where
// the leader will be at a moment just ahead (sync.align). A different item or play (a queue change, a late
// join, a seam crossed on one side only for a moment) is given half a second before it is re-aligned.
// Pure value; queued-sync owns one while it follows and carries its actions out.

public struct PlayHeard: Sendable, Equatable {
    public var index: Int
    public var play: Int
    public var position: Double
    /// When `position` is heard, on the clock of the member that heard it.
    public var at: Double
    public var duration: Double?
    /// The item's URI: after a queue change the same place may hold another item.
    public var uri: String

    public init(index: Int, play: Int, position: Double, at: Double, duration: Double?, uri: String = "") {
        (self.index, self.play, self.position, self.at, self.duration, self.uri) = (index, play, position, at, duration, uri)
    }

    /// The same play of the same item. Not its place: while a queue change waits for the seam the play
    /// under way stays in front of the new items, one place off. (The same file twice in one queue, played
    /// in the wrong place, shows as a different item at the next seam.)
    func isSamePlay(as other: PlayHeard) -> Bool { play == other.play && uri == other.uri }
}

public struct FollowerLoop: Sendable {
    public enum Action: Sendable, Equatable {
        case hold
        /// Play `ppm` fast (sync.trim); `error`: how far ahead this member was, in seconds.
        case trim(ppm: Double, error: Double)
        /// Place the leader's play (item `uri` at queue `index`), `play`, heard from `position` at `at` (this
        /// member's clock).
        case align(index: Int, uri: String, play: Int, position: Double, at: Double, error: Double?)
    }

    /// How far ahead a re-alignment is placed (the play is opened and its first picture decoded meanwhile).
    public let alignLead: Double
    /// A leader's timeline older than this is not projected (it may have crossed a seam since).
    public static let freshness = 2.0
    public private(set) var correction: DriftCorrection
    private var lastStep: Double?
    private var mismatchSince: Double?
    private var settleUntil = -Double.infinity
    /// How far behind a re-alignment lands (the output's own latency after the instant), learned from the
    /// first measurement after each one and added to the next.
    public private(set) var landing = 0.0
    private var measuringLanding = false

    public init(correction: DriftCorrection = DriftCorrection(), alignLead: Double = 0.3) {
        self.correction = correction
        self.alignLead = alignLead
    }

    /// The decision at `now` (this member's clock), given the leader's last timeline, what this member hears,
    /// and the leader's clock at `now` (nil: not estimated yet).
    public mutating func step(leader: PlayHeard?, mine: PlayHeard?, now: Double, leaderNow: Double?) -> Action {
        guard let leader, let leaderNow, abs(leaderNow - leader.at) <= Self.freshness else {
            lastStep = nil
            return .hold
        }
        let leaderPosition = leader.position + (leaderNow - leader.at)
        // Past its end the leader is already in its next play, which its next timeline will say.
        if let duration = leader.duration, leaderPosition > duration - 0.05 { return .hold }
        guard let mine, mine.isSamePlay(as: leader) else {
            lastStep = nil
            let since = mismatchSince ?? now
            mismatchSince = since
            guard now - since >= 0.5, now >= settleUntil else { return .hold }
            return align(leader, at: leaderPosition, now: now, error: nil)
        }
        mismatchSince = nil
        guard now >= settleUntil else { return .hold }
        let error = (mine.position + (now - mine.at)) - leaderPosition
        if measuringLanding {
            measuringLanding = false
            landing -= error
        }
        let elapsed = lastStep.map { now - $0 } ?? 0
        lastStep = now
        switch correction.step(error: error, elapsed: elapsed) {
        case .rate(let rate):
            return .trim(ppm: (rate - 1) * 1e6, error: error)
        case .realign:
            return align(leader, at: leaderPosition, now: now, error: error)
        }
    }

    /// The re-alignment asked for could not be made (the item is not in this member's queue yet): nothing is
    /// learned from the next measurement.
    public mutating func alignAbandoned() {
        measuringLanding = false
        settleUntil = -Double.infinity
    }

    private mutating func align(_ leader: PlayHeard, at leaderPosition: Double, now: Double, error: Double?) -> Action {
        let position = leaderPosition + alignLead + landing
        if let duration = leader.duration, position > duration - 0.5 { return .hold }
        // Nothing more until the placed play has been heard a moment (an item slow to open is not placed
        // again and again meanwhile).
        settleUntil = now + alignLead + 2
        mismatchSince = nil
        measuringLanding = true
        lastStep = nil
        return .align(index: leader.index, uri: leader.uri, play: leader.play, position: position, at: now + alignLead, error: error)
    }
}

/// The offsets measured over the last `span` seconds: their median and the 99th percentile of their size.
public struct OffsetWindow: Sendable {
    public let span: Double
    private var samples: [(at: Double, offset: Double)] = []

    public init(span: Double = 60) { self.span = span }

    public mutating func add(_ offset: Double, at now: Double) {
        samples.append((now, offset))
        if let first = samples.first, now - first.at > span { samples.removeAll { now - $0.at > span } }
    }

    public mutating func clear() { samples.removeAll() }

    public var median: Double? {
        guard !samples.isEmpty else { return nil }
        return samples.map(\.offset).sorted()[samples.count / 2]
    }

    public var p99: Double? {
        guard !samples.isEmpty else { return nil }
        let sizes = samples.map { abs($0.offset) }.sorted()
        return sizes[min(sizes.count - 1, Int((Double(sizes.count) * 0.99).rounded(.down)))]
    }
}
