// Stills that move: the glide's curve and limits without threads, and SDL's offscreen output read back —
// a white bar standing in the middle of a blue still moves steadily one way across the screen, redrawn at
// the display's rate, from where the first view puts it to where the last one does.

import Foundation
import Logging
import Media
import QueueModel
import TestSupport
import Testing
import VideoSDL

@testable import Playback

@Suite(.serialized) struct MotionTests {
    @Test func theGlideEasesFromTheFirstFrameToTheLast() throws {
        let motion = ItemMotion(from: .whole, to: MotionFrame(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        #expect(motion.frame(at: 0) == .whole)
        #expect(motion.frame(at: 1) == motion.to)
        #expect(motion.frame(at: 0.5).x == 0.25 && motion.frame(at: 2) == motion.to)
        #expect(motion.frame(at: 0.1).x < 0.05 * 0.5)  // eased: slower than linear at the start
        try ItemMotion.auto.validate()
        #expect(throws: QueueError.self) {
            try ItemMotion(from: .whole, to: MotionFrame(x: 0.6, y: 0, width: 0.5, height: 0.5)).validate()
        }
        #expect(throws: QueueError.self) {
            try ItemMotion(from: MotionFrame(x: 0, y: 0, width: 0.01, height: 1), to: .whole).validate()
        }
    }

    @Test func aBarOnAMovingStillCrossesTheScreenSteadilyOneWay() throws {
        // 320x180: blue, a white bar 8 px wide at the middle.
        let still = try Fixtures.make(
            "motion-bar-320x180.png",
            [
                "-f", "lavfi", "-i", "color=c=blue:s=320x180:r=1:d=1", "-vf",
                "drawbox=x=156:y=0:w=8:h=180:color=white:t=fill", "-frames:v", "1", "-update", "1",
            ])
        let motion = ItemMotion(
            from: MotionFrame(x: 0.1, y: 0.25, width: 0.5, height: 0.5),
            to: MotionFrame(x: 0.4, y: 0.25, width: 0.5, height: 0.5))
        let log = PictureLog()
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            let (engine, recorder) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.2)), video: video, untimed: false)
            defer { engine.shutdown() }
            try engine.add([MediaItem(uri: still, duration: 2, motion: motion)])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 30))
        }
        // The bar's centre on the middle row of each picture presented (nil: no bar, e.g. the black ones).
        let bars: [Double] = log.all.compactMap { picture in
            let row = picture.height / 2
            let white = (0..<picture.width).filter {
                let pixel = picture.rgb(x: $0, y: row)
                return pixel.r > 200 && pixel.g > 200 && pixel.b > 200
            }
            guard let first = white.first, let last = white.last else { return nil }
            return Double(first + last) / 2
        }
        // 2x zoom on a 320x180 picture letterboxed in 320x240: the view's centre goes from 0.35 to 0.65 of
        // the picture, so the bar (at 0.5) goes from x = 256 to x = 64.
        #expect(bars.count > 60, "\(bars.count) pictures with the bar: redrawn at display rate")
        #expect(abs((bars.first ?? 0) - 256) < 6 && abs((bars.last ?? 0) - 64) < 6, "\(bars)")
        let steps = zip(bars.dropFirst(), bars).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 <= 0.5 }, "the bar went back: \(bars)")
        #expect(Set(bars.map { Int($0) }).count > 40, "not a glide: \(Set(bars.map { Int($0) }).count) places")
    }
}
