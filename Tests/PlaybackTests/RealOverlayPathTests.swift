// Overlays on the real path (PulseAudio clock, SDL offscreen, every picture read back): a layer tied to an
// item is on exactly that item's pictures, from its first to its last; and the gapless joins hold with a
// clock, a ticker and a logo drawn on every picture.

import AudioPulse
import Foundation
import Logging
import Overlays
import Playback
import QueueModel
import TestSupport
import Testing
import VideoSDL

/// Per presented picture: its stamp (clip and frame) and whether the white marker box is in the bottom-left
/// corner.
private final class MarkedPictureLog: @unchecked Sendable {
    struct Entry {
        let frame: Int
        let hue: VideoHue
        let marked: Bool
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func record(_ picture: PresentedPicture) {
        let stamp = VideoFrameStamp.read(width: picture.width, height: picture.height) { x, y in
            let pixel = picture.rgb(x: x, y: y)
            return (Int(pixel.r), Int(pixel.g), Int(pixel.b))
        }
        let corner = picture.rgb(x: 3, y: picture.height - 4)
        let marked = corner.r > 240 && corner.g > 240 && corner.b > 240
        lock.withLock { entries.append(Entry(frame: stamp.frame, hue: stamp.hue, marked: marked)) }
    }

    var all: [Entry] { lock.withLock { entries } }
}

extension RealPathTests {
    @Test func anItemsOverlayIsOnExactlyItsPictures() throws {
        let red = try Fixtures.video(seconds: 1, fps: 25, hue: .red, withAudio: .aacMP4)
        let blue = try Fixtures.video(seconds: 1, fps: 25, hue: .blue, withAudio: .aacMP4, audioFrequency: 660)
        let log = MarkedPictureLog()
        try SDLTestLock.run {
            let pulse = try PrivatePulseServer()
            defer { pulse.stop() }
            let sink = try PulseAudioSink(config: PulseConfig(server: pulse.server), logger: Logger(label: "test.pulse"))
            let video = offscreenVideo { log.record($0) }
            let (engine, events) = try makeEngine(audio: sink, video: video, untimed: false) { $0.trackEnd = .shortest }
            let ids = try engine.add([MediaItem(uri: red), MediaItem(uri: blue), MediaItem(uri: red)])
            let blueID = ids[1]
            // A white box in the bottom-left corner (away from the stamp's sample points), only while blue plays.
            _ = try engine.addOverlay(
                Overlay(
                    content: .text("{title}"), style: OverlayStyle(size: 12, background: .white, padding: 6),
                    anchor: .bottomLeft, scope: .item(blueID.rawValue)))
            try engine.play()
            let done = events.waitUntilDone(timeout: 60)
            engine.shutdown()
            #expect(done, "playback did not finish")
        }
        let pictures = log.all
        let blues = pictures.filter { $0.hue == .blue }
        #expect(blues.map(\.frame) == Array(0..<25), "every blue picture shown once: \(blues.map(\.frame))")
        let unmarked = blues.filter { !$0.marked }.map(\.frame)
        #expect(unmarked.isEmpty, "blue pictures without the overlay: \(blues.filter { !$0.marked }.map(\.frame))")
        #expect(blues.first?.marked == true && blues.last?.marked == true, "the first and the last blue picture have it")
        let others = pictures.filter { $0.hue != .blue }
        #expect(others.count >= 50)
        let marked = others.filter { $0.marked }.count
        #expect(marked == 0, "pictures of other items with the overlay: \(others.filter(\.marked).map { "\($0.hue)#\($0.frame)" })")
    }
}
