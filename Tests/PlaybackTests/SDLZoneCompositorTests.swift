// The compositor with SDL's offscreen driver: a layout's zones drawn in their rectangles of one window,
// the main zone's pictures shown by this thread (the presenter's) and another zone's posted from another
// thread through its ZoneSurface, as a zone's own engine does. Pixels are read back with the probe.

import Foundation
import Logging
import Media
import Playback
import QueueModel
import ScreenLayout
import TestSupport
import Testing

@testable import VideoSDL

@Suite("Zones drawn by one compositor (SDL offscreen)", .serialized)
struct SDLZoneCompositorTests {
    private func picture(_ hue: VideoHue, width: Int = 320, height: Int = 180) throws -> VideoFrame {
        try #require(
            VideoFrame.solid(
                width: width, height: height, y: UInt8(VideoFrameStamp.bottomLuma), u: UInt8(hue.chroma.cb),
                v: UInt8(hue.chroma.cr)))
    }

    /// An L-bar on 640×360: main video at the left (75 % × 80 %), a column of stills at the right, a
    /// ticker band along the bottom with its own background colour and no picture.
    private let lBar = Layout(zones: [
        Zone(name: "main", rect: ZoneRect(x: .share(0), y: .share(0), width: .share(0.75), height: .share(0.8)), audio: true),
        Zone(name: "side", rect: ZoneRect(x: .share(0.75), y: .share(0), width: .share(0.25), height: .share(0.8)), fit: .fill, content: .stills),
        Zone(name: "ticker", rect: ZoneRect(x: .share(0), y: .share(0.8), width: .share(1), height: .share(0.2)), background: 0x2040C0, content: .text),
    ])

    private func hue(_ picture: PresentedPicture, _ x: Int, _ y: Int) -> VideoHue? {
        let rgb = picture.rgb(x: x, y: y)
        if Int(rgb.r) + Int(rgb.g) + Int(rgb.b) < 30 { return nil }
        return VideoHue.nearest(r: Int(rgb.r), g: Int(rgb.g), b: Int(rgb.b))
    }

    @Test("an L-bar: each zone's picture in its rectangle; a change in one zone leaves the others' pictures as they were")
    func lBarZones() throws {
        try SDLTestLock.run {
            let log = PictureLog()
            let config = SDLVideoConfig(driver: "offscreen", width: 640, height: 360, vsync: false, probe: { log.append($0) })
            let sink = SDLVideoSink(config: config, logger: Logger(label: "queued.video"))
            try sink.open()
            defer { sink.close() }
            let wakes = Counter()
            sink.setZoneWake { wakes.add() }
            sink.setLayout(lBar)
            let side = sink.surface(forZone: "side")
            #expect(side.outputSize == PixelSize(width: 160, height: 288), "the side zone's size: \(String(describing: side.outputSize))")
            sink.show(try picture(.red))
            // The side zone's engine runs on its own thread.
            let sideFrame = try picture(.green, width: 100, height: 100)
            let poster = Thread { side.show(sideFrame) }
            poster.start()
            #expect(waitUntil(timeout: 5) { sink.hasPendingDraw })
            #expect(waitUntil(timeout: 5) { wakes.value >= 1 }, "posting woke the SDL thread's presenter (on a queue of its own)")
            sink.pump()
            #expect(!sink.hasPendingDraw)
            let first = try #require(log.last)
            #expect(hue(first, 240, 144) == .red, "main, at its centre")
            #expect(hue(first, 560, 20) == .green && hue(first, 630, 280) == .green, "side, filled to its corners")
            let band = first.rgb(x: 320, y: 330)
            #expect(abs(Int(band.r) - 0x20) <= 3 && abs(Int(band.g) - 0x40) <= 3 && abs(Int(band.b) - 0xC0) <= 3, "ticker background: \(band)")
            // Letterboxed 16:9 in a 480×288 zone: bars of 9 pixels above and below.
            #expect(hue(first, 240, 3) == nil, "main's bar is black")

            // A new picture in the side zone: main's picture is drawn again, not uploaded or scaled again.
            let mainScaled = sink.main.scaledPictures
            let mainShown = sink.main.shownPictures
            side.show(try picture(.blue, width: 100, height: 100))
            sink.pump()
            let second = try #require(log.last)
            #expect(hue(second, 560, 100) == .blue)
            #expect(hue(second, 240, 144) == .red)
            #expect(sink.main.scaledPictures == mainScaled && sink.main.shownPictures == mainShown)

            // A new layout keeping both zones' names (the side column narrower): both keep their pictures.
            var narrower = lBar
            narrower.zones[0].rect = ZoneRect(x: .share(0), y: .share(0), width: .share(0.8), height: .share(0.8))
            narrower.zones[1].rect = ZoneRect(x: .share(0.8), y: .share(0), width: .share(0.2), height: .share(0.8))
            sink.setLayout(narrower)
            sink.pump()
            let third = try #require(log.last)
            #expect(hue(third, 600, 100) == .blue && hue(third, 250, 144) == .red)
            #expect(hue(third, 500, 144) == .red, "main reaches further right now")

            // The side zone leaves the layout: its picture goes, main stays.
            sink.setLayout(Layout(zones: [lBar.zones[0]]))
            sink.pump()
            let fourth = try #require(log.last)
            #expect(hue(fourth, 600, 100) == nil && hue(fourth, 240, 144) == .red)
            #expect(sink.zonePictures["side"] == nil)
        }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
