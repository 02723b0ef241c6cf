// queuectl against the real daemon: every subcommand a user types, its human and --json output, and
// its exit codes (0 ok, 1 daemon error, 2 usage, 3 not running).

import Foundation
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct QueuectlEndToEndTests {
    @Test func commandsOutputsAndExitCodes() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let clip = try Fixtures.video(seconds: 2, fps: 25, hue: .green, withAudio: .aacMP4)
        let tone = try Fixtures.tone(frequency: 440, seconds: 3, format: .flac)
        func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            try daemon.queuectl(arguments)
        }
        func json(_ arguments: String...) throws -> JSONValue {
            let result = try daemon.queuectl(["--json"] + arguments)
            #expect(result.status == 0, "queuectl --json \(arguments): \(result.stderr)")
            return try JSON.parse(result.stdout)
        }

        #expect(try ctl("add", clip, tone, "--loops", "2").status == 0)
        let listed = try json("ls")
        let ids = listed["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        #expect(ids.count == 2)
        #expect(listed["items"]?.arrayValue?.first?["loops"]?.intValue == 2)

        // watch prints one line per event while we drive the daemon.
        let watchOut = daemon.directory.path + "/watch.out"
        let watcher = try ChildProcess(
            BuiltProduct.path("queuectl"), ["--socket", daemon.socket, "watch", "itemStarted", "itemEnded"],
            stdoutPath: watchOut)
        #expect(try ctl("play").status == 0)
        let status = try ctl("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("[playing]"), "\(status.stdout)")
        #expect(try ctl("ls").stdout.contains("▶"))
        #expect(try ctl("seek", "+0.5").status == 0)
        #expect(try ctl("next").status == 0)
        #expect(
            try waitUntil(timeout: 10) {
                ((try? String(contentsOfFile: watchOut, encoding: .utf8)) ?? "").contains("itemStarted #\(ids[1])")
            })
        _ = watcher.terminate()
        let watched = (try? String(contentsOfFile: watchOut, encoding: .utf8)) ?? ""
        #expect(watched.contains("itemEnded #\(ids[0])") && watched.contains("skipped"), "\(watched)")

        #expect(try ctl("loop", "forever").status == 0)
        #expect(try json("status")["queueLoops"]?.intValue == 0)
        #expect(try ctl("loops", String(ids[1]), "3").status == 0)
        #expect(try json("ls")["items"]?.arrayValue?[1]["loops"]?.intValue == 3)
        #expect(try ctl("volume", "50").status == 0)
        #expect(try ctl("mute").status == 0)
        let muted = try json("status")
        #expect(muted["volume"]?.intValue == 50 && muted["muted"]?.boolValue == true)
        #expect(try ctl("unmute").status == 0)
        let shot = daemon.directory.path + "/shot.png"
        #expect(try ctl("screenshot", shot).status == 0)
        #expect((FileManager.default.contents(atPath: shot) ?? Data()).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try ctl("pause").status == 0)
        #expect(try json("status")["state"]?.stringValue == "paused")
        #expect(try ctl("toggle").status == 0)
        #expect(try ctl("mv", String(ids[1]), "0").status == 0)
        #expect(try json("ls")["items"]?.arrayValue?.first?["id"]?.intValue == ids[1])
        let raw = try ctl("call", "player.status")
        #expect(raw.status == 0)
        #expect((try? JSON.parse(raw.stdout))?["state"] != nil)
        #expect(try ctl("prev").status == 0)
        #expect(try ctl("stop").status == 0)
        #expect(try ctl("rm", String(ids[0])).status == 0)
        #expect(try ctl("clear").status == 0)
        #expect(try json("ls")["total"]?.intValue == 0)

        // Exit codes.
        let missingItem = try ctl("play", "999")
        #expect(missingItem.status == 1)
        #expect(missingItem.stderr.contains("999"))
        #expect(try ctl("frobnicate").status == 2)
        #expect(try ctl("volume", "101").status == 2)
        let absent = try ChildProcess.run(
            BuiltProduct.path("queuectl"), ["--socket", daemon.directory.path + "/nobody-home.sock", "status"],
            timeout: 30)
        #expect(absent.status == 3)
        #expect(absent.stderr.contains("queued is not running at"))
    }
}
