// Where the control socket is, by the precedence Protocol/README.md fixes for both the daemon and its clients:
// --socket PATH, then $QUEUED_SOCKET, then a config file's `socket=` (the caller reads it), then
// $XDG_RUNTIME_DIR/queued/queued.sock. Here, beside the other paths users give, so that the daemon finds
// its socket without importing the client.

public enum SocketPath {
    /// The default path relative to $XDG_RUNTIME_DIR (the daemon creates the directory 0700).
    public static let runtimeSubpath = "queued/queued.sock"

    /// Resolves the socket path. Empty values count as unset, so `QUEUED_SOCKET= queuectl …` falls back
    /// to the default instead of trying to connect to "".
    public static func resolve(
        explicit: String?, environment: [String: String], configured: String? = nil
    ) throws(SocketPathError) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["QUEUED_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        if let configured, !configured.isEmpty { return configured }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            // Avoid "//" when XDG_RUNTIME_DIR ends with a slash: the path is printed in messages.
            let base = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            return base + "/" + runtimeSubpath
        }
        throw SocketPathError()
    }
}

/// No path was given and there is no XDG_RUNTIME_DIR to make the default from.
public struct SocketPathError: Error, Equatable, CustomStringConvertible {
    public init() {}

    public var description: String {
        "no control socket path: pass --socket PATH, set QUEUED_SOCKET, "
            + "or set XDG_RUNTIME_DIR (the daemon listens on $XDG_RUNTIME_DIR/queued/queued.sock)"
    }
}
