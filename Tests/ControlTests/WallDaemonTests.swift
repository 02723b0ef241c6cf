// A video wall's panels through the real daemon (SDL offscreen, 320x240): a picture of four coloured quarters
// (red, green / blue, magenta) is shown by each screen as its part of it — the top right panel of a 2x2 wall
// all green, a crop of the bottom left quarter all blue, and the left panel of a wall of two portrait
// panels (each window turned by 90°) its red and blue halves turned into the window. Read back from
// player.screenshot.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct WallDaemonTests {
    /// `width`x`height`, its quarters red and green on top, blue and magenta below.
    static func quarters(width: Int, height: Int) throws -> String {
        let (w, h) = (width / 2, height / 2)
        return try Fixtures.make(
            "quarters-\(width)x\(height).png",
            [
                "-f", "lavfi", "-i", "color=c=red:s=\(width)x\(height):r=1:d=1", "-vf",
                "drawbox=x=\(w):y=0:w=\(w):h=\(h):color=lime:t=fill,drawbox=x=0:y=\(h):w=\(w):h=\(h):color=blue:t=fill,drawbox=x=\(w):y=\(h):w=\(w):h=\(h):color=magenta:t=fill",
                "-frames:v", "1", "-update", "1",
            ])
    }

    /// The hues at `points` of what the screen shows once the still is on it.
    static func hues(_ arguments: [String], picture: String, at points: [(Int, Int)]) throws -> [VideoHue?] {
        let daemon = try RunningDaemon(arguments)
        defer { daemon.stop() }
        let client = try daemon.client()
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: picture, duration: 600)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        var seen: [VideoHue?] = []
        _ = waitUntil(timeout: 20, pollInterval: 0.1) {
            guard let shot = try? RotationDaemonTests.pixels(client), shot.width == 320, shot.height == 240 else { return false }
            seen = points.map { ZonesDaemonTests.hue(shot, $0.0, $0.1) }
            return seen.allSatisfy { $0 != nil }
        }
        return seen
    }

    @Test func eachPanelShowsItsPartOfThePicture() throws {
        let picture = try Self.quarters(width: 640, height: 480)
        let everywhere = [(10, 10), (310, 10), (160, 120), (10, 230), (310, 230)]
        let topRight = try Self.hues(["--wall", "2x2", "--wall-position", "1,0"], picture: picture, at: everywhere)
        #expect(topRight.allSatisfy { $0 == .green }, "the top right panel: \(topRight)")
        let crop = try Self.hues(["--wall-crop", "0,0.5,0.5,0.5"], picture: picture, at: everywhere)
        #expect(crop.allSatisfy { $0 == .blue }, "the bottom left quarter: \(crop)")
        // Two portrait panels side by side (each 240x320 as seen): the wall is 480x320, the picture's left half
        // (red above blue) on panel 0, turned clockwise into the 320x240 window: red on the right, blue on the left.
        let portrait = try Self.quarters(width: 480, height: 320)
        let turned = try Self.hues(["--wall", "2x1", "--wall-position", "0,0", "--rotate", "90"], picture: portrait, at: [(300, 20), (300, 220), (20, 20), (20, 220)])
        #expect(turned == [.red, .red, .blue, .blue], "the left portrait panel: \(turned)")
    }

    @Test func wallOptionsThatMakeNoWallAreRefused() throws {
        for arguments in [["--wall", "2x2", "--wall-position", "2,0"], ["--wall-crop", "0.5,0.5,0.6,0.1"], ["--wall", "2x1", "--wall-bezel", "5mm"], ["--wall-position", "1,0"]] {
            let outcome = try ChildProcess.run(BuiltProduct.path("queued"), ["--no-config", "--video", "none", "--audio", "null"] + arguments)
            #expect(outcome.status != 0, "\(arguments) refused")
            #expect(outcome.stderr.contains("--wall"), "\(arguments): \(outcome.stderr)")
        }
    }
}
