// A portrait panel through the real daemon (SDL offscreen, a private PulseAudio): `--rotate` turns the
// picture, `player.set {rotate}` and `queuectl rotate` turn it again, `player.screenshot` shows it turned,
// a bad angle is refused, and the rotation comes back after a restart like fit and volume do.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct RotationDaemonTests {
    /// A 320x180 blue picture whose top-left quarter is yellow.
    static func markedStill() throws -> String {
        try Fixtures.make(
            "marked-320x180.png",
            [
                "-f", "lavfi", "-i", "color=c=blue:s=320x180:r=1:d=1", "-vf",
                "drawbox=x=0:y=0:w=160:h=90:color=yellow:t=fill", "-frames:v", "1", "-update", "1",
            ])
    }

    /// The screenshot's pixels: (width, height, RGBA bytes).
    static func pixels(_ client: QueueClient) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let shot = try client.call(API.PlayerScreenshot.self, .init())
        return try PNGPixels.decode(Array(Data(base64Encoded: shot.png ?? "") ?? Data()))
    }

    /// Which quadrant of the 9:16 picture pillarboxed in the 320x240 window is yellow, as (column, row);
    /// nil when none or more than one is, or the bars are not black.
    static func yellowQuadrant(_ client: QueueClient) throws -> (column: Int, row: Int)? {
        let shot = try pixels(client)
        guard shot.width == 320, shot.height == 240, shot.rgba.count == 320 * 240 * 4 else { return nil }
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let index = (y * 320 + x) * 4
            return (Int(shot.rgba[index]), Int(shot.rgba[index + 1]), Int(shot.rgba[index + 2]))
        }
        let bars = [rgb(20, 120), rgb(300, 120)]
        guard bars.allSatisfy({ $0.0 < 8 && $0.1 < 8 && $0.2 < 8 }) else { return nil }
        // The picture seen is 135x240 at x = 92.5.
        var yellow: [(column: Int, row: Int)] = []
        for column in 0...1 {
            for row in 0...1 {
                let (r, g, b) = rgb(92 + 34 + column * 68, 60 + row * 120)
                if r > 200 && g > 200 && b < 60 { yellow.append((column, row)) }
            }
        }
        return yellow.count == 1 ? yellow[0] : nil
    }

    @Test func aPortraitPanelIsTurnedSetAgainAndRestored() throws {
        let state = try TemporaryDirectory(prefix: "queued-rotate-state")
        let still = try Self.markedStill()
        do {
            let daemon = try RunningDaemon(["--state-dir", state.path, "--rotate", "90"])
            defer { daemon.stop() }
            let client = try daemon.client()
            let watcher = try daemon.client()
            _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted]))
            let id = try #require(
                try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: still, duration: 600)])).ids.first)
            _ = try client.call(API.PlayerPlay.self, .init())
            let started = try collectNotifications(watcher, timeout: 20) { notes in
                notes.contains { $0.method == "event.itemStarted" && $0.params?["id"]?.intValue == id }
            }
            try #require(!started.isEmpty, "\(daemon.log())")
            #expect(try client.call(API.PlayerStatus.self).rotate == 90)
            // A JPEG thumbnail through the socket: asked size, a JPEG file, the size it shows.
            let thumbnail = try client.call(API.PlayerScreenshot.self, .init(format: .jpeg, maxWidth: 160))
            let jpeg = [UInt8](Data(base64Encoded: thumbnail.jpeg ?? "") ?? Data())
            #expect(thumbnail.png == nil && thumbnail.width == 160 && thumbnail.height == 120)
            #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.count > 100)
            let turned = try Self.yellowQuadrant(client)
            #expect(
                turned.map { $0 == (1, 0) } == true,
                "90°: the top-left corner at the top right, got \(String(describing: turned))")

            // Turned again through the socket: the screen shows it once the presenter has redrawn.
            #expect(try client.call(API.PlayerSet.self, .init(rotate: 270)).rotate == 270)
            let redrawn = waitUntil(timeout: 5, pollInterval: 0.05) {
                (try? Self.yellowQuadrant(client)).flatMap { $0 }.map { $0 == (0, 1) } == true
            }
            #expect(redrawn, "270°: the top-left corner at the bottom left")

            // queuectl, and a bad angle.
            let set = try daemon.queuectl(["rotate", "180"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(try daemon.queuectl(["rotate"]).stdout.contains("rotate: 180"))
            #expect(try daemon.queuectl(["rotate", "45"]).status == 2)
            let refused = #expect(throws: ClientError.self) { try client.call("player.set", ["rotate": 45]) }
            guard case .rpc(let error)? = refused else {
                throw TestSupportError.io("not an RPC error: \(String(describing: refused))")
            }
            #expect(error.code == -32602 && "\(error)".contains("0, 90, 180, 270"), "\(error)")
            #expect(try client.call(API.PlayerStatus.self).rotate == 180)
        }
        // A restart without --rotate turns the picture as it was last set.
        let again = try RunningDaemon(["--state-dir", state.path])
        defer { again.stop() }
        #expect(try again.client().call(API.PlayerStatus.self).rotate == 180, "\(again.log())")
    }
}
