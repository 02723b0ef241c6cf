// The dark read back from SDL's offscreen output: a red clip with a ticking clock overlay, then off — the
// last picture presented is black in every sampled pixel (no overlay over it), nothing more is presented
// while dark (the clock would redraw every second), and on brings the red picture back.

import Foundation
import Logging
import Media
import Overlays
import Playback
import QueueModel
import TestSupport
import Testing
import VideoSDL

@Suite(.serialized) struct ScreenPowerSDLTests {
    @Test func offPresentsOneBlackPictureWithoutOverlaysAndNothingMoreUntilOn() throws {
        let clip = try Fixtures.video(seconds: 20, fps: 25, hue: .red)
        let log = PictureLog()
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            let (engine, _) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.2)), video: video, untimed: false, queueLoops: 0)
            defer { engine.shutdown() }
            _ = try engine.addOverlay(
                Overlay(content: .clock(format: "%H:%M:%S"), style: OverlayStyle(size: 24, background: .white)))
            try engine.add([MediaItem(uri: clip)])
            try engine.play()
            func reddish(_ picture: PresentedPicture?) -> Bool {
                guard let picture else { return false }
                let pixel = picture.rgb(x: picture.width / 2, y: picture.height * 3 / 4)  // the hue half
                return pixel.r > 200 && pixel.g < 120 && pixel.b < 120  // about (246, 83, 74)
            }
            #expect(waitUntil(timeout: 10) { reddish(log.last) }, "\(log.last.map { ($0.width, $0.height, $0.rgb(x: $0.width / 2, y: $0.height * 3 / 4)) } as Any) \(log.all.count)")
            engine.setScreenPower(.off)
            #expect(
                waitUntil(timeout: 5) {
                    guard let picture = log.last else { return false }
                    return stride(from: 0, to: picture.rgba.count, by: 4 * 13).allSatisfy {
                        picture.rgba[$0] <= 2 && picture.rgba[$0 + 1] <= 2 && picture.rgba[$0 + 2] <= 2
                    }
                })
            let presented = log.all.count
            #expect(!waitUntil(timeout: 1.5) { log.all.count != presented }, "pictures presented in the dark")
            engine.setScreenPower(.on)
            #expect(waitUntil(timeout: 5) { reddish(log.last) })
        }
    }
}
