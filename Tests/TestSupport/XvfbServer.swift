// A virtual X server for tests that open a real SDL window (SDL_VIDEODRIVER=x11, DISPLAY=:N),
// e.g. to grab the window with `ffmpeg -f x11grab`. Picks a free display number from 90 upward,
// so it does not collide with a developer's real display or with parallel tests.

import Foundation
import Glibc

/// Thread-safety: stored properties are immutable; ChildProcess and TemporaryDirectory are Sendable.
public final class XvfbServer: Sendable {
    /// The DISPLAY value, ":N".
    public let display: String
    public let displayNumber: Int
    /// Xvfb's combined stdout/stderr.
    public let logPath: String

    private let scratch: TemporaryDirectory
    private let process: ChildProcess

    /// Starts `Xvfb :N -screen 0 <screen> -nolisten tcp` on the first free N ≥ `firstDisplay`
    /// and waits for its socket /tmp/.X11-unix/XN. A display is free when neither its socket nor
    /// /tmp/.XN-lock exists; if another process wins the race for N, Xvfb exits and we try N+1.
    public init(screen: String = "1280x720x24", firstDisplay: Int = 90, timeout: Double = 10) throws {
        scratch = try TemporaryDirectory(prefix: "queued-xvfb")
        logPath = scratch.file("xvfb.log")
        var failures: [String] = []
        for number in firstDisplay..<(firstDisplay + 100) {
            let socket = "/tmp/.X11-unix/X\(number)"
            if access(socket, F_OK) == 0 || access("/tmp/.X\(number)-lock", F_OK) == 0 { continue }
            let child = try ChildProcess(
                "Xvfb", [":\(number)", "-screen", "0", screen, "-nolisten", "tcp"],
                stdoutPath: logPath, stderrPath: logPath)
            let settled = waitUntil(timeout: timeout) { !child.isRunning || access(socket, F_OK) == 0 }
            if settled && child.isRunning {
                process = child
                displayNumber = number
                display = ":\(number)"
                return
            }
            child.terminate(signal: SIGKILL)
            failures.append(":\(number): " + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""))
            if !settled { break }  // Xvfb hung rather than refusing the display: do not loop on it
        }
        throw TestSupportError.timeout("could not start Xvfb\n" + failures.joined(separator: "\n"))
    }

    deinit { stop() }

    /// Environment for a child that should draw on this display through SDL's x11 driver.
    public var environment: [String: String] {
        ["DISPLAY": display, "SDL_VIDEODRIVER": "x11"]
    }

    public var isRunning: Bool { process.isRunning }

    /// Kills the server at once (SIGKILL): a display server crashing under its clients.
    public func kill() {
        process.terminate(signal: SIGKILL)
    }

    /// Stops the server. Xvfb removes its socket and lock file on SIGTERM once it is serving, but a
    /// SIGTERM that lands while it is still initialising (the socket already exists) kills it before
    /// it cleans up; the files it leaves are stale once it has exited, so remove them here, or later
    /// servers would skip this display number for the rest of the run.
    public func stop() {
        process.terminate()
        unlink("/tmp/.X11-unix/X\(displayNumber)")
        unlink("/tmp/.X\(displayNumber)-lock")
        scratch.remove()
    }
}
