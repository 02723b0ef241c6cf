// A child process started with posix_spawn, for helpers such as pulseaudio, parec, Xvfb, ffmpeg
// and the queued daemon itself.
//
// Why not Foundation.Process: children started from a Swift Testing test, a Task or a Dispatch
// queue inherit a blocked signal mask there, so terminate() does nothing and waitUntilExit()
// hangs. Here the child gets an empty signal mask and default handlers for every signal
// (POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF), and is stopped with kill + waitpid.

import Foundation
import Glibc

/// Thread-safety: `pid` and `command` are immutable; the exit status is guarded by `statusLock`,
/// and every waitpid call happens while holding `reapLock`, so the pid is reaped exactly once and
/// never signalled after it has been reaped (no pid-reuse accidents).
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// The command line, for failure messages.
    public let command: String

    private let statusLock = NSLock()
    private let reapLock = NSLock()
    private var exitStatus: Int32?

    /// Spawns `executable` (a path, or a bare name looked up on PATH).
    /// - Parameters:
    ///   - environment: variables merged over (added to / overriding) this process's environment.
    ///   - stdoutPath, stderrPath: files truncated and written by the child; nil means /dev/null.
    ///     The same path for both shares one descriptor, so the lines interleave correctly.
    /// stdin is `stdinPath` (default /dev/null); descriptors above 2 are closed in the child, so a child that outlives
    /// a crashed test run cannot hold the test runner's pipes open.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdoutPath: String? = nil, stderrPath: String? = nil, stdinPath: String? = nil
    ) throws {
        let path = try ChildProcess.resolve(executable)
        command = ([path] + arguments).joined(separator: " ")

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment ?? [:] { env[key] = value }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let outFlags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", outFlags, 0o644)
        if let stderrPath, stderrPath == stdoutPath {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", outFlags, 0o644)
        }
        ChildProcess.addCloseFrom3(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestSupportError.spawnFailed(command: command, errno: rc) }
        pid = child
    }

    deinit {
        // Never leave a helper behind: kill and reap it.
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// The recorded exit status: the exit code, or minus the signal number; nil while running.
    public var status: Int32? {
        statusLock.withLock { exitStatus }
    }

    /// Whether the child is still running (waitpid WNOHANG; the status is remembered).
    public var isRunning: Bool {
        if status != nil { return false }
        // A blocking wait() in another thread holds reapLock: the child is running (or just ending).
        guard reapLock.try() else { return true }
        defer { reapLock.unlock() }
        return reap(blocking: false) == nil
    }

    /// Blocks until the child exits; returns the exit code or minus the signal number.
    @discardableResult
    public func wait() -> Int32 {
        reapLock.lock()
        defer { reapLock.unlock() }
        return reap(blocking: true) ?? -1
    }

    /// Sends `signal`, waits up to `timeout` seconds for the child to exit, then SIGKILLs it.
    /// Returns the exit status: the exit code, or minus the signal that ended it (-1 if unknown).
    @discardableResult
    public func terminate(signal: Int32 = SIGTERM, timeout: Double = 5) -> Int32? {
        reapLock.withLock {
            if reap(blocking: false) == nil { _ = kill(pid, signal) }
        }
        if waitUntil(timeout: timeout, { !isRunning }) { return status }
        reapLock.withLock {
            if reap(blocking: false) == nil { _ = kill(pid, SIGKILL) }
        }
        return wait()
    }

    /// Sends a signal without waiting (e.g. SIGSTOP/SIGCONT); false if the child already exited.
    @discardableResult
    public func send(signal: Int32) -> Bool {
        reapLock.withLock { reap(blocking: false) == nil && kill(pid, signal) == 0 }
    }

    /// Calls waitpid once; must hold reapLock. Returns the status if the child has exited.
    private func reap(blocking: Bool) -> Int32? {
        if let known = status { return known }
        var raw: Int32 = 0
        var decoded: Int32 = -1
        while true {
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if result == 0 { return nil }
            if result == -1 && errno == EINTR { continue }
            if result == pid {
                // WIFEXITED → WEXITSTATUS; otherwise killed by WTERMSIG (macros are not imported).
                let signal = raw & 0x7f
                decoded = signal == 0 ? (raw >> 8) & 0xff : -signal
            }
            // else ECHILD: reaped behind our back (SIGCHLD ignored?): gone, status unknown (-1).
            break
        }
        statusLock.withLock { exitStatus = decoded }
        return decoded
    }

    /// Resolves a bare name through PATH (like execvp, but before spawning, so the error is ours).
    public static func resolve(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        let searchPath =
            ProcessInfo.processInfo.environment["PATH"]
            ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(executable)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        throw TestSupportError.executableNotFound(executable)
    }

    /// glibc ≥ 2.34 has posix_spawn_file_actions_addclosefrom_np, but Swift's Glibc module hides
    /// it (it needs _GNU_SOURCE), so look it up at run time; without it the child simply keeps
    /// the parent's non-CLOEXEC descriptors.
    private static func addCloseFrom3(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(actions, 3)
    }
}
