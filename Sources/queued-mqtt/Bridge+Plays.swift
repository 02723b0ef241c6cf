// Proof of play through the broker: each record the daemon kept (`event.played`, and at every (re)connect
// what `plays.list` still holds) is published at QoS 1 with the player's id; once the broker has
// acknowledged every record up to a seq, the daemon is told (`plays.ack`) and forgets them. So a broker
// outage, a bridge killed with -9 or a power cut loses none: what is not acknowledged is sent again
// (consumers de-duplicate by `seq`).

import Fleet
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import QueueRPC

/// Records in flight to the broker. Work queue only.
struct PlayForwarding {
    /// Broker message id → seq, for records published and not yet acknowledged.
    var inFlight: [Int32: Int64] = [:]
    /// Seqs published and not yet acknowledged, and the highest seq acknowledged in a row.
    var pending: Set<Int64> = []
    var published: Set<Int64> = []
    var acknowledged: Set<Int64> = []
    /// The daemon has forgotten records through this seq.
    var ackedThrough: Int64 = 0
}

extension Bridge {
    /// Publishes one record (from `event.played` or `plays.list`) unless it is in flight already.
    func forwardPlay(_ record: JSONValue) {
        guard let stamped = PlayRecord(daemonRecord: record, player: topics.player), let seq = stamped.seq,
            seq > plays.ackedThrough, !plays.pending.contains(seq)
        else { return }
        guard let id = publish(topics.events, stamped.json) else { return }
        plays.inFlight[id] = seq
        plays.pending.insert(seq)
    }

    /// Everything the daemon still holds and is not in flight; `brokerReconnected`: what was in flight may
    /// be lost with the old connection, so all of it goes again. (Both sides connecting at start used to
    /// send every record twice.)
    func resendUnacknowledgedPlays(brokerReconnected: Bool) {
        if brokerReconnected {
            plays.inFlight.removeAll()
            plays.pending.removeAll()
        }
        var after: Int64 = 0
        while let page = try? daemonCall(API.PlaysList.self, .init(after: after, limit: 1000)) {
            plays.ackedThrough = max(plays.ackedThrough, page.ackedThrough)
            for record in page.records { forwardPlay(record) }
            guard let last = page.records.last?["seq"]?.intValue, page.records.count == 1000 else { break }
            after = last
        }
    }

    /// The broker has record `messageID`: acknowledge to the daemon every record up to the first gap.
    func playAcknowledged(messageID: Int32) {
        guard let seq = plays.inFlight.removeValue(forKey: messageID) else { return }
        plays.pending.remove(seq)
        plays.acknowledged.insert(seq)
        let lowestPending = plays.pending.min() ?? .max
        let through = plays.acknowledged.filter { $0 < lowestPending }.max()
        guard let through, through > plays.ackedThrough else { return }
        if let acked = try? daemonCall(API.PlaysAck.self, .init(through: through)) {
            plays.ackedThrough = acked.ackedThrough
            plays.acknowledged = plays.acknowledged.filter { $0 > acked.ackedThrough }
        }
    }
}
