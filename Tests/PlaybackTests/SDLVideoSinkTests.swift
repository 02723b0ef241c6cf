// SDLVideoSink with SDL's offscreen driver: real AVFrame-backed frames go through SDL's textures and
// renderer, and we check what the renderer read back (the probe) and what `screenshot` encodes.
// The test's own thread plays the engine's presenter thread. SDL is process-global: see SDLTestLock.

import CSDL2
import Foundation
import Logging
import Media
import Playback
import TestSupport
import Testing

@testable import VideoSDL

/// Collects what the sink's probe reports. Written on the presenter thread, read by the test.
/// (Also used by SDLRotationTests.)
final class PictureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var pictures: [PresentedPicture] = []

    func append(_ picture: PresentedPicture) { lock.withLock { pictures.append(picture) } }
    var all: [PresentedPicture] { lock.withLock { pictures } }
    var last: PresentedPicture? { lock.withLock { pictures.last } }
}

/// A mid-range colour that clips in no channel: BT.601 limited gives about (172, 106, 65).
private let testYUV: (y: UInt8, u: UInt8, v: UInt8) = (120, 100, 160)
private let expectedRGB = VideoFrame.bt601LimitedToRGB(y: testYUV.y, u: testYUV.u, v: testYUV.v)

private func solid(_ width: Int, _ height: Int, _ layout: PixelLayout = .yuv420p) throws -> VideoFrame {
    try #require(
        VideoFrame.solid(width: width, height: height, y: testYUV.y, u: testYUV.u, v: testYUV.v, layout: layout))
}

/// Opens an offscreen sink on this thread, runs `body`, closes it: all under the process-wide SDL lock.
/// `renderer` nil is the sink's own choice (software here: Mesa's OpenGL is llvmpipe); "opengl" forces OpenGL
/// where SDL can make a context (SDL falls back to another renderer where it cannot).
private func withOffscreenSink<T>(
    driver: String = "offscreen", renderer: String? = nil, width: Int = 640, height: Int = 360,
    fit: VideoFit = .fit, _ body: (SDLVideoSink, PictureLog) throws -> T
) throws -> T {
    try SDLTestLock.run {
        let log = PictureLog()
        let config = SDLVideoConfig(
            driver: driver, renderDriver: renderer, width: width, height: height, fit: fit, vsync: false,
            probe: { log.append($0) })
        let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
        try sink.open()
        defer { sink.close() }
        return try body(sink, log)
    }
}

func isClose(
    _ actual: (r: UInt8, g: UInt8, b: UInt8), _ expected: (UInt8, UInt8, UInt8), within: Int = 3
)
    -> Bool
{
    abs(Int(actual.r) - Int(expected.0)) <= within && abs(Int(actual.g) - Int(expected.1)) <= within
        && abs(Int(actual.b) - Int(expected.2)) <= within
}

func isBlack(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
    pixel.r <= 2 && pixel.g <= 2 && pixel.b <= 2
}

/// Every `step`-th pixel of the picture, both ways, plus the last row and column.
private func samples(_ picture: PresentedPicture, step: Int = 7) -> [(x: Int, y: Int)] {
    let xs = Array(stride(from: 0, to: picture.width, by: step)) + [picture.width - 1]
    let ys = Array(stride(from: 0, to: picture.height, by: step)) + [picture.height - 1]
    return ys.flatMap { y in xs.map { (x: $0, y: y) } }
}

@Suite("SDLVideoSink (offscreen)", .serialized)
struct SDLVideoSinkTests {
    @Test(
        "each pixel layout shows the frame's colour", arguments: [PixelLayout.yuv420p, .nv12, .rgba],
        [String?.none, "software", "opengl"])
    func colours(layout: PixelLayout, renderer: String?) throws {
        try withOffscreenSink(renderer: renderer, width: 320, height: 240) { sink, log in
            sink.show(try solid(160, 120, layout))
            let picture = try #require(log.last)
            #expect(picture.width == 320 && picture.height == 240)
            #expect(picture.rgba.count == 320 * 240 * 4)
            for point in [(160, 120), (5, 5), (314, 234)] {
                let pixel = picture.rgb(x: point.0, y: point.1)
                #expect(isClose(pixel, expectedRGB), "\(layout) at \(point): \(pixel), want \(expectedRGB)")
            }
        }
    }

    @Test(
        "the software renderer scales a picture bigger than its window once, to the size it is drawn",
        arguments: [PixelLayout.yuv420p, .nv12, .rgba], [0, 1])
    func prescaledPictures(layout: PixelLayout, quarterTurns: Int) throws {
        // 1280x720 into 320x240: drawn 320x180 between bars (upright), or 135x240 turned a quarter.
        let marker: (y: UInt8, u: UInt8, v: UInt8) = (200, 128, 128)  // light grey in the top-left quarter
        try withOffscreenSink(renderer: "software", width: 320, height: 240) { sink, log in
            let frame = try #require(
                VideoFrame.solid(
                    width: 1280, height: 720, y: testYUV.y, u: testYUV.u, v: testYUV.v, layout: layout,
                    topLeftQuarter: marker, orientation: PictureOrientation(quarterTurns: quarterTurns)))
            let turned = quarterTurns == 1
            // Upright: the marker at the top left, bars above y 30 and below 210. Turned clockwise: the
            // picture's top left is at the top right, bars left of x 92 and right of 228.
            let inMarker = turned ? (220, 30) : (40, 60)
            let inColour = turned ? (110, 200) : (260, 180)
            let inBar = turned ? (40, 120) : (160, 10)
            // First as SDL draws it by itself (its own conversion of the whole picture, then stretched): the
            // colours the scaled picture must show too (BT.709 at 720 lines, as SDL's automatic mode).
            let scaler = sink.prescaler
            sink.prescaler = nil
            sink.show(frame)
            let bySDL = try #require(log.last)
            #expect(sink.textureShape == TextureShape(width: 1280, height: 720, layout: layout))
            sink.prescaler = scaler
            sink.show(frame)
            // Scaled to where it is drawn before the turn: 240x135, turned to stand 135x240.
            let drawn = turned ? (240, 135) : (320, 180)
            #expect(sink.textureShape == TextureShape(width: drawn.0, height: drawn.1, layout: .rgba, prescaled: true))
            let picture = try #require(log.last)
            for point in [inMarker, inColour] {
                let sdl = bySDL.rgb(x: point.0, y: point.1)
                #expect(isClose(picture.rgb(x: point.0, y: point.1), (sdl.r, sdl.g, sdl.b), within: 4), "at \(point)")
            }
            #expect(!isClose(picture.rgb(x: inMarker.0, y: inMarker.1), (bySDL.rgb(x: inColour.0, y: inColour.1).r,
                bySDL.rgb(x: inColour.0, y: inColour.1).g, bySDL.rgb(x: inColour.0, y: inColour.1).b), within: 20),
                "the marked quarter is where it should be")
            #expect(isBlack(picture.rgb(x: inBar.0, y: inBar.1)))
            // A redraw (an overlay's second, a resize) reuses the scaled texture, and so does the same pixels
            // shown again at a later time (a web page that did not change); a new picture is scaled again.
            #expect(sink.scaledPictures == 1)
            sink.drawAndPresent()
            #expect(sink.scaledPictures == 1)
            sink.show(try #require(frame.restamped(pts: 1, duration: 0.25)))
            #expect(sink.scaledPictures == 1)
            let next = try #require(
                VideoFrame.solid(
                    width: 1280, height: 720, y: testYUV.y, u: testYUV.u, v: testYUV.v, layout: layout,
                    topLeftQuarter: marker, orientation: PictureOrientation(quarterTurns: quarterTurns)))
            sink.show(next)
            #expect(sink.scaledPictures == 2)
        }
    }

    @Test("size and layout changes recreate the texture")
    func textureChanges() throws {
        try withOffscreenSink(width: 320, height: 240, fit: .stretch) { sink, log in
            let frames = [
                try solid(64, 48), try solid(64, 48, .nv12), try solid(100, 50, .nv12), try solid(33, 17, .rgba),
                try solid(31, 15),
            ]
            for frame in frames { sink.show(frame) }
            let pictures = log.all
            #expect(pictures.count == frames.count)
            for (index, picture) in pictures.enumerated() {
                #expect(isClose(picture.rgb(x: 160, y: 120), expectedRGB), "frame \(index)")
            }
        }
    }

    @Test(
        "fit letterboxes a 4:3 picture in a 16:9 window with black bars",
        arguments: [String?.none, "software", "opengl"])
    func fitBars(renderer: String?) throws {
        try withOffscreenSink(renderer: renderer, fit: .fit) { sink, log in
            sink.show(try solid(320, 240))
            let picture = try #require(log.last)
            // 640x360 output: the picture is 480x360 at x = 80, bars are x < 80 and x >= 560.
            for point in samples(picture) {
                let pixel = picture.rgb(x: point.x, y: point.y)
                if point.x < 79 || point.x > 560 {
                    #expect(isBlack(pixel), "bar pixel \(point) is \(pixel)")
                } else if point.x > 81 && point.x < 558 {
                    #expect(isClose(pixel, expectedRGB), "picture pixel \(point) is \(pixel)")
                }
            }
        }
    }

    @Test(
        "fill and stretch leave no black", arguments: [VideoFit.fill, .stretch], [String?.none, "software", "opengl"])
    func noBlack(fit: VideoFit, renderer: String?) throws {
        try withOffscreenSink(renderer: renderer, fit: fit) { sink, log in
            sink.show(try solid(320, 240))
            let picture = try #require(log.last)
            let off = samples(picture).filter { !isClose(picture.rgb(x: $0.x, y: $0.y), expectedRGB) }
            #expect(off.isEmpty, "\(fit): \(off.count) pixels off colour, first \(String(describing: off.first))")
        }
    }

    @Test("FitLayout geometry")
    func geometry() {
        let fit = FitLayout.compute(fit: .fit, picture: (320, 240), output: (640, 360))
        #expect(fit?.destination == .init(x: 80, y: 0, width: 480, height: 360))
        let letterbox = FitLayout.compute(fit: .fit, picture: (1920, 800), output: (1280, 720))
        #expect(letterbox?.destination == .init(x: 0, y: 93, width: 1280, height: 533))
        let fill = FitLayout.compute(fit: .fill, picture: (320, 240), output: (640, 360))
        #expect(fill?.source == .init(x: 0, y: 30, width: 320, height: 180))
        #expect(fill?.destination == .init(x: 0, y: 0, width: 640, height: 360))
        let tall = FitLayout.compute(fit: .fill, picture: (1920, 1080), output: (400, 400))
        #expect(tall?.source == .init(x: 420, y: 0, width: 1080, height: 1080))
        let stretch = FitLayout.compute(fit: .stretch, picture: (320, 240), output: (640, 360))
        #expect(stretch?.source == .init(x: 0, y: 0, width: 320, height: 240))
        #expect(FitLayout.compute(fit: .fit, picture: (320, 240), output: (0, 0)) == nil)
    }

    @Test("setFit redraws the last frame at the next pump")
    func setFitRedraws() throws {
        try withOffscreenSink(fit: .fit) { sink, log in
            sink.show(try solid(320, 240))
            #expect(isBlack(try #require(log.last).rgb(x: 10, y: 180)))
            sink.setFit(.stretch)
            sink.pump()
            let picture = try #require(log.last)
            #expect(log.all.count == 2)
            #expect(isClose(picture.rgb(x: 10, y: 180), expectedRGB))
        }
    }

    @Test("showBlack shows black and leaves nothing to screenshot")
    func black() throws {
        try withOffscreenSink { sink, log in
            sink.show(try solid(320, 240))
            sink.showBlack()
            let picture = try #require(log.last)
            #expect(samples(picture).allSatisfy { isBlack(picture.rgb(x: $0.x, y: $0.y)) })
            sink.pump()  // may redraw for the window's first expose: still black
            let redrawn = try #require(log.last)
            #expect(samples(redrawn).allSatisfy { isBlack(redrawn.rgb(x: $0.x, y: $0.y)) })
            #expect(sink.screenshot() == nil)
        }
    }

    @Test("without any GL the dummy driver falls back to the software renderer")
    func dummyDriver() throws {
        try withOffscreenSink(driver: "dummy", width: 320, height: 240) { sink, log in
            sink.show(try solid(160, 120, .nv12))
            #expect(isClose(try #require(log.last).rgb(x: 160, y: 120), expectedRGB))
        }
    }

    @Test("open fails with SDL's reason for an unknown driver")
    func badDriver() {
        SDLTestLock.run {
            let sink = SDLVideoSink(
                config: SDLVideoConfig(driver: "no-such-driver"), logger: Logger(label: "queued.video"))
            let error = #expect(throws: SDLVideoError.self) { try sink.open() }
            #expect(error?.message.contains("no-such-driver") == true, "\(String(describing: error))")
            sink.close()
        }
    }

    @Test("a window resize redraws the last frame at the new size")
    func resizeRedraws() throws {
        try withOffscreenSink(fit: .fit) { sink, log in
            sink.show(try solid(320, 240))
            sink.pump()
            SDL_SetWindowSize(sink.window, 300, 400)
            sink.pump()
            let picture = try #require(log.last)
            #expect(picture.width == 300 && picture.height == 400)
            // 300x400 output: the picture is 300x225 at y = 87, bars above and below.
            #expect(isBlack(picture.rgb(x: 150, y: 40)) && isBlack(picture.rgb(x: 150, y: 360)))
            #expect(isClose(picture.rgb(x: 150, y: 200), expectedRGB))
        }
    }

    // Software renderer only: the offscreen driver's GL surface keeps its first size, so with OpenGL the
    // output size SDL reports after going fullscreen is not what GL draws into. Like X11 without a window
    // manager (Xvfb), the offscreen driver also keeps the fullscreen size after leaving fullscreen.
    @Test("fullscreen redraws the picture at the screen's size")
    func fullscreen() throws {
        try withOffscreenSink(renderer: "software", fit: .stretch) { sink, log in
            sink.show(try solid(320, 240))
            sink.setFullscreen(true)
            sink.pump()
            let full = try #require(log.last)
            #expect(log.all.count == 2)
            #expect(full.width != 640 || full.height != 360)
            let center = full.rgb(x: full.width / 2, y: full.height / 2)
            #expect(isClose(center, expectedRGB), "\(full.width)x\(full.height)")
            #expect(isClose(full.rgb(x: full.width - 2, y: full.height - 2), expectedRGB))
            sink.setFullscreen(false)
            sink.pump()
            let windowed = try #require(log.last)
            #expect(isClose(windowed.rgb(x: windowed.width / 2, y: windowed.height / 2), expectedRGB))
        }
    }

    @Test("closing the window sets quitRequested")
    func quit() throws {
        try withOffscreenSink { sink, _ in
            sink.pump()
            #expect(!sink.quitRequested)
            var event = SDL_Event()
            event.type = SDL_QUIT.rawValue
            #expect(SDL_PushEvent(&event) == 1)
            sink.pump()
            #expect(sink.quitRequested)
        }
    }

    @Test("probe timestamps increase")
    func timestamps() throws {
        try withOffscreenSink { sink, log in
            let frame = try solid(64, 36)
            for _ in 0..<10 { sink.show(frame) }
            let times = log.all.map(\.presentedAtNanos)
            #expect(times.count == 10)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("screenshot from another thread while the sink thread pumps")
    func screenshotFromAnotherThread() throws {
        try withOffscreenSink { sink, _ in
            #expect(sink.screenshot() == nil)  // nothing shown yet
            sink.show(try solid(320, 240, .nv12))
            let result = ScreenshotResult()
            let requester = Thread { result.set(sink.screenshot()) }
            requester.start()
            let deadline = Date(timeIntervalSinceNow: 3)
            while !result.isDone && Date() < deadline {
                sink.pump()
                usleep(2_000)
            }
            let png = try #require(result.value ?? nil)
            try expectPNG(png, width: 640, height: 360)
            // On the sink thread it reads back directly.
            try expectPNG(try #require(sink.screenshot()), width: 640, height: 360)
        }
    }

    @Test("a screenshot scaled to a thumbnail, as PNG and as JPEG, shows the picture's colour")
    func thumbnails() throws {
        try withOffscreenSink { sink, _ in
            sink.show(try solid(320, 240))
            let png = try #require(sink.screenshot(ScreenshotRequest(format: .png, maxWidth: 160)))
            #expect(png.width == 160 && png.height == 90 && png.format == .png)
            try expectPNG(png.bytes, width: 160, height: 90)
            let pixels = try PNGPixels.decode(png.bytes)
            let centre = (45 * 160 + 80) * 4
            #expect(abs(Int(pixels.rgba[centre]) - Int(expectedRGB.0)) <= 3, "\(pixels.rgba[centre..<centre + 3])")

            let jpeg = try #require(sink.screenshot(ScreenshotRequest(format: .jpeg, maxWidth: 160)))
            #expect(jpeg.width == 160 && jpeg.height == 90)
            #expect(Array(jpeg.bytes.prefix(2)) == [0xFF, 0xD8] && Array(jpeg.bytes.suffix(2)) == [0xFF, 0xD9])
            let directory = try TemporaryDirectory(prefix: "queued-jpeg")
            try Data(jpeg.bytes).write(to: URL(fileURLWithPath: directory.path + "/shot.jpg"))
            let decoded = try ChildProcess.runCapturingData(
                "ffmpeg", ["-v", "error", "-i", directory.path + "/shot.jpg", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
            let rgb = [UInt8](decoded.stdout)
            try #require(rgb.count == 160 * 90 * 3)
            let middle = (45 * 160 + 80) * 3
            for (channel, expected) in [expectedRGB.0, expectedRGB.1, expectedRGB.2].enumerated() {
                #expect(abs(Int(rgb[middle + channel]) - Int(expected)) <= 8, "JPEG channel \(channel): \(rgb[middle + channel]) vs \(expected)")
            }
        }
    }

    @Test("screenshot is answered by the next show too")
    func screenshotDuringShow() throws {
        try withOffscreenSink { sink, _ in
            let frame = try solid(320, 240)
            sink.show(frame)
            let result = ScreenshotResult()
            Thread { result.set(sink.screenshot()) }.start()
            let deadline = Date(timeIntervalSinceNow: 3)
            while !result.isDone && Date() < deadline {
                sink.show(frame)
                usleep(2_000)
            }
            try expectPNG(try #require(result.value ?? nil), width: 640, height: 360)
        }
    }

    @Test("screenshot gives up after 2 s when the sink thread does not pump")
    func screenshotTimeout() throws {
        try withOffscreenSink { sink, _ in
            sink.show(try solid(320, 240))
            let result = ScreenshotResult()
            let started = Date()
            Thread { result.set(sink.screenshot()) }.start()
            while !result.isDone && Date().timeIntervalSince(started) < 5 { usleep(10_000) }
            let waited = Date().timeIntervalSince(started)
            #expect(result.isDone && (result.value ?? nil) == nil)
            #expect(waited > 1.9 && waited < 3, "waited \(waited) s")
            #expect(!sink.mailbox.hasPending)  // the timed-out request withdrew itself
        }
    }

    @Test("PNGEncoder writes a PNG with the right header and rejects bad input")
    func pngEncoder() throws {
        let rgba = (0..<(7 * 5)).flatMap { index -> [UInt8] in [UInt8(index), 100, 200, 255] }
        try expectPNG(try PNGEncoder.encode(rgba: rgba, width: 7, height: 5), width: 7, height: 5)
        #expect(throws: MediaError.self) { try PNGEncoder.encode(rgba: rgba, width: 8, height: 5) }
        #expect(throws: MediaError.self) { try PNGEncoder.encode(rgba: [], width: 0, height: 0) }
    }
}

/// The PNG signature, then an IHDR chunk first with the expected size, 8-bit RGBA.
private func expectPNG(_ png: [UInt8], width: Int, height: Int) throws {
    try #require(png.count > 33)
    #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(Array(png[12..<16]) == Array("IHDR".utf8))
    func bigEndian(_ offset: Int) -> Int { png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
    #expect(bigEndian(16) == width)
    #expect(bigEndian(20) == height)
    #expect(png[24] == 8 && png[25] == 6)  // bit depth 8, colour type RGBA
    #expect(Array(png.suffix(8).prefix(4)) == Array("IEND".utf8))
}

/// A screenshot result handed from the requesting thread to the test.
private final class ScreenshotResult: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var png: [UInt8]?

    func set(_ value: [UInt8]?) { lock.withLock { (done, png) = (true, value) } }
    var isDone: Bool { lock.withLock { done } }
    var value: [UInt8]?? { lock.withLock { done ? .some(png) : .none } }
}
