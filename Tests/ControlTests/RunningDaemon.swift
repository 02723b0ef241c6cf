// A real queued process for end-to-end tests: its own temp dir and socket, a private PulseAudio server
// and SDL's offscreen driver, so what it plays is really played. Stopped with SIGTERM at the end.

import Foundation
import QueueClient
import QueueRPC
import TestSupport

final class RunningDaemon: @unchecked Sendable {
    let directory: TemporaryDirectory
    let socket: String
    let logPath: String
    /// nil when the daemon runs on the null outputs.
    let pulse: PrivatePulseServer?
    let process: ChildProcess

    enum Outputs {
        /// PulseAudio (a private server) and SDL offscreen, or no video at all.
        case real(video: Bool)
        /// The null outputs: on the monotonic clock, or untimed (as fast as it decodes).
        case null(untimed: Bool)
        /// A PulseAudio server the test owns (several daemons on one), no video.
        case sharedPulse(server: String)
    }

    convenience init(_ extra: [String] = [], video: Bool = true) throws {
        try self.init(outputs: .real(video: video), extra)
    }

    init(
        outputs: Outputs, _ extra: [String] = [], logLevel: String = "info", environment: [String: String] = [:],
        launcher: [String] = [], socketPath: String? = nil
    ) throws {
        directory = try TemporaryDirectory(prefix: "queued-e2e")
        // `socketPath`: a daemon restarted where its clients (a bridge) expect the one before it.
        socket = socketPath ?? directory.path + "/run/queued.sock"
        logPath = directory.path + "/queued.log"
        var arguments = ["--socket", socket, "--log-level", logLevel]
        // Durable state only where a test asks for it (a --state-dir of its own): test daemons start empty.
        if !extra.contains("--state-dir") { arguments.append("--no-state") }
        switch outputs {
        case .real(let video):
            let pulse = try PrivatePulseServer()
            self.pulse = pulse
            arguments += ["--audio", "pulse", "--pulse-server", pulse.server]
            arguments +=
                video
                ? ["--video", "sdl", "--video-driver", "offscreen", "--geometry", "320x240"] : ["--video", "none"]
        case .sharedPulse(let server):
            pulse = nil
            arguments += ["--audio", "pulse", "--pulse-server", server, "--video", "none"]
        case .null(let untimed):
            pulse = nil
            arguments += ["--audio", "null", "--video", "null"] + (untimed ? ["--untimed"] : [])
        }
        // `launcher`: a command that runs queued (e.g. prlimit with a file-size limit).
        let queued = BuiltProduct.path("queued")
        process = try ChildProcess(
            launcher.first ?? queued,
            Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [queued]) + arguments + extra,
            environment: environment,
            stdoutPath: directory.path + "/stdout", stderrPath: logPath)
        let socket = self.socket
        let up = try waitUntil(timeout: 30, pollInterval: 0.02) {
            (try? QueueClient(socketPath: socket, timeout: 2)) != nil
        }
        guard up else { throw TestSupportError.io("queued did not open its socket; log:\n\(log())") }
    }

    deinit { stop() }

    func client(timeout: Double = 10) throws -> QueueClient {
        try QueueClient(socketPath: socket, timeout: timeout)
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    var isRunning: Bool { process.isRunning }

    @discardableResult
    func stop() -> Int32? {
        let status = process.isRunning ? process.terminate() : process.wait()
        pulse?.stop()
        return status
    }

    /// Runs queuectl against this daemon; returns exit status and output.
    func queuectl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(BuiltProduct.path("queuectl"), ["--socket", socket] + arguments, timeout: 30)
    }

    /// Resident memory of the daemon, from /proc.
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return (line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0) * 1024
    }
}

/// Collects a client's notifications until a predicate holds (or the deadline passes).
func collectNotifications(
    _ client: QueueClient, timeout: Double, until done: ([(method: String, params: JSONValue?)]) -> Bool
) throws -> [(method: String, params: JSONValue?)] {
    var seen: [(method: String, params: JSONValue?)] = []
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !done(seen) {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0, let next = try client.nextNotification(timeout: remaining) else { break }
        seen.append(next)
    }
    return seen
}

extension RunningDaemon {
    /// Open file descriptors of the daemon, from /proc.
    var descriptorCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd")) ?? []).count
    }
}
