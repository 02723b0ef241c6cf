// Rotation for panels mounted on their side, through SDL's offscreen driver: a picture whose top-left
// quarter is marked in another colour is shown under each rotation and fit mode, and the read-back puts
// the marked quarter in the corner a viewer of the turned panel expects; `screenshot` gives the same pixels.
// The test's own thread plays the engine's presenter thread. SDL is process-global: see SDLTestLock.

import Foundation
import Logging
import Media
import Playback
import TestSupport
import Testing

@testable import VideoSDL

private let background: (y: UInt8, u: UInt8, v: UInt8) = (120, 100, 160)
private let marker: (y: UInt8, u: UInt8, v: UInt8) = (150, 80, 90)
private let backgroundRGB = VideoFrame.bt601LimitedToRGB(y: background.y, u: background.u, v: background.v)
private let markerRGB = VideoFrame.bt601LimitedToRGB(y: marker.y, u: marker.u, v: marker.v)

@Suite("Rotation (SDL offscreen)", .serialized)
struct SDLRotationTests {
    /// Where the picture's top-left quarter is seen once the picture is turned clockwise: quadrants of the
    /// screen's picture as (column, row), 0 = left/top.
    static func markedQuadrant(_ rotation: VideoRotation) -> (column: Int, row: Int) {
        switch rotation {
        case .upright: (0, 0)
        case .clockwise90: (1, 0)
        case .upsideDown: (1, 1)
        case .clockwise270: (0, 1)
        }
    }

    @Test(
        "the marked corner lands where the turned panel shows it, for every fit",
        arguments: VideoRotation.allCases, VideoFit.allCases)
    func markedCorner(rotation: VideoRotation, fit: VideoFit) throws {
        try checkMarkedCorner(rotation: rotation, fit: fit, renderer: nil)
    }

    /// The same through OpenGL where SDL can make a context (Mesa's llvmpipe here), as on a screen box's GPU.
    @Test("the marked corner through OpenGL", arguments: VideoRotation.allCases)
    func markedCornerOpenGL(rotation: VideoRotation) throws {
        try checkMarkedCorner(rotation: rotation, fit: .fit, renderer: "opengl")
    }

    private func checkMarkedCorner(rotation: VideoRotation, fit: VideoFit, renderer: String?) throws {
        try SDLTestLock.run {
            let last = PictureLog()
            let config = SDLVideoConfig(
                driver: "offscreen", renderDriver: renderer, width: 640, height: 360, fit: fit, rotation: rotation,
                vsync: false, probe: { last.append($0) })
            let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
            try sink.open()
            defer { sink.close() }
            // A 16:9 picture in a 16:9 window: upright it fills the window under every fit; turned a quarter
            // it is 9:16, so `fit` pillarboxes it (202.5 px wide in the middle) and `fill` crops its ends.
            let frame = try #require(
                VideoFrame.solid(
                    width: 320, height: 180, y: background.y, u: background.u, v: background.v,
                    topLeftQuarter: marker))
            sink.show(frame)
            let picture = try #require(last.last)
            #expect(picture.width == 640 && picture.height == 360)

            // The picture as seen: the whole window, except a quarter-turned picture under `fit`.
            let pillarboxed = rotation.isQuarterTurn && fit == .fit
            let seen = pillarboxed ? (x: 218.75, width: 202.5) : (x: 0.0, width: 640.0)
            if pillarboxed {
                for x in [0, 100, 210, 430, 540, 639] {
                    #expect(isBlack(picture.rgb(x: x, y: 180)), "bar at x \(x): \(picture.rgb(x: x, y: 180))")
                }
            } else {
                #expect(!isBlack(picture.rgb(x: 2, y: 2)) && !isBlack(picture.rgb(x: 637, y: 357)), "no bars")
            }
            let expected = Self.markedQuadrant(rotation)
            for column in 0...1 {
                for row in 0...1 {
                    let x = Int(seen.x + seen.width * (Double(column) * 0.5 + 0.25))
                    let y = Int(360 * (Double(row) * 0.5 + 0.25))
                    let pixel = picture.rgb(x: x, y: y)
                    let marked = column == expected.column && row == expected.row
                    #expect(
                        isClose(pixel, marked ? markerRGB : backgroundRGB, within: 4),
                        "\(rotation) \(fit): quadrant (\(column), \(row)) at (\(x), \(y)) is \(pixel), want \(marked ? "the marker" : "the background")"
                    )
                }
            }
            // Each quadrant's edge stays on the window's middle lines when nothing is pillarboxed.
            if !pillarboxed {
                let (column, row) = expected
                let inside = picture.rgb(x: column == 0 ? 310 : 330, y: row == 0 ? 170 : 190)
                let outside = picture.rgb(x: column == 0 ? 330 : 310, y: row == 0 ? 170 : 190)
                #expect(
                    isClose(inside, markerRGB, within: 4) && isClose(outside, backgroundRGB, within: 4),
                    "\(inside) \(outside)")
            }

            // The screenshot is what was read back, pixel for pixel (decoded by ffmpeg).
            let decoded = try PNGPixels.decode(try #require(sink.screenshot()))
            #expect(decoded.rgba.count == picture.rgba.count)
            let same = decoded.rgba == picture.rgba
            #expect(same, "the screenshot differs from the read-back")
        }
    }

    @Test("setRotation redraws the current picture at the next pump")
    func setRotationRedraws() throws {
        try SDLTestLock.run {
            let last = PictureLog()
            let config = SDLVideoConfig(
                driver: "offscreen", width: 640, height: 360, fit: .fit, vsync: false, probe: { last.append($0) })
            let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
            try sink.open()
            defer { sink.close() }
            sink.show(
                try #require(
                    VideoFrame.solid(
                        width: 320, height: 180, y: background.y, u: background.u, v: background.v,
                        topLeftQuarter: marker)))
            #expect(!isBlack(try #require(last.last).rgb(x: 100, y: 180)))
            sink.setRotation(.clockwise270)
            sink.pump()
            let turned = try #require(last.last)
            #expect(isBlack(turned.rgb(x: 100, y: 180)), "now pillarboxed")
            #expect(isClose(turned.rgb(x: 270, y: 270), markerRGB, within: 4), "the marker at the bottom left")
        }
    }

    @Test("FitLayout on a turned picture")
    func geometry() throws {
        // 1920x1080 turned a quarter on a 1080x1920 portrait screen fills it exactly.
        let portrait = try #require(
            FitLayout.compute(fit: .fit, rotation: .clockwise90, picture: (1920, 1080), output: (1080, 1920)))
        #expect(portrait.destination == .init(x: 0, y: 0, width: 1080, height: 1920))
        #expect(portrait.source == .init(x: 0, y: 0, width: 1920, height: 1080))
        #expect(portrait.unturnedDestination == (x: -420, y: 420, width: 1920, height: 1080))
        // On a landscape window it is pillarboxed.
        let pillar = try #require(
            FitLayout.compute(fit: .fit, rotation: .clockwise270, picture: (1920, 1080), output: (1280, 720)))
        #expect(pillar.destination == .init(x: 437, y: 0, width: 405, height: 720))
        // `fill` crops the turned picture's top and bottom: the source's left and right.
        let crop = try #require(
            FitLayout.compute(fit: .fill, rotation: .clockwise90, picture: (1920, 1080), output: (1280, 720)))
        #expect(crop.destination == .init(x: 0, y: 0, width: 1280, height: 720))
        #expect(crop.source == .init(x: 656, y: 0, width: 608, height: 1080))
        // An off-centre crop maps back exactly (each turn: the same seen rectangle in the picture's pixels).
        let seen = FitLayout.Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(seen.unturned(.clockwise90, picture: (200, 100)) == .init(x: 20, y: 60, width: 40, height: 30))
        #expect(seen.unturned(.upsideDown, picture: (200, 100)) == .init(x: 160, y: 40, width: 30, height: 40))
        #expect(seen.unturned(.clockwise270, picture: (200, 100)) == .init(x: 140, y: 10, width: 40, height: 30))
    }
}
