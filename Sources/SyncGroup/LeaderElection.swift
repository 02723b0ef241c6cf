// Who leads a sync group, decided alike on every member without a vote. Each member says hello a few times
// a second with the leader it follows. A fresh member listens for `timeout` first; then it follows the leader
// the others follow (a box that joins late, even with a lower id, does not take the lead: no jump for the
// rest), else — a group starting together, or its leader gone for `timeout` — the lowest id among those
// up. Pure; times are the member's own monotonic seconds.

public struct LeaderElection: Sendable {
    public let me: String
    public let timeout: Double
    private let startedAt: Double
    /// Each peer: when last heard, and the leader it said it follows (nil: none yet).
    private var peers: [String: (last: Double, follows: String?)] = [:]
    /// The leader chosen last; nil while listening.
    public private(set) var leader: String?

    public init(me: String, startedAt: Double, timeout: Double = 1.5) {
        (self.me, self.startedAt, self.timeout) = (me, startedAt, timeout)
    }

    /// A hello from `peer` at `now`, following `follows`.
    public mutating func heard(_ peer: String, follows: String?, at now: Double) {
        guard peer != me else { return }
        peers[peer] = (now, follows)
    }

    /// The leader at `now` (nil while still listening), chosen again from those up.
    @discardableResult
    public mutating func decide(at now: Double) -> String? {
        peers = peers.filter { now - $0.value.last <= timeout }
        guard now - startedAt >= timeout else { return nil }
        let up = Set(peers.keys).union([me])
        if let leader, up.contains(leader) { return leader }
        // The leader the others follow, if it is up (the lowest, should they disagree for a moment).
        let followed = peers.values.compactMap(\.follows).filter { up.contains($0) && $0 != leader }
        leader = followed.min() ?? up.min()!
        return leader
    }

    public var members: [String] { (Array(peers.keys) + [me]).sorted() }
    public var isLeader: Bool { leader == me }
}
