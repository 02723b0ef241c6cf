// The process's open-files limit: raised at start from the soft limit toward the hard one (systemd's default
// soft limit is 1024, too few for the connection cap plus the daemon's sockets and uploads' files), so a flood
// of connections meets the page's own cap, never EMFILE on accept.

import Glibc
import Logging

enum OpenFiles {
    /// The soft limit now.
    static var softLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Main thread, at start: soft limit := min(hard limit, 65536).
    static func raiseLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = limit.rlim_max == rlim_t.max ? 65536 : min(limit.rlim_max, 65536)
        guard limit.rlim_cur != rlim_t.max, limit.rlim_cur < wanted else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = wanted
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            logger.warning("could not raise the open-files limit from \(before) to \(wanted)")
        }
    }
}
