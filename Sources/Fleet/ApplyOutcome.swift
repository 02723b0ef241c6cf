// How applying one desired document ended, and how far a running one has got: what the bridge's apply job
// tells DesiredState. Whether a failure is for good is decided here, once: only what can never succeed —
// a document the daemon's own definitions refuse, a file whose digest does not match although it is
// complete, a scheme that is not allowed — refuses a rev; a server that is down, a download that failed or
// stalled, a daemon that did not answer are tried again later. Pure values.

/// Why a document was not applied.
public struct ApplyFailure: Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    /// Never tried again (until a newer document comes); false: tried again with backoff.
    public var permanent: Bool

    public init(reason: String, permanent: Bool) {
        self.reason = reason
        self.permanent = permanent
    }

    public var description: String { reason }

    /// The document cannot be read as the daemon would take it (the typed definitions' own message).
    public static func invalidDocument(_ reason: String) -> ApplyFailure { .init(reason: reason, permanent: true) }

    /// The daemon answered a request of the apply with a JSON-RPC error. Its own checks of what it was given
    /// (the -326xx family: invalid params, unknown method, invalid request), a URI it does not allow, media it
    /// cannot play: for good. Anything else (busy, internal, the queue changed meanwhile): again later.
    public static func daemonRefused(code: Int, message: String) -> ApplyFailure {
        let permanentCodes: Set<Int> = [-32600, -32601, -32602, -32002, -32003]
        return .init(reason: message, permanent: permanentCodes.contains(code))
    }

    /// A file's download ended in the daemon's cache with an error (`cache.fetch`'s entry state "error").
    /// "sha256 mismatch" (the daemon's text for a complete file with another digest, fetched twice) is for
    /// good; anything else (refused connection, HTTP 5xx, a cut transfer) is a server that may come back.
    public static func download(uri: String, error: String) -> ApplyFailure {
        let permanent = error.hasPrefix("sha256 mismatch") || error.hasPrefix("URI not allowed")
        return .init(reason: "\(uri): \(error)", permanent: permanent)
    }

    /// The daemon's socket failed or timed out (it restarts, or hangs): again later.
    public static func transport(_ reason: String) -> ApplyFailure { .init(reason: reason, permanent: false) }
}

/// How a job for one document ended.
public enum ApplyOutcome: Sendable, Equatable {
    case applied
    case failed(ApplyFailure)
    /// Superseded (a newer document) before it changed anything; nothing to decide.
    case cancelled
}

/// How far the running job has got (reported as `applying`).
public struct ApplyProgress: Sendable, Equatable {
    public enum Stage: String, Sendable, CaseIterable {
        /// The daemon is fetching the document's http(s) files into its cache.
        case downloading
        /// Everything is here: the document goes to the daemon in one request.
        case swapping
        /// The last attempt failed for a reason that may pass: the next comes after the backoff.
        case waiting
    }

    public var stage: Stage
    /// Files complete in the cache, of `total` (the document's distinct http(s) URIs).
    public var complete: Int
    public var total: Int

    public init(stage: Stage, complete: Int = 0, total: Int = 0) {
        self.stage = stage
        self.complete = complete
        self.total = total
    }
}
