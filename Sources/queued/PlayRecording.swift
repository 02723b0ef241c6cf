// Keeps the proof-of-play log: pairs the engine's itemStarted and itemEnded into one record per play
// (PlayLedger), has the PlayLogStore number and keep it durably, and only then tells subscribers
// (`event.played`), so a record anyone has seen survives a power cut. Engine events arrive on the engine's
// delivery path, which must not wait on a disk; everything else runs on this object's own queue, in order.

import Dispatch
import JSONText
import MediaPaths
import Playback
import PlayLog
import QueueModel
import SystemClock

final class PlayRecording: PlayLogControl, @unchecked Sendable {
    private let store: PlayLogStore
    /// Records' and the file's work, in event order.
    private let queue = DispatchQueue(label: "queued.plays")
    /// Only on `queue`: main's plays, and each other zone's (ids are per zone).
    private var ledgers: [String: PlayLedger] = [:]
    private let publish: @Sendable (JSONValue) -> Void

    init(store: PlayLogStore, publish: @escaping @Sendable (JSONValue) -> Void) {
        self.store = store
        self.publish = publish
    }

    /// Engine delivery path: hands the event to the queue (no waiting here). `zone`: nil for main.
    func observe(_ event: PlayerEvent, zone: String? = nil) {
        let key = zone ?? ""
        switch event {
        case .itemStarted(let id, let play, let wallClock, _, let interrupt, _, let item, _, _):
            // Proof of play names a camera without its password (the record is kept on disk and published).
            let played = item.map { PlayedItem(uri: StreamKind.redacted($0.uri), title: $0.title, sha256: $0.sha256) }
            queue.async {
                self.ledgers[key, default: PlayLedger()].started(
                    id: Int64(id.rawValue), play: Int64(play), interrupt: interrupt,
                    atMs: Int64((wallClock * 1000).rounded()), item: played)
            }
        case .itemEnded(let id, let play, let reason, let error, let interrupt):
            let nowMs = Int64((Monotonic.wallClock() * 1000).rounded())
            queue.async {
                let record = self.store.append { seq in
                    var record = self.ledgers[key, default: PlayLedger()].ended(
                        id: Int64(id.rawValue), play: Int64(play), interrupt: interrupt, reason: reason.rawValue,
                        error: error, nowMs: nowMs, item: nil, seq: seq)
                    record.zone = zone
                    return record.json
                }
                self.publish(record)
                self.store.tidy()
            }
        default:
            break
        }
    }

    func list(after seq: Int64, limit: Int) -> [JSONValue] { store.list(after: seq, limit: limit) }

    func ack(through seq: Int64) -> Int64 {
        let acked = store.ack(through: seq)
        queue.async { self.store.tidy() }
        return acked
    }

    func summary() -> PlayLogStore.Summary { store.summary() }

    /// Waits for the records already handed over to be kept (shutdown).
    func flush() {
        queue.sync { store.tidy() }
    }
}
