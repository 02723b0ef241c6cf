// How the engine's values look on the wire (the shapes Protocol/queued.openrpc.json describes):
// Status, QueueItem and the event notifications. Pure functions.

import CacheControl
import MediaPaths
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
    /// A page's URL as clients see it: a user, password or token in it as `***`.
    static func shownURL(_ url: String) -> String { StreamKind.redacted(url) }

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
            waitingForSchedule: status.waitingForSchedule, startsAt: status.startsAt, interrupt: status.interrupt,
            appliedRev: status.appliedRev,
            decoder: status.decoder.map { RPCDecoder(codec: $0.codec, hwdec: $0.hwdec?.rawValue) },
            stream: status.stream.map {
                RPCStreamStatus(
                    live: $0.live, stalls: Int64($0.stalls), down: $0.down, bitrate: $0.bitrate.map(Int64.init),
                    latency: $0.latency.map { ($0 * 1000).rounded() / 1000 }, pace: $0.pace)
            },
            web: status.web.map { RPCWebStatus(loaded: $0.loaded, url: shownURL($0.url), title: $0.title) },
            display: RPCDisplay(
                power: status.display.on ? "on" : "off", source: status.display.source.rawValue,
                nextChange: status.display.nextChange, error: status.display.error)
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
            cache: isNetworkURI(entry.item.uri) && !entry.item.isWebPage ? cacheStatus(cache?.status(of: entry.item.uri)) : nil,
            schedule: entry.item.schedule.map(ScheduleInput.wire), inWindow: inWindow, nextWindow: nextWindow,
            width: entry.knownSize.map { Int64($0.width) }, height: entry.knownSize.map { Int64($0.height) },
            transition: entry.item.transition.map(ItemInputs.wire), motion: entry.item.motion.map(ItemInputs.wire),
            onStall: entry.item.onStall?.rawValue, program: entry.item.program.map { Int64($0) },
            latency: entry.item.latency,
            web: entry.item.isWebPage ? ItemInputs.wire(entry.item.web ?? WebItem()) : nil
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
    static func name(of event: DaemonEvent) -> EventName {
        switch event {
        case .zoned(_, let engineEvent): name(of: .engine(engineEvent))
        case .engine(.statusChanged): .status
        case .engine(.progress): .progress
        case .engine(.itemStarted): .itemStarted
        case .engine(.itemEnded): .itemEnded
        case .engine(.itemSkipped): .itemSkipped
        case .engine(.queueChanged): .queueChanged
        case .engine(.itemLoading): .itemLoading
        case .engine(.buffering): .buffering
        case .engine(.itemStalled): .itemStalled
        case .engine(.itemResumed): .itemResumed
        case .output: .output
        case .cache(_, .progress): .cacheProgress
        case .cache(_, .complete): .cacheComplete
        case .cache(_, .error): .cacheError
        case .played: .played
        case .outputMessage: .outputMessage
        }
    }

    /// The notification for a daemon event: its kind and its params.
    static func notification(_ event: DaemonEvent) -> (name: EventName, params: JSONValue) {
        switch event {
        case .engine(let engineEvent):
            return notification(engineEvent)
        case .zoned(let zone, let engineEvent):
            let (name, params) = notification(engineEvent)
            var object = params.objectValue ?? JSONObject()
            object["zone"] = .string(zone)
            return (name, .object(object))
        case .output(let change):
            return (
                Events.Output.name,
                Events.Output.Params(output: change.output, state: change.state.rawValue, message: change.message).json
            )
        case .cache(let id, .progress(let bytes, let length, let rate)):
            return (
                Events.CacheProgress.name,
                Events.CacheProgress.Params(id: Int64(id.rawValue), bytes: bytes, length: length, rate: rate).json
            )
        case .cache(let id, .complete):
            return (Events.CacheComplete.name, Events.CacheComplete.Params(id: Int64(id.rawValue)).json)
        case .cache(let id, .error(let reason, let retryIn)):
            return (
                Events.CacheError.name,
                Events.CacheError.Params(id: Int64(id.rawValue), reason: reason, retryIn: retryIn).json
            )
        case .played(let record):
            return (Events.Played.name, Events.Played.Params(record: record).json)
        case .outputMessage(let topic, let payload):
            return (Events.OutputMessage.name, Events.OutputMessage.Params(topic: topic, payload: payload).json)
        }
    }

    /// The notification for an engine event: its kind and its params, built as the event's typed Params
    /// (QueueRPC's `Events`, which clients decode).
    private static func notification(_ event: PlayerEvent) -> (name: EventName, params: JSONValue) {
        switch event {
        case .statusChanged(let status):
            return (Events.Status.name, self.status(status).json)
        case .progress(let id, let position, let duration, let play, let interrupt):
            return (
                Events.Progress.name,
                Events.Progress.Params(
                    id: Int64(id.rawValue), position: position, duration: duration, play: Int64(play),
                    interrupt: interrupt
                ).json
            )
        case .itemStarted(let id, let play, let wallClock, _, let interrupt, let size, _, let decoder, let web):
            return (
                Events.ItemStarted.name,
                Events.ItemStarted.Params(
                    id: Int64(id.rawValue), play: Int64(play), at: wallClock, interrupt: interrupt,
                    width: size.map { Int64($0.width) }, height: size.map { Int64($0.height) },
                    decoder: decoder.map { RPCDecoder(codec: $0.codec, hwdec: $0.hwdec?.rawValue) },
                    web: web.map { RPCWebStatus(loaded: $0.loaded, url: Wire.shownURL($0.url), title: $0.title) }
                ).json
            )
        case .itemEnded(let id, let play, let reason, let error, let interrupt):
            return (
                Events.ItemEnded.name,
                Events.ItemEnded.Params(
                    id: Int64(id.rawValue), play: Int64(play), reason: reason.rawValue, error: error,
                    interrupt: interrupt
                ).json
            )
        case .itemSkipped(let id, let play, let reason):
            return (
                Events.ItemSkipped.name,
                Events.ItemSkipped.Params(id: Int64(id.rawValue), play: Int64(play), reason: reason.rawValue).json
            )
        case .queueChanged(let version):
            return (Events.QueueChanged.name, Events.QueueChanged.Params(version: Int64(version)).json)
        case .itemLoading(let id, let play, let status, let error, let interrupt):
            return (
                Events.ItemLoading.name,
                Events.ItemLoading.Params(
                    id: Int64(id.rawValue), play: Int64(play), status: status.rawValue, error: error,
                    interrupt: interrupt
                ).json
            )
        case .itemStalled(let id, let play, let reason, let interrupt):
            return (
                Events.ItemStalled.name,
                Events.ItemStalled.Params(id: Int64(id.rawValue), play: Int64(play), reason: reason, interrupt: interrupt)
                    .json
            )
        case .itemResumed(let id, let play, let after, let interrupt):
            return (
                Events.ItemResumed.name,
                Events.ItemResumed.Params(id: Int64(id.rawValue), play: Int64(play), after: after, interrupt: interrupt)
                    .json
            )
        case .buffering(let report):
            return (
                Events.Buffering.name,
                Events.Buffering.Params(
                    id: Int64(report.id.rawValue), bufferedAhead: report.bufferedAhead,
                    likelyToKeepUp: report.likelyToKeepUp, bufferEmpty: report.bufferEmpty
                ).json
            )
        }
    }
}
