// Pictures shown as their files say, through SDL's offscreen driver at 640x360: a phone clip's display
// matrix (turn 90/180/270 to view), a JPEG's EXIF orientation 1–8 (the mirrored ones too), anamorphic PAL
// clips at their display aspect, and a stream whose pixel aspect changes mid-stream. Each file is decoded
// by MediaReader (made by ffmpeg, the matrix and EXIF written by the fixture code); the read-back puts the
// file's marked top-left quarter where a viewer expects it and the picture at its display size; with the
// panel turned too (`--rotate`), the two turns add up; the screenshot equals the read-back.

import Foundation
import Logging
import Media
import Playback
import TestSupport
import Testing

@testable import VideoSDL

@Suite("Pictures as their files say (SDL offscreen)", .serialized)
struct PictureOrientationTests {
    /// Where the picture's top-left quarter is seen after `orientation` (mirror, then clockwise turns), as
    /// (column, row) of the picture's quadrants.
    static func markedQuadrant(_ orientation: PictureOrientation) -> (column: Int, row: Int) {
        var (column, row) = (0, 0)
        if orientation.mirrored { column = 1 - column }
        for _ in 0..<orientation.quarterTurns { (column, row) = (1 - row, column) }
        return (column, row)
    }

    /// The first picture of `path`, shown at 640x360 with `fit` and the panel's `rotation`.
    func show(
        _ path: String, fit: VideoFit = .fit, rotation: VideoRotation = .upright, frameIndex: Int = 0,
        options: MediaReaderOptions = MediaReaderOptions()
    ) throws -> (picture: PresentedPicture, frame: VideoFrame, screenshotMatches: Bool) {
        try SDLTestLock.run {
            let reader = try MediaReader(path: path, options: options)
            var frame = try #require(try reader.readVideo())
            for _ in 0..<frameIndex { frame = try #require(try reader.readVideo()) }
            let log = PictureLog()
            let config = SDLVideoConfig(
                driver: "offscreen", width: 640, height: 360, fit: fit, rotation: rotation, vsync: false,
                probe: { log.append($0) })
            let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
            try sink.open()
            defer { sink.close() }
            sink.show(frame)
            let picture = try #require(log.last)
            let decoded = try PNGPixels.decode(try #require(sink.screenshot()))
            return (picture, frame, decoded.rgba == picture.rgba)
        }
    }

    /// The non-black extent of the middle row and column: where the picture lies in the window.
    static func extent(_ picture: PresentedPicture) -> (x: Int, width: Int, y: Int, height: Int) {
        let columns = (0..<picture.width).filter { !isBlack(picture.rgb(x: $0, y: picture.height / 2)) }
        let rows = (0..<picture.height).filter { !isBlack(picture.rgb(x: picture.width / 2, y: $0)) }
        let x = columns.first ?? 0, y = rows.first ?? 0
        return (x, (columns.last ?? -1) - x + 1, y, (rows.last ?? -1) - y + 1)
    }

    /// Where a picture seen at `seen` size lands in the 640x360 window under `fit`.
    static func fitted(_ seen: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let scale = min(640 / Double(seen.width), 360 / Double(seen.height))
        return (Int((Double(seen.width) * scale).rounded()), Int((Double(seen.height) * scale).rounded()))
    }

    func isMarked(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { pixel.r > 170 && pixel.g < 90 }
    func isBackground(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        abs(Int(pixel.r) - 128) < 24 && abs(Int(pixel.g) - 128) < 24 && abs(Int(pixel.b) - 128) < 24
    }

    /// The marked quadrant is where `orientation` puts it, and the picture fills `seen` fitted.
    func check(
        _ shown: (picture: PresentedPicture, frame: VideoFrame, screenshotMatches: Bool),
        orientation: PictureOrientation, seen: (width: Int, height: Int), label: String
    ) {
        let picture = shown.picture
        let area = Self.extent(picture)
        let want = Self.fitted(seen)
        #expect(
            abs(area.width - want.width) <= 2 && abs(area.height - want.height) <= 2,
            "\(label): shown \(area.width)x\(area.height), want \(want.width)x\(want.height)")
        let expected = Self.markedQuadrant(orientation)
        for column in 0...1 {
            for row in 0...1 {
                let x = area.x + area.width * (2 * column + 1) / 4
                let y = area.y + area.height * (2 * row + 1) / 4
                let pixel = picture.rgb(x: x, y: y)
                let marked = (column, row) == expected
                #expect(
                    marked ? isMarked(pixel) : isBackground(pixel),
                    "\(label): quadrant (\(column), \(row)) is \(pixel), want \(marked ? "the marked corner" : "grey")")
            }
        }
        #expect(shown.screenshotMatches, "\(label): the screenshot differs from the read-back")
    }

    @Test("a phone clip's display matrix", arguments: [0, 90, 180, 270])
    func turnedClip(clockwise: Int) throws {
        let shown = try show(try Fixtures.turnedClip(clockwise: clockwise))
        let orientation = PictureOrientation(quarterTurns: clockwise / 90)
        #expect(shown.frame.orientation == orientation)
        #expect(shown.frame.displaySize == (orientation.swapsSides ? (180, 320) : (320, 180)))
        check(shown, orientation: orientation, seen: shown.frame.displaySize, label: "turn \(clockwise)")
    }

    @Test("a photo's EXIF orientation", arguments: 1...8)
    func orientedPhoto(exif: Int) throws {
        let shown = try show(try Fixtures.orientedJPEG(exif: exif))
        let orientation = try #require(PictureOrientation(exif: exif))
        #expect(shown.frame.orientation == orientation)
        check(shown, orientation: orientation, seen: shown.frame.displaySize, label: "EXIF \(exif)")
    }

    /// A camera's photo on a small screen is decoded for the screen (the JPEG decoder's reduced decode,
    /// then scaled): a fraction of its pixels in memory, still turned as its EXIF says, still reported at
    /// its own size, and filling the window exactly as the full-size picture would.
    @Test("a big photo decoded for the screen", arguments: [1, 6])
    func bigPhotoDecodedForTheScreen(exif: Int) throws {
        let path = try Fixtures.orientedJPEG(exif: exif, width: 4000, height: 3000)
        var options = MediaReaderOptions()
        options.stillOutput = PixelSize(width: 640, height: 360)
        let shown = try show(path, options: options)
        let orientation = try #require(PictureOrientation(exif: exif))
        // The shorter side brought down to the output's longer side (640), no further.
        #expect(min(shown.frame.width, shown.frame.height) == 640 && max(shown.frame.width, shown.frame.height) <= 854)
        #expect(shown.frame.fileSize == PixelSize(width: 4000, height: 3000))
        let seen = orientation.swapsSides ? (3000, 4000) : (4000, 3000)
        #expect(shown.frame.displaySize == seen)
        check(shown, orientation: orientation, seen: seen, label: "4000x3000 EXIF \(exif) for 640x360")
        // Without a screen to fit, the whole picture comes out.
        let full = try #require(try MediaReader(path: path).readVideo())
        #expect(full.width == 4000 && full.height == 3000)
    }

    @Test("the file's turn and the panel's add up", arguments: VideoRotation.allCases, [VideoFit.fit, .fill, .stretch])
    func fileAndPanelTurns(panel: VideoRotation, fit: VideoFit) throws {
        // EXIF 7: mirrored and turned a quarter; the panel turns it further.
        let shown = try show(try Fixtures.orientedJPEG(exif: 7), fit: fit, rotation: panel)
        let orientation = try #require(PictureOrientation(exif: 7)).turned(by: panel.rawValue / 90)
        let seen = orientation.swapsSides ? (180, 320) : (320, 180)
        if fit == .fit {
            check(shown, orientation: orientation, seen: seen, label: "EXIF 7 on a panel at \(panel.rawValue)")
        } else {
            // `fill` and `stretch` cover the window; the marked quadrant is still the expected one.
            let expected = Self.markedQuadrant(orientation)
            let x = 640 * (2 * expected.column + 1) / 4, y = 360 * (2 * expected.row + 1) / 4
            #expect(isMarked(shown.picture.rgb(x: x, y: y)), "fill, panel \(panel.rawValue): \(shown.picture.rgb(x: x, y: y))")
            #expect(Self.extent(shown.picture).width == 640 && Self.extent(shown.picture).height == 360)
        }
    }

    @Test("anamorphic PAL at its display aspect", arguments: [(16, 15), (64, 45)])
    func anamorphic(sar: (Int, Int)) throws {
        let shown = try show(try Fixtures.anamorphicClip(sar: sar))
        #expect(abs(shown.frame.sampleAspect - Double(sar.0) / Double(sar.1)) < 1e-9)
        // 16:15 → 768x576 (4:3), pillarboxed to 480x360; 64:45 → 1024x576 (16:9), the whole window.
        let seen = sar == (16, 15) ? (768, 576) : (1024, 576)
        #expect(shown.frame.displaySize == seen)
        check(shown, orientation: .upright, seen: seen, label: "SAR \(sar.0):\(sar.1)")
    }

    @Test("a pixel aspect that changes mid-stream")
    func aspectChange() throws {
        let path = try Fixtures.aspectChangingClip()
        let before = try show(path, frameIndex: 0)
        let after = try show(path, frameIndex: 30)
        #expect(before.frame.sampleAspect == 1 && after.frame.sampleAspect == 64.0 / 45.0)
        check(before, orientation: .upright, seen: (720, 576), label: "square pixels (5:4)")
        check(after, orientation: .upright, seen: (1024, 576), label: "then 64:45 (16:9)")
    }
}
