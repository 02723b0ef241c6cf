// How the engine's values look on the wire (the shapes Protocol/queued.openrpc.json describes):
// Status, QueueItem and the event notifications. Pure functions.
import Playback
import QueueModel
import QueueRPC

/// The event kinds a connection can subscribe to.
public enum EventName: String, CaseIterable, Sendable {
    case status, progress, itemStarted, itemEnded, queueChanged

    var method: String { "event.\(rawValue)" }
}

enum Wire {
    static func status(_ status: PlayerStatus) -> JSONValue {
        .object([
            "state": .string(status.state.rawValue),
            "currentId": status.currentID.map { .int(Int64($0.rawValue)) } ?? .null,
            "title": status.title.map(JSONValue.string) ?? .null,
            "uri": status.uri.map(JSONValue.string) ?? .null,
            "loops": status.loops.map { .int(Int64($0)) } ?? .null,
            "position": .double(status.position),
            "duration": status.duration.map(JSONValue.double) ?? .null,
            "play": .int(Int64(status.play)),
            "volume": .int(Int64(status.volume)),
            "muted": .bool(status.muted),
            "rate": .double(status.rate),
            "fit": .string(status.fit.rawValue),
            "fullscreen": .bool(status.fullscreen),
            "queueLoops": .int(Int64(status.queueLoops)),
            "queueVersion": .int(Int64(status.queueVersion)),
            "error": status.error.map(JSONValue.string) ?? .null,
            "droppedFrames": .int(Int64(status.droppedFrames)),
        ])
    }

    static func item(_ entry: QueueEntry) -> JSONValue {
        let state: String
        var error: JSONValue = .null
        switch entry.state {
        case .queued: state = "queued"
        case .playing: state = "playing"
        case .played: state = "played"
        case .failed(let message):
            state = "failed"
            error = .string(message)
        }
        return .object([
            "id": .int(Int64(entry.id.rawValue)),
            "uri": .string(entry.item.uri),
            "title": entry.item.title.map(JSONValue.string) ?? .null,
            "loops": .int(Int64(entry.item.loops)),
            "plays": .int(Int64(entry.playsDone)),
            "start": entry.item.start.map(JSONValue.double) ?? .null,
            "end": entry.item.end.map(JSONValue.double) ?? .null,
            "duration": (entry.knownDuration ?? entry.item.duration).map(JSONValue.double) ?? .null,
            "trackEnd": entry.item.trackEnd.map { .string($0.rawValue) } ?? .null,
            "state": .string(state),
            "error": error,
        ])
    }

    static func ids(_ ids: [ItemID]) -> JSONValue {
        .array(ids.map { .int(Int64($0.rawValue)) })
    }

    /// The notification for an engine event: its kind and its params.
    static func notification(_ event: PlayerEvent) -> (name: EventName, params: JSONValue) {
        switch event {
        case .statusChanged(let status):
            return (.status, self.status(status))
        case .progress(let id, let position, let duration, let play):
            return (.progress, .object([
                "id": .int(Int64(id.rawValue)), "position": .double(position),
                "duration": duration.map(JSONValue.double) ?? .null, "play": .int(Int64(play)),
            ]))
        case .itemStarted(let id, let play, let wallClock, _):
            return (.itemStarted, .object(["id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "at": .double(wallClock)]))
        case .itemEnded(let id, let play, let reason, let error):
            return (.itemEnded, .object([
                "id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "reason": .string(reason.rawValue),
                "error": error.map(JSONValue.string) ?? .null,
            ]))
        case .queueChanged(let version):
            return (.queueChanged, .object(["version": .int(Int64(version))]))
        }
    }
}
