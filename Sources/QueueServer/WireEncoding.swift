// How the engine's values look on the wire (the shapes Protocol/queued.openrpc.json describes):
// Status, QueueItem and the event notifications. Pure functions.
import Playback
import QueueModel
import QueueRPC

enum Wire {
    static func status(_ status: PlayerStatus) -> RPCStatus {
        RPCStatus(
            state: status.state.rawValue, currentId: status.currentID.map { Int64($0.rawValue) },
            position: status.position, duration: status.duration, play: Int64(status.play),
            volume: Int64(status.volume),
            muted: status.muted, rate: status.rate, queueLoops: Int64(status.queueLoops), error: status.error,
            title: status.title, uri: status.uri, loops: status.loops.map(Int64.init), fit: status.fit.rawValue,
            fullscreen: status.fullscreen, queueVersion: Int64(status.queueVersion),
            droppedFrames: Int64(status.droppedFrames)
        )
    }

    static func item(_ entry: QueueEntry) -> RPCQueueItem {
        let state: String
        var error: String?
        switch entry.state {
        case .queued: state = "queued"
        case .playing: state = "playing"
        case .played: state = "played"
        case .failed(let message):
            state = "failed"
            error = message
        }
        return RPCQueueItem(
            id: Int64(entry.id.rawValue), uri: entry.item.uri, title: entry.item.title, loops: Int64(entry.item.loops),
            plays: Int64(entry.playsDone), duration: entry.knownDuration ?? entry.item.duration, state: state,
            error: error,
            start: entry.item.start, end: entry.item.end, trackEnd: entry.item.trackEnd?.rawValue
        )
    }

    static func ids(_ ids: [ItemID]) -> [Int64] {
        ids.map { Int64($0.rawValue) }
    }

    /// The notification for an engine event: its kind and its params.
    /// The kind of `event`, without building its params (most connections subscribe to few kinds).
    static func name(of event: PlayerEvent) -> EventName {
        switch event {
        case .statusChanged: .status
        case .progress: .progress
        case .itemStarted: .itemStarted
        case .itemEnded: .itemEnded
        case .queueChanged: .queueChanged
        case .outputChanged: .output
        }
    }

    static func notification(_ event: PlayerEvent) -> (name: EventName, params: JSONValue) {
        switch event {
        case .statusChanged(let status):
            return (.status, self.status(status).json)
        case .progress(let id, let position, let duration, let play):
            return (
                .progress,
                .object([
                    "id": .int(Int64(id.rawValue)), "position": .double(position),
                    "duration": duration.map(JSONValue.double) ?? .null, "play": .int(Int64(play)),
                ])
            )
        case .itemStarted(let id, let play, let wallClock, _):
            return (
                .itemStarted,
                .object(["id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "at": .double(wallClock)])
            )
        case .itemEnded(let id, let play, let reason, let error):
            return (
                .itemEnded,
                .object([
                    "id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "reason": .string(reason.rawValue),
                    "error": error.map(JSONValue.string) ?? .null,
                ])
            )
        case .queueChanged(let version):
            return (.queueChanged, .object(["version": .int(Int64(version))]))
        case .outputChanged(let change):
            return (
                .output,
                .object([
                    "output": .string(change.output), "state": .string(change.state.rawValue),
                    "message": change.message.map(JSONValue.string) ?? .null,
                ])
            )
        }
    }
}
