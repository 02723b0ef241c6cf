// Runs an operator's command (a screen told to sleep: `cec-ctl --to 0 --standby`) without a shell, to its end
// or its timeout, and says how it ended with the tail of what it printed. The child gets an empty signal mask
// and default handlers (the daemon blocks SIGINT and SIGTERM in every thread, which a child would inherit),
// its own process group (a timeout stops whatever it started too), /dev/null as input and no descriptor of
// ours beyond its output pipe. Runs on the caller's thread, which it blocks: never call it under a lock.
// Hand-written over posix_spawn: Foundation's Process is not in FoundationEssentials.

import Glibc

public enum ChildCommand {
    public enum Outcome: Equatable, Sendable, CustomStringConvertible {
        /// The exit status, and the last bytes it printed (stdout and stderr together).
        case exited(status: Int32, output: String)
        case signalled(signal: Int32, output: String)
        /// Still running at the timeout: its process group was stopped.
        case timedOut(seconds: Double, output: String)
        /// It could not be started (not found, not executable): errno's text.
        case notStarted(String)

        public var succeeded: Bool { self == .exited(status: 0, output: output) }

        public var output: String {
            switch self {
            case .exited(_, let output), .signalled(_, let output), .timedOut(_, let output): return output
            case .notStarted: return ""
            }
        }

        public var description: String {
            let printed = output.isEmpty ? "" : ": \(output)"
            switch self {
            case .exited(let status, _): return status == 0 ? "done" : "exited with status \(status)\(printed)"
            case .signalled(let signal, _): return "killed by signal \(signal)\(printed)"
            case .timedOut(let seconds, _): return "still running after \(seconds) s, stopped\(printed)"
            case .notStarted(let reason): return "could not start: \(reason)"
            }
        }
    }

    /// The last bytes of output kept.
    static let outputTail = 4096

    /// Runs `words` (the program, found on PATH unless it has a "/", then its arguments).
    public static func run(_ words: [String], timeout: Double) -> Outcome {
        guard let program = words.first else { return .notStarted("no command") }
        var ends: [Int32] = [0, 0]
        // pipe2 is hidden by Swift's Glibc module: close-on-exec set right after (the child gets the write
        // end through dup2, which clears the flag on its copy).
        guard pipe(&ends) == 0 else { return .notStarted(String(cString: strerror(errno))) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)

        var attributes = posix_spawnattr_t()
        prepareChildAttributes(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard started == 0 else {
            close(readEnd)
            return .notStarted("\(program): \(String(cString: strerror(started)))")
        }
        defer { close(readEnd) }

        var output: [UInt8] = []
        var open = true
        let deadline = Self.now() + timeout
        var status: Int32 = 0
        while true {
            if open { open = drain(readEnd, into: &output, waitingMs: 50) } else { usleep(20_000) }
            if waitpid(pid, &status, WNOHANG) == pid { break }
            if Self.now() >= deadline {
                stop(group: pid, &status)
                return .timedOut(seconds: timeout, output: text(output))
            }
        }
        while open { open = drain(readEnd, into: &output, waitingMs: 0) }  // what it printed last
        let low = status & 0x7F
        if low == 0 { return .exited(status: (status >> 8) & 0xFF, output: text(output)) }
        return .signalled(signal: low, output: text(output))
    }

    /// Initializes `attributes` for a child of the daemon: an empty signal mask and default handlers (the
    /// daemon blocks SIGINT and SIGTERM in every thread, which a child would inherit) and a process group of
    /// its own (stopping the group stops what it started too). The caller destroys them.
    public static func prepareChildAttributes(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_init(&attributes)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    }

    /// Reads what is there (after waiting up to `waitingMs` for it); false once the pipe is closed.
    private static func drain(_ descriptor: Int32, into output: inout [UInt8], waitingMs: Int32) -> Bool {
        var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watch, 1, waitingMs) > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        if count == 0 { return false }
        output.append(contentsOf: chunk[..<count])
        if output.count > outputTail { output.removeFirst(output.count - outputTail) }
        return true
    }

    /// SIGTERM to the whole group, SIGKILL a second later if the leader is still there; reaps the leader.
    private static func stop(group pid: pid_t, _ status: inout Int32) {
        kill(-pid, SIGTERM)
        let end = now() + 1
        while now() < end {
            if waitpid(pid, &status, WNOHANG) == pid {
                kill(-pid, SIGKILL)  // what it started and left behind
                return
            }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
