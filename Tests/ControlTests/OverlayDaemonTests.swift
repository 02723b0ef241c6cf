// Overlays against the real daemon (PulseAudio, SDL offscreen): added over the socket and with queuectl,
// in the screenshot, refused with the field named when wrong, and after kill -9 and a restart the same
// layers (same ids, same fields) are back on the screen and ids go on from where they were. Every message
// is checked against the OpenRPC schemas.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized)
struct OverlayDaemonTests {
    /// Whether a green box (the test's text background) is in the top-left quarter of a screenshot.
    private func greenBoxInTopLeft(_ png: JSONValue?) throws -> Bool {
        let text = try #require(png?["png"]?.stringValue)
        let data = try #require(Data(base64Encoded: text))
        let picture = try PNGPixels.decode([UInt8](data))
        for y in 0..<(picture.height / 4) {
            for x in 0..<(picture.width / 4) {
                let i = (y * picture.width + x) * 4
                let (r, g, b) = (picture.rgba[i], picture.rgba[i + 1], picture.rgba[i + 2])
                if g > 200 && r < 60 && b < 60 { return true }
            }
        }
        return false
    }

    @Test func overlaysAreDrawnRefusedWithReasonsAndSurviveKillNine() throws {
        let state = try TemporaryDirectory(prefix: "queued-overlay-state")
        let still = try Fixtures.still(hue: .blue)
        let logo = try Fixtures.make(
            "overlay-red-half-alpha-40x40.png",
            ["-f", "lavfi", "-i", "color=c=red@0.5:s=40x40:d=1,format=rgba", "-frames:v", "1", "-update", "1"])
        let transcript = Transcript()
        var listed: JSONValue?
        do {
            let daemon = try RunningDaemon(outputs: .real(video: true), ["--state-dir", state.path, "--loops", "0"])
            let control = RecordingClient(try daemon.client(), transcript)
            let added = try control.call("queue.add", ["items": [.string(still)]])
            let itemID = try #require(added["ids"]?[0]?.intValue)
            try control.call("player.play")

            let box = try control.call(
                "overlay.add",
                [
                    "type": "text", "text": "Lobby", "color": "#ff0000", "background": "#00ff00", "anchor": "top-left",
                    "x": 10, "y": "5%",
                ])
            #expect(box["id"]?.intValue == 1)
            try control.call("overlay.add", ["type": "image", "path": .string(logo), "anchor": "bottom-right"])
            try control.call("overlay.add", ["type": "clock", "format": "%H:%M:%S", "anchor": "top-right"])
            try control.call("overlay.add", ["type": "ticker", "text": "News", "speed": 120, "anchor": "bottom"])
            try control.call("overlay.add", ["type": "text", "text": "{title}", "item": .int(itemID), "z": 3])
            let viaQueuectl = try daemon.queuectl([
                "overlay", "add", "--text", "Hi", "--anchor", "center", "--font", "No Such Family Qq",
            ])
            #expect(viaQueuectl.status == 0 && viaQueuectl.stdout.hasPrefix("added overlay #6"), "\(viaQueuectl)")
            // A family the box lacks is drawn in DejaVu Sans, with a warning in the log.
            #expect(
                try waitUntil(timeout: 10, pollInterval: 0.05) { daemon.log().contains("overlay font not found") },
                "\(daemon.log())")
            #expect(try daemon.queuectl(["overlay", "update", "6", "--hide"]).status == 0)

            // Wrong fields: each refused with the field named, nothing added.
            let refusals: [(JSONValue, String)] = [
                (["text": "no type"], "type"),
                (["type": "text"], "text"),
                (["type": "text", "text": "x", "speed": 10], "speed"),
                (["type": "image", "path": "logo.png"], "path"),
                (["type": "image", "path": "/no/such/logo.png"], "path"),
                (["type": "text", "text": "x", "color": "red"], "color"),
                (["type": "text", "text": "x", "x": "5 percent"], "x"),
                (["type": "text", "text": "x", "opacity": 2], "opacity"),
                (["type": "ticker", "text": "x", "speed": 0], "speed"),
                (["type": "text", "text": "x", "colour": "#ffffff"], "colour"),
            ]
            for (params, field) in refusals {
                do {
                    try control.call("overlay.add", params, requestIsValid: false)
                    Issue.record("overlay.add \(params) was accepted")
                } catch let ClientError.rpc(error) {
                    #expect(error.code == -32602 && error.data?["param"]?.stringValue == field, "\(params): \(error)")
                }
            }
            do {
                try control.call("overlay.add", ["type": "text", "text": "x", "item": 999])
                Issue.record("an overlay for item 999 was accepted")
            } catch let ClientError.rpc(error) {
                #expect(error.code == -32000, "\(error)")
            }
            do {
                try control.call("overlay.update", ["id": 3, "text": "clocks have no text"])
                Issue.record("text on a clock was accepted")
            } catch let ClientError.rpc(error) {
                #expect(error.code == -32602 && error.data?["param"]?.stringValue == "text", "\(error)")
            }
            do {
                try control.call("overlay.remove", ["ids": [2, 99]])
                Issue.record("removing an unknown overlay was accepted")
            } catch let ClientError.rpc(error) {
                #expect(error.code == -32602, "\(error)")
            }
            #expect(try daemon.queuectl(["overlay", "add", "--text", "x", "--color", "red"]).status == 2)

            let updated = try control.call("overlay.update", ["id": 3, "format": "%H:%M", "opacity": 0.5])
            #expect(updated["overlay"]?["format"] == "%H:%M" && updated["overlay"]?["opacity"]?.doubleValue == 0.5)
            let removed = try daemon.queuectl(["overlay", "rm", "4"])
            #expect(removed.status == 0 && removed.stdout.contains("removed #4"), "\(removed)")

            listed = try control.call("overlay.list")
            let ids = listed?["overlays"]?.arrayValue?.compactMap { $0["id"]?.intValue }
            #expect(ids == [1, 2, 3, 6, 5], "z order then id: \(String(describing: ids))")
            #expect(try greenBoxInTopLeft(try control.call("player.screenshot")), "the text box is on the screen")
            // kill -9: the layers were kept before each answer.
            _ = daemon.process.terminate(signal: SIGKILL)
            daemon.pulse?.stop()
        }
        let again = try RunningDaemon(outputs: .real(video: true), ["--state-dir", state.path])
        defer { again.stop() }
        let control = RecordingClient(try again.client(), transcript)
        #expect(try control.call("overlay.list") == listed, "the same layers after kill -9 and a restart")
        let ls = try again.queuectl(["overlay"])
        #expect(ls.stdout.contains("#1  text  \"Lobby\"  top-left 10,5%"), "\(ls)")
        let next = try control.call("overlay.add", ["type": "text", "text": "later"])
        #expect(next["id"]?.intValue == 7, "ids are never reused")
        #expect(
            try waitUntil(timeout: 10, pollInterval: 0.1) {
                (try? greenBoxInTopLeft(try control.call("player.screenshot"))) == true
            }, "the restored text box is drawn")
        // Removing the item removes its layer.
        try control.call("queue.clear")
        let afterClear = try control.call("overlay.list")["overlays"]?.arrayValue?.compactMap { $0["id"]?.intValue }
        #expect(afterClear == [1, 2, 3, 6, 7], "\(String(describing: afterClear))")

        // --replace replaces the queue, not the overlays; a layer tied to a replaced item goes with it.
        let added = try control.call("queue.add", ["items": [.string(still)]])
        let tied = try control.call(
            "overlay.add", ["type": "text", "text": "x", "item": .int(try #require(added["ids"]?[0]?.intValue))])
        #expect(tied["id"]?.intValue == 8)
        again.stop()
        let replaced = try RunningDaemon(outputs: .real(video: true), ["--state-dir", state.path, "--replace", still])
        defer { replaced.stop() }
        let third = RecordingClient(try replaced.client(), transcript)
        let kept = try third.call("overlay.list")["overlays"]?.arrayValue?.compactMap { $0["id"]?.intValue }
        #expect(kept == [1, 2, 3, 6, 7], "\(String(describing: kept))")

        let directory = try TemporaryDirectory()
        let validation = try validateTranscript(transcript, in: directory.path)
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 20)
    }
}
