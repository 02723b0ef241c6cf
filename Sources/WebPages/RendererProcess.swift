// The running queued-webview: spawned with a pipe each way, its events read line by line on a thread of
// their own. Commands are written by whichever thread asks (under `writing`, never under a page's lock).
// Hand-written over posix_spawn: Foundation's Process is not in FoundationEssentials.

import Glibc
import JSONText
import SystemClock
import SystemSupport

final class RendererProcess: @unchecked Sendable {
    let pid: pid_t
    /// Our ends of its standard input (-1 once closed: guarded by `writing`) and output; owned.
    private var input: Int32
    private let output: Int32
    /// Held only while a command is written.
    private let writing = ThreadLock()

    enum StartError: Error {
        case notFound(String)
        case failed(String)
    }

    /// Starts `program` with `arguments`: its output is ours to read, its errors go to ours, it gets no other
    /// descriptor of ours (not the control socket), an empty signal mask, default handlers and its own
    /// process group.
    init(program: String, arguments: [String]) throws(StartError) {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard Self.closedOnExecPipe(&toChild) else { throw .failed(String(cString: strerror(errno))) }
        guard Self.closedOnExecPipe(&fromChild) else {
            close(toChild[0])
            close(toChild[1])
            throw .failed(String(cString: strerror(errno)))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        Self.closeTheRest(&actions)

        var attributes = posix_spawnattr_t()
        ChildCommand.prepareChildAttributes(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard started == 0 else {
            close(toChild[1])
            close(fromChild[0])
            if started == ENOENT { throw .notFound(program) }
            throw .failed("\(program): \(String(cString: strerror(started)))")
        }
        self.pid = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if input >= 0 { close(input) }
        close(output)
    }

    /// Seconds a command may wait for room in the pipe: a renderer that reads nothing for that long is stuck.
    static let writeTimeout = 2.0

    /// Writes one command line. False when the renderer is gone, or stuck (then it is killed: its output
    /// ends and its pages with it).
    @discardableResult
    func send(_ members: [(String, JSONValue)]) -> Bool {
        var bytes = JSON.serialize(.object(JSONObject(members)))
        bytes.append(UInt8(ascii: "\n"))
        let sent = writing.withLock {
            bytes.withUnsafeBytes { buffer -> Bool? in
                guard input >= 0 else { return false }
                let deadline = Monotonic.now() + Self.writeTimeout
                var offset = 0
                while offset < buffer.count {
                    // Room for a page (PIPE_BUF) first, so that the write below never blocks.
                    var watch = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                    let left = Int32(max(0, (deadline - Monotonic.now()) * 1000))
                    let ready = poll(&watch, 1, left)
                    if ready < 0 && errno == EINTR { continue }
                    if ready == 0 { return nil }
                    if watch.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
                    let chunk = min(buffer.count - offset, Int(PIPE_BUF))
                    let written = write(input, buffer.baseAddress! + offset, chunk)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
        }
        guard let sent else {
            kill(-pid, SIGKILL)
            return false
        }
        return sent
    }

    /// Reads events until the renderer's output ends, calling `event` with each (reader thread).
    func readEvents(_ event: (JSONValue) -> Void) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            pending.append(contentsOf: chunk[..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                if let value = try? JSON.parse(pending[..<newline]) { event(value) }
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Closes its input (it exits), then reaps it: SIGKILL to its group if it is still there after `grace`.
    func stop(grace: Double) {
        writing.withLock {
            if input >= 0 { close(input) }
            input = -1
        }
        let end = Monotonic.now() + grace
        var status: Int32 = 0
        while Monotonic.now() < end {
            let reaped = waitpid(pid, &status, WNOHANG)
            // ECHILD: its reader thread reaped it already.
            if reaped == pid || (reaped < 0 && errno == ECHILD) { return }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    /// pipe2(O_CLOEXEC), which Swift's Glibc module does not declare, found at run time: no spawn on another
    /// thread can catch the pipe between its making and its flag. pipe and fcntl where it is missing.
    private static func closedOnExecPipe(_ ends: inout [Int32]) -> Bool {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        if let symbol = dlsym(nil, "pipe2") {
            return ends.withUnsafeMutableBufferPointer { unsafeBitCast(symbol, to: Pipe2.self)($0.baseAddress!, O_CLOEXEC) } == 0
        }
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Reaps it after its output ended; its exit status as text.
    func reap() -> String {
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return "ended" }
        let low = status & 0x7F
        if low == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "killed by signal \(low)"
    }

    /// Every descriptor from 3 up is closed in the child: glibc's closefrom action, which Swift's Glibc module
    /// does not declare, found at run time; else each descriptor open now.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        guard let directory = opendir("/proc/self/fd") else { return }
        var open: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor > 2 { open.append(descriptor) }
        }
        closedir(directory)
        for descriptor in open { posix_spawn_file_actions_addclose(&actions, descriptor) }
    }
}
