// plays.* methods: the proof-of-play log (PlayLog): the daemon's recorder, or an empty log in memory for a
// dispatcher built without one (tests).

import PlayLog
import QueueRPC

extension Dispatcher {
    static func playsMethods(_ plays: any PlayLogControl) -> [RPCMethod] {
        [
            .answering(API.PlaysList.self, .query) { params, _ in
                let summary = plays.summary()
                let records = plays.list(after: params.after ?? summary.ackedThrough, limit: Int(params.limit ?? 100))
                return .init(
                    records: records, nextSeq: summary.nextSeq, ackedThrough: summary.ackedThrough,
                    dropped: summary.dropped)
            },
            .answering(API.PlaysAck.self, .change) { params, _ in
                .init(ackedThrough: plays.ack(through: params.through))
            },
        ]
    }
}
