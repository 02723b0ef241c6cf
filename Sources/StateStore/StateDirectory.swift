// The state directory: where it is ($XDG_STATE_HOME/queued, else ~/.local/state/queued, or --state-dir),
// created private (0700), and held by one daemon at a time through an flock(2) on its `lock` file, which
// also names the holder's pid. The kernel drops the lock when the process dies, kill -9 included, so a
// crashed daemon never leaves a stale lock behind.

import FoundationEssentials
import SystemSupport
import Glibc
import MediaPaths

public final class StateDirectory: Sendable {
    public let path: String
    /// The lock file's descriptor, open for the daemon's life. Owned by this object; closed in deinit.
    private let lockDescriptor: Int32

    /// The default state directory: `$XDG_STATE_HOME/queued` when that is absolute, else
    /// `~/.local/state/queued` (`--state-dir` overrides it, in the caller).
    public static func defaultPath(environment: [String: String]) -> String {
        StatePath.default(environment: environment)
    }

    /// Creates the directory (and its parents) if needed and takes its lock.
    public init(path: String) throws(StateStoreError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("create \(path)", errno == 0 ? EIO : errno)
        }
        let lockPath = path + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("open \(lockPath)", errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            Glibc.close(descriptor)
            guard code == EWOULDBLOCK else { throw .io("lock \(lockPath)", code) }
            let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
                .trimmingWhitespace()
            throw .locked(directory: path, pid: pid.isEmpty ? "unknown" : pid)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        lockDescriptor = descriptor
    }

    deinit { Glibc.close(lockDescriptor) }

    /// Lets another owner take the directory now (a zone's engine stopped while the daemon runs on, and
    /// another is made on it), without waiting for this object to go. Nothing may be written here after.
    public func unlock() {
        _ = flock(lockDescriptor, LOCK_UN)
    }
}
