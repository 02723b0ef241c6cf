// A/V sync in real time on the real outputs: for 60 s (a 1 s A/V clip looped 60 times), every picture's
// moment on screen is compared with the PulseAudio clock (latency-corrected: what the listener hears at
// that instant). The offset must stay within ±20 ms.
import AudioPulse
import Foundation
import Logging
import Playback
import QueueModel
import Testing
import TestSupport
import VideoSDL

final class OffsetLog: @unchecked Sendable {
    private let lock = NSLock()
    private var offsets: [Double] = []
    func add(_ offset: Double) { lock.withLock { offsets.append(offset) } }
    var all: [Double] { lock.withLock { offsets } }
}

extension RealPathTests {
    @Test func sixtySecondsKeepAudioAndVideoWithinTwentyMilliseconds() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .yellow, withAudio: .aacMP4)
        try SDLTestLock.run {
            let pulse = try PrivatePulseServer()
            defer { pulse.stop() }
            let sink = try PulseAudioSink(config: PulseConfig(server: pulse.server), logger: Logger(label: "test.pulse"))
            var config = SDLVideoConfig()
            config.driver = "offscreen"
            config.width = 320
            config.height = 240
            config.vsync = false
            let video = SDLVideoSink(config: config, logger: Logger(label: "test.sdl"))
            let offsets = OffsetLog()
            let rate = Double(sink.format.sampleRate)
            let (engine, events) = try makeEngine(audio: sink, video: video, untimed: false) {
                $0.shortestTrack = true
                $0.onFramePresented = { frame in
                    // Called right after the picture was presented: where is the listener now?
                    offsets.add(Double(sink.playedFrames()) / rate - frame.timeline)
                }
            }
            try engine.add([MediaItem(uri: clip, loops: 60)])
            try engine.play()
            let done = events.waitUntilDone(timeout: 120)
            let dropped = engine.droppedFrames()
            engine.shutdown()
            #expect(done)
            let all = offsets.all
            let sorted = all.sorted()
            let worst = all.map(abs).max() ?? .infinity
            print(String(format: "60 s A/V sync: %d pictures, offset min %.1f ms, median %.1f ms, max %.1f ms, dropped %d",
                         all.count, (sorted.first ?? 0) * 1000, sorted[sorted.count / 2] * 1000, (sorted.last ?? 0) * 1000, dropped))
            #expect(all.count >= 60 * 25 - 5)
            #expect(worst <= 0.020, "A/V offset reached \(worst * 1000) ms")
        }
    }
}
