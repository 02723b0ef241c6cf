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
        if let leader, up.contains(leader) {
            // Two leaders at once (a member that did not hear the group in time, a network split healed): the
            // one more members follow stays, on a tie the lowest id; the other's followers come over.
            var following: [String: Int] = [leader: 0]
            for follows in peers.values.compactMap(\.follows) + [leader] where up.contains(follows) { following[follows, default: 0] += 1 }
            let strongest = following.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
            if strongest != leader, following[strongest]! > following[leader]! || (following[strongest]! == following[leader]! && strongest < leader) {
                self.leader = strongest
            }
            return self.leader
        }
        // The leader the others follow, if it is up (the lowest, should they disagree for a moment).
        let followed = peers.values.compactMap(\.follows).filter { up.contains($0) && $0 != leader }
        leader = followed.min() ?? up.min()!
        return leader
    }

    public var members: [String] { (Array(peers.keys) + [me]).sorted() }

    /// Who is up and whom each follows, for the log when the leader changes.
    public var described: String {
        members.map { id in "\(id)→\(id == me ? leader ?? "?" : peers[id]?.follows ?? "?")" }.joined(separator: " ")
    }
    public var isLeader: Bool { leader == me }
}
