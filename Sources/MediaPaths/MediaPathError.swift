// Why `queuectl add` refused an argument before asking the daemon: checked on the client because the
// client knows its cwd and the user's intent ("this directory has nothing playable") better than the
// daemon, which would otherwise queue a path that can only fail.

public enum MediaPathError: Error, CustomStringConvertible, Sendable, Equatable {
    /// stat(2) failed: usually no such file.
    case notFound(path: String, reason: String)
    /// A directory without any file of a known media extension.
    case noMediaFiles(directory: String)
    /// opendir(3) failed (permissions).
    case unreadableDirectory(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path, let reason): return "\(path): \(reason)"
        case .noMediaFiles(let directory): return "\(directory): no media files in this directory"
        case .unreadableDirectory(let path, let reason): return "\(path): cannot list directory: \(reason)"
        }
    }
}
