// The display server dies under a playing daemon (Xvfb killed): queued must exit non-zero so that
// systemd restarts it (with its state restored). A window closed by the user is a clean exit (0), tested
// in-process by EngineUntimedTests.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct VideoOutputLossTests {
    @Test func aLostDisplayConnectionExitsNonZero() throws {
        let xvfb = try XvfbServer(screen: "640x480x24")
        let directory = try TemporaryDirectory(prefix: "queued-xlost")
        let socketPath = directory.path + "/queued.sock"
        let clip = try Fixtures.video(seconds: 2, fps: 25, hue: .green)
        let daemon = try ChildProcess(
            BuiltProduct.path("queued"),
            [
                "--socket", socketPath, "--no-state", "--audio", "null", "--video", "sdl", "--video-driver", "x11",
                "--geometry", "320x240", "--loops", "0", clip,
            ],
            environment: xvfb.environment, stderrPath: directory.path + "/queued.log")
        defer { _ = daemon.terminate(signal: SIGKILL) }
        let log = { (try? String(contentsOfFile: directory.path + "/queued.log", encoding: .utf8)) ?? "" }
        let playing = try waitUntil(timeout: 30, pollInterval: 0.05) {
            guard let client = try? QueueClient(socketPath: socketPath, timeout: 2) else { return false }
            return (try? client.call(API.PlayerStatus.self).state) == "playing"
        }
        try #require(playing, "queued did not start playing on Xvfb: \(log())")

        xvfb.kill()
        let exited = try waitUntil(timeout: 15, pollInterval: 0.05) { !daemon.isRunning }
        #expect(exited, "queued kept running without its display: \(log())")
        let status = daemon.status
        print("display lost: queued exited with status \(String(describing: status))")
        #expect(status != nil && status != 0, "exit status \(String(describing: status)): \(log())")
    }
}
