// A Status (Protocol/queued.openrpc.json, components/schemas) as the client shows it, decoded leniently like QueueItemView: the
// defaults are what an idle daemon reports, so a partial object still renders.

import QueueRPC

public struct PlayerStatusView: Sendable, Equatable {
    /// "idle" | "playing" | "paused" | "stopped".
    public var state: String
    public var currentId: Int64?
    /// The current item's title, uri and loop count (daemons before 0.3 leave them out).
    public var title: String?
    public var uri: String?
    public var loops: Int64?
    public var position: Double
    public var duration: Double?
    /// Play number of the current item (1 = first play), 0 when none.
    public var play: Int64
    public var volume: Int64
    public var muted: Bool
    public var rate: Double
    /// Passes through the whole queue; 0 = forever, 1 = once.
    public var queueLoops: Int64
    public var error: String?

    public init(state: String = "idle", currentId: Int64? = nil, position: Double = 0, duration: Double? = nil,
                play: Int64 = 0, volume: Int64 = 100, muted: Bool = false, rate: Double = 1, queueLoops: Int64 = 1,
                error: String? = nil, title: String? = nil, uri: String? = nil, loops: Int64? = nil) {
        self.state = state
        self.currentId = currentId
        self.title = title
        self.uri = uri
        self.loops = loops
        self.position = position
        self.duration = duration
        self.play = play
        self.volume = volume
        self.muted = muted
        self.rate = rate
        self.queueLoops = queueLoops
        self.error = error
    }

    /// nil unless `json` is an object with a string `state` (the one field no status lacks).
    public init?(json: JSONValue) {
        guard let state = json["state"]?.stringValue else { return nil }
        self.init(
            state: state, currentId: json["currentId"]?.intValue, position: json["position"]?.doubleValue ?? 0,
            duration: json["duration"]?.doubleValue, play: json["play"]?.intValue ?? 0,
            volume: json["volume"]?.intValue ?? 100, muted: json["muted"]?.boolValue ?? false,
            rate: json["rate"]?.doubleValue ?? 1, queueLoops: json["queueLoops"]?.intValue ?? 1,
            error: json["error"]?.stringValue, title: json["title"]?.stringValue, uri: json["uri"]?.stringValue,
            loops: json["loops"]?.intValue)
    }

    /// The current item as the Status describes it, when it does (it carries a uri).
    public var currentItem: QueueItemView? {
        guard let currentId, let uri else { return nil }
        return QueueItemView(id: currentId, uri: uri, title: title, loops: loops ?? 1, plays: 0, duration: duration,
                             state: state == "playing" || state == "paused" ? "playing" : "queued")
    }
}
