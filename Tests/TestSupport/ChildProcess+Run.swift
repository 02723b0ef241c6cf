// Run a short helper command (ffmpeg, ffprobe, pactl) to completion and capture its output.
// Output goes through temporary files rather than pipes: no reader thread is needed and a
// chatty child can never block on a full pipe.

import Foundation
import Glibc

extension ChildProcess {
    /// Runs `executable` with `arguments`, waiting at most `timeout` seconds (then kills it and
    /// throws `.timeout`). Returns the exit status and the captured output, whatever the status.
    public static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: Double = 120
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let data = try runCapturingData(executable, arguments, environment: environment, timeout: timeout)
        return (
            data.status, String(decoding: data.stdout, as: UTF8.self),
            String(decoding: data.stderr, as: UTF8.self)
        )
    }

    /// Like `run`, but throws `.commandFailed` (with stderr) unless the exit status is 0.
    @discardableResult
    public static func check(
        _ executable: String, _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: Double = 120
    ) throws -> String {
        let result = try run(executable, arguments, environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw TestSupportError.commandFailed(
                command: ([executable] + arguments).joined(separator: " "),
                status: result.status, stderr: result.stderr)
        }
        return result.stdout
    }

    /// The binary form: stdout as raw bytes (for decoded PCM and raw video frames).
    public static func runCapturingData(
        _ executable: String, _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: Double = 120
    ) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let scratch = try TemporaryDirectory(prefix: "queued-run")
        let outPath = scratch.path + "/stdout"
        let errPath = scratch.path + "/stderr"
        let child = try ChildProcess(
            executable, arguments, environment: environment,
            stdoutPath: outPath, stderrPath: errPath)
        guard waitUntil(timeout: timeout, { !child.isRunning }) else {
            child.terminate(signal: SIGKILL)
            throw TestSupportError.timeout("\(child.command) did not finish in \(timeout) s")
        }
        let status = child.wait()
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return (status, out, err)
    }
}
