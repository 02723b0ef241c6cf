// Records everything played into a PrivatePulseServer's null sink, via parec on the sink's
// monitor, as raw interleaved s16le. The recording is the ground truth for gapless/latency tests:
// locate a reference in it with AudioAlignment.
//
// parec writes to a file (not a pipe) so nothing needs reading while the test runs; on SIGTERM
// parec drains what it has and exits, so stop() returns everything recorded up to that moment.

import Foundation
import Glibc

/// Thread-safety: stored properties are immutable; the result of stop() is cached under `lock`.
public final class SinkRecorder: @unchecked Sendable {
    public let server: String
    public let rate: Int
    public let channels: Int
    /// The raw recording (s16le interleaved), growing while parec runs.
    public let path: String
    /// Seconds from spawning parec until its stream showed up as a source output.
    public let connectSeconds: Double

    private let scratch: TemporaryDirectory
    private let process: ChildProcess
    private let lock = NSLock()
    private var stopped: [Int16]?

    /// Starts parec on `source` (default: the null sink's monitor) and waits until its record
    /// stream is connected (`pactl list source-outputs` shows it) and samples are arriving, so
    /// nothing played after init returns is missed.
    public init(
        server: String, source: String = "null.monitor", rate: Int = 48000, channels: Int = 2,
        latencyMilliseconds: Int = 10, timeout: Double = 10
    ) throws {
        self.server = server
        self.rate = rate
        self.channels = channels
        scratch = try TemporaryDirectory(prefix: "queued-parec")
        path = scratch.file("recording.raw")
        let errPath = scratch.file("parec.err")
        // A unique client name identifies our stream among others (the server's latency keeper).
        let clientName = "queued-test-recorder-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let started = MonotonicClock.nanoseconds()
        process = try ChildProcess(
            "parec",
            [
                "--server=\(server)", "-d", source, "--format=s16le", "--rate=\(rate)",
                "--channels=\(channels)", "--raw", "--latency-msec=\(latencyMilliseconds)",
                "--client-name=\(clientName)", "--stream-name=recorder",
            ],
            stdoutPath: path, stderrPath: errPath)
        let process = self.process, path = self.path
        // Connected = listed as a source output, and samples have started to arrive in the file.
        let connected =
            waitUntil(timeout: timeout) {
                guard process.isRunning else { return true }
                let outputs = try? ChildProcess.check(
                    "pactl", ["--server=\(server)", "list", "source-outputs"],
                    timeout: 5)
                return (outputs ?? "").contains("\"\(clientName)\"")
            }
            && waitUntil(timeout: timeout) {
                var info = stat()
                return !process.isRunning || (stat(path, &info) == 0 && info.st_size > 0)
            }
        connectSeconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        guard connected, process.isRunning else {
            process.terminate(signal: SIGKILL)
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw TestSupportError.timeout(
                "parec did not connect to \(server) within \(timeout) s "
                    + "(a PrivatePulseServer without lowLatency renders in 2 s blocks)\n\(err)")
        }
    }

    deinit { process.terminate(signal: SIGKILL, timeout: 1) }

    /// Frames recorded so far (from the file size; for waitUntil conditions while recording).
    public var recordedFrames: Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size) / (2 * channels)
    }

    /// The samples recorded so far, without stopping (whole frames only).
    public func snapshot() -> [Int16] {
        RawPCM.read(path, channels: channels)
    }

    /// Stops parec (SIGTERM, so it flushes) and returns the interleaved samples. Idempotent.
    @discardableResult
    public func stop() -> [Int16] {
        lock.withLock {
            if let stopped { return stopped }
            process.terminate(signal: SIGTERM, timeout: 5)
            let samples = RawPCM.read(path, channels: channels)
            stopped = samples
            return samples
        }
    }
}
