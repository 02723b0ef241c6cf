// The enumerations of Protocol/queued.openrpc.json (components/schemas TrackEnd, Fit, EventName), once
// for server and client. The engine has its own types; the server maps by raw value.

/// When an item with audio and video ends: see Protocol/README.md, "Track end".
public enum RPCTrackEnd: String, CaseIterable, Sendable {
    case auto, shortest, longest
}

/// How a picture fills the window.
public enum RPCFit: String, CaseIterable, Sendable {
    case fit, fill, stretch
}

/// The event kinds a connection can subscribe to.
public enum EventName: String, CaseIterable, Sendable {
    case status, progress, itemStarted, itemEnded, queueChanged, output
    case itemLoading, buffering, cacheProgress, cacheComplete, cacheError, itemSkipped
    case played, itemStalled, itemResumed, outputMessage

    /// The notification's method name, e.g. "event.itemStarted".
    public var method: String { "event.\(rawValue)" }
}
