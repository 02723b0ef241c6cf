// What the state files hold. The journal is a sequence of records, each a change of the queue or the
// player as it now is; the snapshot is a header (the queue without its entries, the player, the number of
// entries) followed by one line per entry, so a damaged snapshot still gives back the entries before the
// damage.

import Playback
import QueueModel

/// One journal line.
enum StateRecord: Codable, Equatable {
    case queue(PlayQueue.Change)
    case player(PlayerSnapshot)
}

/// The first line of a snapshot file.
struct SnapshotHeader: Codable, Equatable {
    static let currentFormat = 1
    var format: Int
    /// The journal that continues this snapshot is `journal.<generation>`.
    var generation: UInt64
    /// The queue with `entries` empty; `entryCount` entry lines follow.
    var queue: PlayQueue.Snapshot
    var entryCount: Int
    var player: PlayerSnapshot
}
