// How the engine's values look on the wire (the shapes Protocol/queued.openrpc.json describes):
// Status, QueueItem and the event notifications. Pure functions.

import CacheControl
import Media
import Playback
import QueueModel
import QueueRPC

/// The box's local time, read once for all the rows of a reply.
struct LocalNow {
    let clock: LocalClock
    let time: LocalDateTime

    init(_ clock: LocalClock) {
        self.clock = clock
        time = clock.localTime()
    }
}

enum Wire {
    static func status(_ status: PlayerStatus) -> RPCStatus {
        RPCStatus(
            state: status.state.rawValue, currentId: status.currentID.map { Int64($0.rawValue) },
            position: status.position, duration: status.duration, play: Int64(status.play),
            volume: Int64(status.volume),
            muted: status.muted, rate: status.rate, queueLoops: Int64(status.queueLoops), error: status.error,
            title: status.title, uri: status.uri, loops: status.loops.map(Int64.init), fit: status.fit.rawValue,
            fullscreen: status.fullscreen, rotate: Int64(status.rotation.rawValue),
            queueVersion: Int64(status.queueVersion),
            droppedFrames: Int64(status.droppedFrames), buffering: status.buffering,
            waitingForSchedule: status.waitingForSchedule, startsAt: status.startsAt, interrupt: status.interrupt
        )
    }

    /// `cache`: the daemon's network cache, asked about http(s) items. `now`: the local time the reply's
    /// rows are judged at (read once per reply), for the in-window fields of scheduled items.
    static func item(_ entry: QueueEntry, cache: (any NetworkCacheControl)?, now: LocalNow) -> RPCQueueItem {
        var inWindow = true
        var nextWindow: Double?
        if let schedule = entry.item.schedule {
            inWindow = schedule.isOpen(at: now.time)
            if !inWindow { nextWindow = schedule.nextOpening(after: now.time).map(now.clock.instant(of:)) }
        }
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
            start: entry.item.start, end: entry.item.end, trackEnd: entry.item.trackEnd?.rawValue,
            sha256: entry.item.sha256,
            cache: isNetworkURI(entry.item.uri) ? cacheStatus(cache?.status(of: entry.item.uri)) : nil,
            schedule: entry.item.schedule.map(ScheduleInput.wire), inWindow: inWindow, nextWindow: nextWindow,
            width: entry.knownSize.map { Int64($0.width) }, height: entry.knownSize.map { Int64($0.height) }
        )
    }

    static func cacheStatus(_ status: CacheStatus?) -> RPCCacheStatus {
        guard let status else { return RPCCacheStatus(state: "error", error: "network items are not enabled") }
        return RPCCacheStatus(
            state: status.state.rawValue, bytes: status.bytes, length: status.length, error: status.error)
    }

    static func ids(_ ids: [ItemID]) -> [Int64] {
        ids.map { Int64($0.rawValue) }
    }

    /// The kind of `event`, without building its params (most connections subscribe to few kinds).
    static func name(of event: PlayerEvent) -> EventName {
        switch event {
        case .statusChanged: .status
        case .progress: .progress
        case .itemStarted: .itemStarted
        case .itemEnded: .itemEnded
        case .itemSkipped: .itemSkipped
        case .queueChanged: .queueChanged
        case .outputChanged: .output
        case .itemLoading: .itemLoading
        case .buffering: .buffering
        case .cache(_, .progress): .cacheProgress
        case .cache(_, .complete): .cacheComplete
        case .cache(_, .error): .cacheError
        }
    }

    /// An event of an interrupt's play says so (`"interrupt": true`); a queue play's leaves the member out.
    private static func marked(_ members: JSONObject, interrupt: Bool) -> JSONValue {
        var members = members
        if interrupt { members["interrupt"] = .bool(true) }
        return .object(members)
    }

    /// The notification for an engine event: its kind and its params.
    static func notification(_ event: PlayerEvent) -> (name: EventName, params: JSONValue) {
        switch event {
        case .statusChanged(let status):
            return (.status, self.status(status).json)
        case .progress(let id, let position, let duration, let play, let interrupt):
            return (
                .progress,
                marked(
                    [
                        "id": .int(Int64(id.rawValue)), "position": .double(position),
                        "duration": duration.map(JSONValue.double) ?? .null, "play": .int(Int64(play)),
                    ], interrupt: interrupt)
            )
        case .itemStarted(let id, let play, let wallClock, _, let interrupt, let size):
            var params: JSONObject = [
                "id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "at": .double(wallClock),
            ]
            if let size {
                params["width"] = .int(Int64(size.width))
                params["height"] = .int(Int64(size.height))
            }
            return (.itemStarted, marked(params, interrupt: interrupt))
        case .itemEnded(let id, let play, let reason, let error, let interrupt):
            return (
                .itemEnded,
                marked(
                    [
                        "id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "reason": .string(reason.rawValue),
                        "error": error.map(JSONValue.string) ?? .null,
                    ], interrupt: interrupt)
            )
        case .itemSkipped(let id, let play, let reason):
            return (
                .itemSkipped,
                .object(["id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "reason": .string(reason.rawValue)])
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
        case .itemLoading(let id, let play, let status, let error, let interrupt):
            return (
                .itemLoading,
                marked(
                    [
                        "id": .int(Int64(id.rawValue)), "play": .int(Int64(play)), "status": .string(status.rawValue),
                        "error": error.map(JSONValue.string) ?? .null,
                    ], interrupt: interrupt)
            )
        case .buffering(let report):
            return (
                .buffering,
                .object([
                    "id": .int(Int64(report.id.rawValue)), "bufferedAhead": .double(report.bufferedAhead),
                    "likelyToKeepUp": .bool(report.likelyToKeepUp), "bufferEmpty": .bool(report.bufferEmpty),
                ])
            )
        case .cache(let id, .progress(let bytes, let length, let rate)):
            return (
                .cacheProgress,
                .object([
                    "id": .int(Int64(id.rawValue)), "bytes": .int(bytes), "length": length.map(JSONValue.int) ?? .null,
                    "rate": .double(rate),
                ])
            )
        case .cache(let id, .complete):
            return (.cacheComplete, .object(["id": .int(Int64(id.rawValue))]))
        case .cache(let id, .error(let reason, let retryIn)):
            return (
                .cacheError,
                .object([
                    "id": .int(Int64(id.rawValue)), "reason": .string(reason),
                    "retryIn": retryIn.map(JSONValue.double) ?? .null,
                ])
            )
        }
    }
}
