// A private PulseAudio server for one test: its own directory D (HOME and XDG_RUNTIME_DIR, so
// nothing is shared with other tests or a user session), a native-protocol socket at D/native
// with anonymous auth, and a 48 kHz stereo null sink named "null" whose monitor we can record.
// Code under test gets `server` ("unix:D/native") passed explicitly rather than through the
// process-global PULSE_SERVER variable, so parallel tests never collide.
//
// Two null-sink behaviours would make recordings unreliable, and are switched off here:
// - Rewinds: when a stream connects, the sink rewinds what it had rendered ahead and re-renders,
//   but the monitor has already delivered the old data, so the first few ms of the new stream
//   never reach a recorder (measured: 186 frames of a paplay'd tone lost). `norewinds=1` fixes it.
// - 2 s render blocks: with no client asking for low latency the null sink renders 2 s at a
//   time, so a new stream may not start for up to 2 s ("null-sink stall"). A keeper record
//   stream asking for 10 ms (parec to /dev/null: not a sink input, so it does not disturb
//   sink-input counts) plus a suspend/resume to restart the sink's clock keeps rendering in
//   10 ms blocks from the start.

import Foundation
import Glibc

/// Thread-safety: the stored properties are immutable; the running processes (replaced by `restart`)
/// live in a locked box.
public final class PrivatePulseServer: Sendable {
    /// The server string for libpulse / pactl / parec: "unix:D/native".
    public let server: String
    /// The server's directory D (socket, runtime files, log).
    public let directory: String
    /// The server's own log (warnings about running as root and missing D-Bus are normal).
    public let logPath: String
    /// The name of the only sink.
    public let sinkName = "null"
    /// Seconds from spawn until the server answered `pactl info` and (with lowLatency) the keeper
    /// stream was connected and the sink restarted.
    public var startupSeconds: Double { running.startupSeconds }

    private let scratch: TemporaryDirectory
    private let running = Running()
    private let lowLatency: Bool
    private var process: ChildProcess { running.get().server }
    private var keeper: ChildProcess? { running.get().keeper }

    private final class Running: @unchecked Sendable {
        private let lock = NSLock()
        private var server: ChildProcess?
        private var keeper: ChildProcess?
        var startupSeconds = 0.0
        func set(_ server: ChildProcess, _ keeper: ChildProcess?) {
            lock.withLock { (self.server, self.keeper) = (server, keeper) }
        }
        func get() -> (server: ChildProcess, keeper: ChildProcess?) { lock.withLock { (server!, keeper) } }
    }

    /// Starts the server and waits (polling `pactl info`) until it accepts clients.
    /// With `lowLatency` (default) the null sink renders in 10 ms blocks from the start; without
    /// it, expect the first stream to stall for up to 2 s.
    public init(timeout: Double = 10, lowLatency: Bool = true) throws {
        scratch = try TemporaryDirectory(prefix: "queued-pulse")
        directory = scratch.path
        server = "unix:\(directory)/native"
        logPath = "\(directory)/pulse.log"
        self.lowLatency = lowLatency
        let started = MonotonicClock.nanoseconds()
        try launch(timeout: timeout)
        running.startupSeconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
    }

    /// Starts a new server on the same socket (after `kill`): what a restarted audio daemon looks like
    /// to its clients. Waits until it answers, as `init` does.
    public func restart(timeout: Double = 10) throws {
        kill()
        unlink("\(directory)/native")
        try launch(timeout: timeout)
    }

    private func launch(timeout: Double) throws {
        let directory = self.directory
        let process = try ChildProcess(
            "pulseaudio",
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                "--log-target=file:\(logPath)",
                "-L", "module-native-protocol-unix socket=\(directory)/native auth-anonymous=1",
                "-L", "module-null-sink sink_name=null rate=48000 channels=2 norewinds=1",
            ],
            environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory],
            stdoutPath: "\(directory)/pulse.out", stderrPath: "\(directory)/pulse.out")
        let server = self.server, socket = "\(directory)/native"
        let ready = waitUntil(timeout: timeout) {
            // The socket file appears first; pactl then proves the server really answers.
            guard process.isRunning else { return true }
            guard access(socket, F_OK) == 0 else { return false }
            return (try? ChildProcess.run("pactl", ["--server=\(server)", "info"], timeout: 5).status) == 0
        }
        guard ready, process.isRunning else {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            process.terminate(signal: SIGKILL)
            throw TestSupportError.timeout(
                "pulseaudio not ready after \(timeout) s (exit status \(String(describing: process.status)))\n\(log)")
        }
        do {
            let keeper = lowLatency ? try PrivatePulseServer.startKeeper(server: server, timeout: timeout) : nil
            running.set(process, keeper)
        } catch {
            process.terminate(signal: SIGKILL)
            throw error
        }
    }

    /// Connects the 10 ms keeper stream, then suspends and resumes the sink so it drops the 2 s
    /// block it rendered at load time and restarts its clock at the keeper's latency.
    private static func startKeeper(server: String, timeout: Double) throws -> ChildProcess {
        let keeper = try ChildProcess(
            "parec",
            [
                "--server=\(server)", "-d", "null.monitor", "--raw", "--format=s16le", "--rate=48000",
                "--channels=2", "--latency-msec=10", "--client-name=queued-test-latency-keeper",
            ])
        let connected = waitUntil(timeout: timeout) {
            guard keeper.isRunning else { return true }
            let outputs = try? ChildProcess.check(
                "pactl", ["--server=\(server)", "list", "short", "source-outputs"],
                timeout: 5)
            return !(outputs ?? "").isEmpty
        }
        guard connected, keeper.isRunning else {
            keeper.terminate(signal: SIGKILL)
            throw TestSupportError.timeout("latency keeper (parec) did not connect to \(server)")
        }
        for state in ["1", "0"] {
            try ChildProcess.check("pactl", ["--server=\(server)", "suspend-sink", "null", state], timeout: 10)
        }
        return keeper
    }

    deinit { stop() }

    /// The source to record what was played: the null sink's monitor.
    public func monitorSource() -> String { "\(sinkName).monitor" }

    /// Whether the server process is still alive (a crash here explains many odd failures).
    public var isRunning: Bool { process.isRunning }

    /// Runs `pactl --server=… <arguments>` and returns its stdout (throws on failure).
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> String {
        try ChildProcess.check("pactl", ["--server=\(server)"] + arguments, timeout: 10)
    }

    /// Number of playback streams (sink inputs) currently connected, e.g. to see a client arrive.
    public func sinkInputCount() throws -> Int {
        try pactl(["list", "short", "sink-inputs"]).split(separator: "\n").count
    }

    /// The server log, for attaching to a failure message.
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Kills the server abruptly (default SIGKILL) and reaps it, to test how clients survive a
    /// dying server. The directory stays until stop() or deinit.
    public func kill(signal: Int32 = SIGKILL) {
        keeper?.terminate(signal: SIGKILL)
        process.terminate(signal: signal)
    }

    /// Sends the server a signal (SIGSTOP / SIGCONT: a stalled server, as a hung device or a swapped-out
    /// daemon looks to its clients). Returns false if it is gone.
    @discardableResult
    public func send(signal: Int32) -> Bool {
        process.send(signal: signal)
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory.
    public func stop() {
        keeper?.terminate()
        process.terminate()
        scratch.remove()
    }
}
