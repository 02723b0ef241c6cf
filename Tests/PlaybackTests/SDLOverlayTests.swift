// Overlays on SDLVideoSink with SDL's offscreen driver, read back from the renderer: a text box lands at
// each anchor in its colours (also on a turned screen), an image's alpha blends over the picture, a ticker
// moves by speed × time, and a screenshot is the picture read back. The test's thread plays the presenter
// thread. SDL is process-global: see SDLTestLock.

import Foundation
import Logging
import Media
import Overlays
import Playback
import TestSupport
import Testing

@testable import VideoSDL

private func withOverlaySink<T>(
    width: Int = 640, height: Int = 360, rotation: VideoRotation = .upright,
    _ body: (SDLVideoSink, PictureLog) throws -> T
) throws -> T {
    try SDLTestLock.run {
        let log = PictureLog()
        let config = SDLVideoConfig(
            driver: "offscreen", width: width, height: height, rotation: rotation, vsync: false, probe: { log.append($0) })
        let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
        try sink.open()
        defer { sink.close() }
        return try body(sink, log)
    }
}

/// The smallest rectangle holding every pixel `matches` accepts, as (minX, minY, maxX, maxY).
private func bounds(
    of picture: PresentedPicture, where matches: ((r: UInt8, g: UInt8, b: UInt8)) -> Bool
) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var result: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
    for y in 0..<picture.height {
        for x in 0..<picture.width where matches(picture.rgb(x: x, y: y)) {
            let old = result ?? (x, y, x, y)
            result = (min(old.minX, x), min(old.minY, y), max(old.maxX, x), max(old.maxY, y))
        }
    }
    return result
}

private func isGreen(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.g > 200 && p.r < 60 && p.b < 60 }
private func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.r > 200 && p.g < 90 && p.b < 60 }
private func isWhite(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.r > 200 && p.g > 200 && p.b > 200 }

private func textBox(anchor: OverlayAnchor, x: OverlayLength = .pixels(10), y: OverlayLength = .pixels(20)) -> OverlaySet {
    var set = OverlaySet()
    _ = set.add(
        Overlay(
            content: .text("Lobby"),
            style: OverlayStyle(size: 24, color: OverlayColor(red: 255, green: 0, blue: 0), background: OverlayColor(red: 0, green: 255, blue: 0), padding: 6),
            anchor: anchor, x: x, y: y))
    return set
}

@Suite("Overlays on SDL (offscreen)", .serialized)
struct SDLOverlayTests {
    @Test func aTextBoxLandsAtEachAnchorInItsColours() throws {
        try withOverlaySink { sink, log in
            for anchor in OverlayAnchor.allCases {
                sink.setOverlays(textBox(anchor: anchor), playing: nil)
                sink.showBlack()
                let picture = try #require(log.last)
                let box = try #require(bounds(of: picture, where: isGreen), "\(anchor): no box")
                let (width, height) = (box.maxX - box.minX + 1, box.maxY - box.minY + 1)
                #expect(width > 40 && height > 24, "\(anchor): box \(width)x\(height)")
                let expectedX: Double =
                    switch anchor {
                    case .topLeft, .left, .bottomLeft: 10
                    case .top, .center, .bottom: Double(640 - width) / 2 + 10
                    default: Double(640 - width - 10)
                    }
                let expectedY: Double =
                    switch anchor {
                    case .topLeft, .top, .topRight: 20
                    case .left, .center, .right: Double(360 - height) / 2 + 20
                    default: Double(360 - height - 20)
                    }
                #expect(abs(Double(box.minX) - expectedX) <= 1, "\(anchor): box at x \(box.minX), expected \(expectedX)")
                #expect(abs(Double(box.minY) - expectedY) <= 1, "\(anchor): box at y \(box.minY), expected \(expectedY)")
                // The text is red inside the box, with the padding all around.
                let text = try #require(bounds(of: picture, where: isRed), "\(anchor): no red text")
                #expect(text.minX >= box.minX + 6 && text.maxX <= box.maxX - 6, "\(anchor): text \(text) box \(box)")
                #expect(text.minY >= box.minY + 6 && text.maxY <= box.maxY - 6, "\(anchor): text \(text) box \(box)")
                // Nothing else is drawn.
                for (x, y) in [(box.minX - 2, box.minY), (box.maxX + 2, box.maxY), (box.minX, box.minY - 2), (box.maxX, box.maxY + 2)]
                where (0..<640).contains(x) && (0..<360).contains(y) {
                    #expect(isBlack(picture.rgb(x: x, y: y)), "\(anchor): (\(x), \(y)) outside the box is not black")
                }
            }
        }
    }

    @Test func percentOffsetsAndATurnedScreenPlaceTheBoxWhereTheViewerSeesIt() throws {
        // A screen turned clockwise by 90: the viewer's top-left is the output's top-right, the viewer's
        // x runs down the output and y runs leftwards.
        try withOverlaySink(rotation: .clockwise90) { sink, log in
            sink.setOverlays(textBox(anchor: .topLeft, x: .percent(10), y: .pixels(20)), playing: nil)
            sink.showBlack()
            let picture = try #require(log.last)
            let box = try #require(bounds(of: picture, where: isGreen))
            #expect(box.maxX == 640 - 1 - 20, "the box's edge is 20 px from the output's right: \(box)")
            #expect(abs(box.minY - 36) <= 1, "10% of the viewer's 360 px width down the output: \(box)")
            #expect(box.maxY - box.minY > box.maxX - box.minX, "the text box stands upright for the viewer: \(box)")
        }
    }

    @Test func anImagesAlphaBlendsOverThePicture() throws {
        let png = try Fixtures.make(
            "overlay-red-half-alpha-40x40.png",
            ["-f", "lavfi", "-i", "color=c=red@0.5:s=40x40:d=1,format=rgba", "-frames:v", "1", "-update", "1"])
        let (y, u, v): (UInt8, UInt8, UInt8) = (120, 100, 160)
        let under = VideoFrame.bt601LimitedToRGB(y: y, u: u, v: v)
        let frame = try #require(VideoFrame.solid(width: 640, height: 360, y: y, u: u, v: v))
        var set = OverlaySet()
        let logo = set.add(Overlay(content: .image(path: png), style: OverlayStyle(padding: 0), anchor: .center))
        try withOverlaySink { sink, log in
            sink.setOverlays(set, playing: nil)
            sink.show(frame)
            let picture = try #require(log.last)
            // ffmpeg stores red@0.5 with alpha 128 (0x80).
            let alpha = 128.0 / 255
            func blend(_ top: Double, _ bottom: UInt8, _ a: Double) -> UInt8 {
                UInt8((top * a + Double(bottom) * (1 - a)).rounded())
            }
            let expected = (blend(255, under.0, alpha), blend(0, under.1, alpha), blend(0, under.2, alpha))
            #expect(isClose(picture.rgb(x: 320, y: 180), expected), "\(picture.rgb(x: 320, y: 180)) vs \(expected)")
            #expect(isClose(picture.rgb(x: 320 - 25, y: 180), under), "outside the image the picture shows")
            // Half the opacity halves the image's weight.
            set.update(logo) { $0.opacity = 0.5 }
            sink.setOverlays(set, playing: nil)
            sink.show(frame)
            let half = try #require(log.last)
            let weaker = (blend(255, under.0, alpha / 2), blend(0, under.1, alpha / 2), blend(0, under.2, alpha / 2))
            #expect(isClose(half.rgb(x: 320, y: 180), weaker), "\(half.rgb(x: 320, y: 180)) vs \(weaker)")
        }
    }

    /// A phone photo as an overlay image is drawn as it is seen: EXIF 6 turns the 320x180 picture upright
    /// (180x320), its marked top-left corner at the box's top right.
    @Test func anImageIsDrawnAsItsEXIFOrientationSays() throws {
        let photo = try Fixtures.orientedJPEG(exif: 6)
        var set = OverlaySet()
        _ = set.add(Overlay(content: .image(path: photo), style: OverlayStyle(padding: 0), anchor: .topLeft))
        try withOverlaySink { sink, log in
            sink.setOverlays(set, playing: nil)
            sink.showBlack()
            let picture = try #require(log.last)
            let box = try #require(bounds(of: picture) { !isBlack($0) })
            #expect(box.maxX - box.minX + 1 == 180 && box.maxY - box.minY + 1 == 320, "\(box)")
            #expect(isRed(picture.rgb(x: box.minX + 135, y: box.minY + 80)), "the marked corner at the top right")
            #expect(!isRed(picture.rgb(x: box.minX + 45, y: box.minY + 80)), "not at the top left")
        }
    }

    @Test func aTickerMovesBySpeedTimesTime() throws {
        var set = OverlaySet()
        _ = set.add(Overlay(content: .ticker(text: "Ticker", speed: 200), style: OverlayStyle(size: 24), anchor: .bottom))
        try withOverlaySink { sink, log in
            sink.setOverlays(set, playing: nil)
            sink.showBlack()
            // Play the presenter: pump until the pictures span a second (the ticker redraws at up to 60 Hz).
            let deadline = Date(timeIntervalSinceNow: 5)
            while Date() < deadline {
                sink.pump()
                if let first = log.all.first, let last = log.last, last.presentedAtNanos - first.presentedAtNanos > 1_200_000_000 {
                    break
                }
                usleep(1000)
            }
            // Where the text's left edge is in each picture (white pixels in the band at the bottom).
            let pictures = log.all.compactMap { picture -> (at: Double, left: Int)? in
                guard let text = bounds(of: picture, where: isWhite), text.minY > 360 - 60 else { return nil }
                // Only while it is wholly inside the screen (entering, its right end is cut off).
                guard text.maxX < 620 else { return nil }
                return (Double(picture.presentedAtNanos) / 1e9, text.minX)
            }
            #expect(pictures.count >= 20, "pictures with the whole text: \(pictures.count)")
            guard let first = pictures.first else { return }
            var worst = 0.0
            for picture in pictures.dropFirst() {
                let expected = Double(first.left) - 200 * (picture.at - first.at)
                worst = max(worst, abs(Double(picture.left) - expected))
            }
            print("ticker: \(pictures.count) pictures over \(String(format: "%.2f", pictures.last!.at - first.at)) s; worst distance from speed × time \(String(format: "%.2f", worst)) px")
            #expect(worst <= 2, "the ticker strays \(worst) px from 200 px/s × time")
        }
    }

    @Test func theScreenshotIsThePictureWithItsOverlays() throws {
        let png = try Fixtures.make(
            "overlay-red-half-alpha-40x40.png",
            ["-f", "lavfi", "-i", "color=c=red@0.5:s=40x40:d=1,format=rgba", "-frames:v", "1", "-update", "1"])
        let frame = try #require(VideoFrame.solid(width: 320, height: 180, y: 120, u: 100, v: 160))
        var set = textBox(anchor: .bottomRight)
        _ = set.add(Overlay(content: .image(path: png), anchor: .topLeft))
        try withOverlaySink { sink, log in
            sink.setOverlays(set, playing: nil)
            sink.show(frame)
            let shown = try #require(log.last)
            let screenshot = try #require(sink.screenshot())
            let decoded = try PNGPixels.decode(screenshot)
            #expect(decoded.width == shown.width && decoded.height == shown.height)
            #expect(decoded.rgba == shown.rgba, "the screenshot differs from the picture read back at present")
            #expect(bounds(of: shown, where: isGreen) != nil, "the overlay is in the picture")
        }
    }

    @Test func overlaysShowOverBlackAndGoWithTheirRemoval() throws {
        try withOverlaySink { sink, log in
            sink.setOverlays(textBox(anchor: .center), playing: nil)
            sink.showBlack()
            #expect(bounds(of: try #require(log.last), where: isGreen) != nil)
            #expect(sink.screenshot() != nil, "overlays over black are something on screen")
            sink.setOverlays(OverlaySet(), playing: nil)
            sink.pump()
            let cleared = try #require(log.last)
            #expect(bounds(of: cleared, where: isGreen) == nil, "a removed overlay is drawn away at the next pump")
            #expect(sink.screenshot() == nil, "black with no overlays is nothing on screen")
        }
    }

    @Test func aMissingFontFallsBackToDejaVuSansAndStillDraws() throws {
        let finder = FontFinder()
        let missing = finder.find("No Such Family Qq")
        #expect(!missing.exact && missing.match.family == "DejaVu Sans", "\(missing)")
        #expect(FileManager.default.fileExists(atPath: missing.match.path))
        let serif = finder.find("DejaVu Serif")
        #expect(serif.exact && serif.match.path.hasSuffix("DejaVuSerif.ttf"), "\(serif)")
        var set = textBox(anchor: .center)
        _ = set.update(1) { $0.style.font = "No Such Family Qq" }
        try withOverlaySink { sink, log in
            sink.setOverlays(set, playing: nil)
            sink.showBlack()
            let picture = try #require(log.last)
            #expect(bounds(of: picture, where: isRed) != nil, "the text is drawn in the fallback font")
        }
    }
}
