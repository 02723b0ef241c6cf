// `--hwdec` through the daemon on a machine with no GPU ("fallback tested", not "hardware decoding works"):
// the status names the decoder (h264, in software), the log says why at info — every method's reason, the
// devices tried once for the daemon's life — and an unknown method is a usage error.

import Foundation
import JSONText
import QueueClient
import TestSupport
import Testing

@Suite struct HWDecodeDaemonTests {
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri")))
    func autoWithNoDeviceDecodesInSoftwareAndSaysWhy() throws {
        let clip = try Fixtures.video(seconds: 0.5, fps: 25, hue: .red, withAudio: .aacMP4)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--hwdec", "auto"])
        defer { daemon.stop() }
        let control = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        _ = try control.call("queue.add", ["items": [["uri": .string(clip), "loops": 2]]])
        _ = try control.call("player.play")
        var decoder: JSONValue?
        let started = try collectNotifications(watcher, timeout: 20) { notes in
            if decoder == nil, notes.contains(where: { $0.method == "event.itemStarted" }) {
                decoder = try? control.call("player.status")["decoder"]
            }
            return notes.filter { $0.method == "event.itemEnded" }.count >= 2
        }
        #expect(started.filter { $0.method == "event.itemEnded" }.count >= 2)
        let announced = started.first { $0.method == "event.itemStarted" }?.params?["decoder"]
        #expect(announced?["codec"]?.stringValue == "h264" && announced?["hwdec"]?.isNull == true, "itemStarted says it too")
        #expect(decoder?["codec"]?.stringValue == "h264" && decoder?["hwdec"]?.isNull == true, "\(String(describing: decoder))")
        let info = try control.call("daemon.info")["hwdec"]
        #expect(info?["setting"]?.stringValue == "auto")
        #expect(info?["offered"]?.arrayValue?.contains("vaapi") == true && info?["codecs"]?.arrayValue?.count == 4, "\(String(describing: info))")
        let log = daemon.log()
        #expect(log.contains("this FFmpeg offers: vaapi, nvdec"), "\(log)")
        #expect(log.contains("decoded in software: nvdec: cannot create a device"), "\(log)")
        #expect(log.contains("vaapi: cannot create a device"), "\(log)")
        #expect(log.components(separatedBy: "decoded in software").count - 1 >= 2, "said for each play")
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri")))
    func hwdecTurnedOnWithPlayerSetAppliesToTheNextItems() throws {
        let clip = try Fixtures.video(seconds: 0.5, fps: 25, hue: .blue, withAudio: .aacMP4)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), [])
        defer { daemon.stop() }
        let control = try daemon.client()
        #expect(try control.call("daemon.info")["hwdec"]?["setting"]?.stringValue == "no")
        let status = try control.call("player.set", ["hwdec": "vaapi"])
        #expect(status["state"]?.stringValue == "idle")
        #expect(try control.call("daemon.info")["hwdec"]?["setting"]?.stringValue == "vaapi")
        #expect(throws: (any Error).self) { try control.call("player.set", ["hwdec": "quantum"]) }
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemEnded"]])
        _ = try control.call("queue.add", ["items": [.string(clip)]])
        _ = try control.call("player.play")
        _ = try collectNotifications(watcher, timeout: 20) { $0.contains { $0.method == "event.itemEnded" } }
        #expect(daemon.log().contains("decoded in software: vaapi: cannot create a device"), "\(daemon.log())")
    }

    @Test func anUnknownMethodIsAUsageError() throws {
        let run = try ChildProcess.run(BuiltProduct.path("queued"), ["--no-config", "--hwdec", "cuda", "--no-state"], timeout: 30)
        #expect(run.status == 64 && run.stderr.contains("unknown hwdec method cuda"), "\(run.status) \(run.stderr)")
    }
}
