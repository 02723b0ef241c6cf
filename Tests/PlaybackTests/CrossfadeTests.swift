// Crossfades: the two plays overlap by the transition's duration. Without threads: the equal-power gains,
// the held samples. Through the engine: a recorded crossfade of two tones has no gap, is exactly the
// overlap shorter than the two, and each tone's own strength follows its half of the curve; a cut after
// it keeps its sample-exact join; the events go started A, started B (at the overlap's start), ended A,
// ended B, also at a loop seam of one item; and SDL's offscreen output, read back, goes from pure red
// through the 50/50 blend to pure blue, every picture on the way a blend of the two (no black), for two
// clips and for two stills (redrawn at the display's rate). The interrupt inside an overlap and the events
// of the overlap are decided without threads too.

import Foundation
import Logging
import Media
import QueueModel
import TestSupport
import Testing
import VideoSDL

@testable import Playback

@Suite(.serialized) struct CrossfadeTests {
    let crossfade = ItemTransition(kind: .crossfade, duration: 1)

    @Test func theGainsKeepThePowerAndTheHoldKeepsTheLastSamples() {
        for index in [0, 10, 50, 99] {
            let gains = CrossfadeMix.gains(at: index, of: 100)
            #expect(abs(gains.leaving * gains.leaving + gains.entering * gains.entering - 1) < 1e-5)
        }
        #expect(CrossfadeMix.gains(at: 0, of: 100).leaving > 0.99 && CrossfadeMix.gains(at: 99, of: 100).entering > 0.99)
        var held = HeldSamples()
        held.append([1, 2, 3][...])
        held.append([4, 5, 6][...])
        #expect(held.take(2) == [1, 2] && held.count == 4)
        #expect(held.take(9) == [3, 4, 5, 6] && held.isEmpty)
        var mix = CrossfadeMix(frames: 2, channels: 2)
        var chunk: [Float] = [0, 0, 0, 0, 0, 0]
        mix.mix([1, 1, 1, 1], into: &chunk)
        #expect(mix.isFinished && chunk[4] == 0 && chunk[0] > chunk[2] && chunk[2] > 0)
    }

    /// Drives the state as the decode thread does a crossfade: A written to 8 s (sample rate 100) and
    /// handed over with its end at 10 s; B opened at 8 s overlapping it by 2 s.
    private func handedOver() throws -> (EngineStateDriver, a: Cursor, b: Cursor) {
        let driver = try EngineStateDriver(items: [
            MediaItem(uri: "/a.wav"), MediaItem(uri: "/b.wav", transition: crossfade),
        ])
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 10))
        #expect(driver.state.crossfadeOut(of: a) == 1)
        driver.hear(100)
        let next = driver.state.playWritten(a, serial: driver.state.serial, endFrame: 1000, failure: nil)
        let b = try #require(next)
        driver.written = 800
        var segment = Segment(
            serial: driver.state.serial, cursor: b.cursor, startFrame: 800, itemOffset: 0, duration: 10,
            showsVideo: false, continuesPlay: false)
        segment.joinsPrevious = true
        segment.overlapFrames = 200
        let accepted = driver.state.playOpened(segment, knownDuration: 10)
        #expect(accepted)
        #expect(driver.state.fadeWindow(for: b.cursor, serial: driver.state.serial) == nil, "no veil in a crossfade")
        return (driver, a, b.cursor)
    }

    @Test func theEnteringPlayStartsInsideTheOverlapAndTheLeavingOneEndsAfterIt() throws {
        let (driver, a, b) = try handedOver()
        #expect(driver.story() == ["flush", "start 1.1"])
        driver.hear(799)
        #expect(driver.story().isEmpty)
        driver.hear(850)
        #expect(driver.story() == ["start 2.1"], "B starts at its first sample, A plays on")
        #expect(driver.state.status(heard: 850).currentID == b.id)
        let overlap = try #require(driver.state.crossfade(at: 9))
        #expect(overlap.leaving == a && overlap.entering == b && abs(overlap.mix - 0.5) < 1e-9)
        driver.hear(1000)
        #expect(driver.story() == ["end 1.1 eof"])
        #expect(driver.state.crossfade(at: 10) == nil)
        // One look past both B's start and A's end still tells them in timeline order.
        let (again, _, _) = try handedOver()
        _ = again.story()
        again.hear(1001)
        #expect(again.story() == ["start 2.1", "end 1.1 eof"])
    }

    @Test func theEnteringPictureGoesUnderTheLeavingOneAndTheMixFollowsTheClock() throws {
        let (driver, a, b) = try handedOver()
        var screen = ScreenShows()
        try driver.queuePictures(a, at: [1])
        guard case .show = driver.present(heard: 100, screen: &screen) else {
            Issue.record("A's picture not shown")
            return
        }
        #expect(screen.mix == nil && screen.leaving == nil)
        try driver.queuePictures(b, at: [8])
        guard case .show(let timed, _) = driver.present(heard: 800, now: 1, screen: &screen) else {
            Issue.record("B's picture not shown")
            return
        }
        // A's picture on screen goes over B's first one, the mix starting at 0.
        #expect(timed.cursor == b && screen.picture?.cursor == b && screen.leaving?.cursor == a && screen.mix == 0)
        #expect(screen.crossfade?.leaving != nil)
        // Halfway, a redraw at the new mix; past the overlap's end, the leaving picture goes.
        guard case .redraw = driver.present(heard: 900, now: 2, screen: &screen) else {
            Issue.record("no redraw halfway")
            return
        }
        #expect(screen.mix == 0.5 && screen.leaving?.cursor == a)
        _ = driver.present(heard: 1000, now: 3, screen: &screen)
        #expect(screen.mix == nil && screen.leaving == nil && screen.crossfade == nil)
    }

    @Test func anInterruptInTheOverlapEndsTheLeavingPlayAndSuspendsTheEnteringOne() throws {
        let (driver, _, b) = try handedOver()
        driver.hear(850)
        #expect(driver.story() == ["flush", "start 1.1", "start 2.1"])
        driver.written = 1000  // B's first 2 s written
        let urgent = driver.interrupt()
        let first = try #require(driver.spliceRequested(unsent: 100))  // the interrupt comes in at 9 s
        #expect(first.id == urgent)
        let back = try #require(driver.finish(first, frames: 50))
        #expect(back.cursor == b && back.continuesPlay)
        driver.hear(920)
        #expect(driver.story() == ["end 1.1 eof", "start !\(urgent).1"], "A ends where the interrupt came in")
        driver.hear(1100)
        #expect(driver.story() == ["end !\(urgent).1 eof"], "B is suspended, not ended")
        #expect(driver.state.status(heard: 1100).currentID == b.id)
    }

    /// Each tone's strength in the 50 ms window starting at `second` (whole cycles of both: orthogonal).
    private func strength(of frequency: Double, in samples: [Float], at second: Double) -> Double {
        let first = Int(second * 48_000)
        var real = 0.0, imaginary = 0.0
        for n in 0..<2_400 {
            let phase = 2 * Double.pi * frequency * Double(first + n) / 48_000
            real += Double(samples[(first + n) * 2]) * cos(phase)
            imaginary += Double(samples[(first + n) * 2]) * sin(phase)
        }
        return 2 * (real * real + imaginary * imaginary).squareRoot() / 2_400
    }

    @Test func twoTonesCrossfadeWithTheEqualPowerCurveAndNoGapThenACutStaysExact() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 2, format: .wav)
        let b = try Fixtures.tone(frequency: 660, seconds: 2, format: .wav)
        let c = try Fixtures.tone(frequency: 880, seconds: 1, format: .wav)
        let audio = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: audio, untimed: true)
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: a), MediaItem(uri: b, transition: crossfade), MediaItem(uri: c)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let samples = audio.capturedSamples()
        #expect(samples.count == 4 * 48_000 * 2, "2 + 2 + 1 s less the 1 s overlap: \(samples.count / 2) frames")
        guard samples.count == 4 * 48_000 * 2 else { return }
        // The overlap is 1...2 s: A at cos, B at sin of (t - 1) × π/2, each measured at its window's centre.
        for start in stride(from: 0.2, through: 2.7, by: 0.25) {
            let x = min(1, max(0, (start + 0.025 - 1)))
            let expectedA = start + 0.05 <= 1 ? 0.5 : start >= 2 ? 0 : 0.5 * cos(x * .pi / 2)
            let expectedB = start + 0.05 <= 1 ? 0 : start >= 2 ? 0.5 : 0.5 * sin(x * .pi / 2)
            let measuredA = strength(of: 440, in: samples, at: start)
            let measuredB = strength(of: 660, in: samples, at: start)
            #expect(abs(measuredA - expectedA) < 0.02 && abs(measuredB - expectedB) < 0.02,
                "at \(start) s: 440 Hz \(measuredA) (\(expectedA)), 660 Hz \(measuredB) (\(expectedB))")
        }
        // No gap: the combined strength never sags (equal power: cos² + sin² = 1).
        for start in stride(from: 0.9, through: 2.05, by: 0.05) {
            let power = pow(strength(of: 440, in: samples, at: start), 2) + pow(strength(of: 660, in: samples, at: start), 2)
            #expect(abs(power.squareRoot() - 0.5) < 0.03, "at \(start) s: \(power.squareRoot())")
        }
        // The cut into C is the gapless join: C's own samples, bit for bit, from 3 s on.
        let alone = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engineC, recorderC) = try makeEngine(audio: alone, untimed: true)
        defer { engineC.shutdown() }
        try engineC.add([MediaItem(uri: c)])
        try engineC.play()
        #expect(recorderC.waitUntilDone(timeout: 30))
        #expect(Array(samples[(3 * 48_000 * 2)...]) == alone.capturedSamples(), "the cut after a crossfade is exact")
        // Started A, started B at the overlap's start (1 s on the timeline), ended A, ended B, C.
        let order = recorder.all.compactMap { event -> String? in
            switch event {
            case .itemStarted(let id, _, _, _, _, _, _, _, _): "started \(id.rawValue)"
            case .itemEnded(let id, _, _, _, _): "ended \(id.rawValue)"
            default: nil
            }
        }
        #expect(order == ["started 1", "started 2", "ended 1", "ended 2", "started 3", "ended 3"], "\(order)")
        #expect(recorder.started.map(\.timeline) == [0, 1, 3])
    }

    @Test func aPlayShorterThanTwoCrossfadesHandsOverOnlyAfterItsOwnMix() throws {
        // A 4 s, B 1 s and C 2 s, 1 s crossfades: B's own crossfade out is half of it (0.5 s), so it comes
        // before A's has been mixed in. A's sound must still be mixed to its end, not cut off.
        let a = try Fixtures.tone(frequency: 440, seconds: 4, format: .wav)
        let b = try Fixtures.tone(frequency: 660, seconds: 1, format: .wav)
        let c = try Fixtures.tone(frequency: 880, seconds: 2, format: .wav)
        let audio = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: audio, untimed: true)
        defer { engine.shutdown() }
        try engine.add([
            MediaItem(uri: a), MediaItem(uri: b, transition: crossfade), MediaItem(uri: c, transition: crossfade),
        ])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let samples = audio.capturedSamples()
        #expect(samples.count == 11 * 24_000 * 2, "4 + 1 + 2 s less 1 s and 0.5 s of overlap: \(samples.count / 2) frames")
        guard samples.count == 11 * 24_000 * 2 else { return }
        // A (from 3 s to 4 s under B) is still there at 3.7 s, at about its cos curve, and gone by 4.05 s.
        #expect(strength(of: 440, in: samples, at: 3.7) > 0.1, "\(strength(of: 440, in: samples, at: 3.7))")
        #expect(strength(of: 440, in: samples, at: 4.05) < 0.02)
        #expect(abs(strength(of: 880, in: samples, at: 4.5) - 0.5) < 0.02, "C alone after the overlaps")
        #expect(recorder.started.map(\.timeline) == [0, 3, 3.5])
        #expect(recorder.ended.map(\.id.rawValue) == [1, 2, 3])
    }

    @Test func aLoopSeamOfOneItemCrossfadesIntoItsNextPlay() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 2, format: .wav)
        let audio = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: audio, untimed: true)
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: a, loops: 3, transition: ItemTransition(kind: .crossfade, duration: 0.5))])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        #expect(audio.capturedSamples().count == 5 * 48_000 * 2, "three plays of 2 s overlapping twice by 0.5 s")
        let order = recorder.all.compactMap { event -> String? in
            switch event {
            case .itemStarted(_, let play, _, _, _, _, _, _, _): "started \(play)"
            case .itemEnded(_, let play, _, _, _): "ended \(play)"
            default: nil
            }
        }
        #expect(order == ["started 1", "started 2", "ended 1", "started 3", "ended 2", "ended 3"], "\(order)")
        #expect(recorder.started.map(\.timeline) == [0, 1.5, 3])
    }

    @Test func onScreenRedBlendsThroughHalfAndHalfIntoBlue() throws {
        let red = try Fixtures.video(seconds: 2, fps: 25, hue: .red)
        let blue = try Fixtures.video(seconds: 2, fps: 25, hue: .blue)
        let log = PictureLog()
        var recorded: EventRecorder?
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            // Room for two pictures a play, and half a second of sound buffered: more pictures lie between
            // what is heard and what is written than one play's share, so a play that took the other's
            // room would leave it without pictures (the blend would jump).
            let (engine, recorder) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.5)), video: video, untimed: false
            ) { $0.pictureQueueBytes = 2 * 320 * 240 * 3 / 2 }
            defer { engine.shutdown() }
            try engine.add([MediaItem(uri: red), MediaItem(uri: blue, transition: crossfade)])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 30))
            recorded = recorder
        }
        expectBlend(log, blended: 30...90)
        let started = recorded?.started.map(\.timeline) ?? []
        #expect(started.count == 2 && abs((started.last ?? 0) - 1) < 0.05, "\(started)")
    }

    /// Checks the pictures presented: pure red, then each one red × (1 - m) + blue × m in all three channels
    /// (m read from red; no black, nothing else), m rising smoothly through the middle, then pure blue;
    /// `blended`: how many presentations lie strictly inside.
    private func expectBlend(_ log: PictureLog, blended range: ClosedRange<Int>) {
        // The hue half of each picture presented, from the first lit one to the last.
        let all = log.all.map { $0.rgb(x: $0.width / 2, y: $0.height * 3 / 4) }
        let lit = all.indices.filter { Int(all[$0].r) + Int(all[$0].b) > 40 }
        let hues = Array(all[(lit.first ?? 0)...(lit.last ?? 0)]).map { (r: Double($0.r), g: Double($0.g), b: Double($0.b)) }
        guard let pureRed = hues.first, let pureBlue = hues.last, hues.count > 20 else {
            Issue.record("\(hues.count) pictures")
            return
        }
        #expect(pureRed.r > 200 && pureRed.b < 120 && pureBlue.b > 200 && pureBlue.r < 120, "\(pureRed) \(pureBlue)")
        var mixes: [Double] = []
        for hue in hues {
            let m = (hue.r - pureRed.r) / (pureBlue.r - pureRed.r)
            let g = pureRed.g * (1 - m) + pureBlue.g * m
            let b = pureRed.b * (1 - m) + pureBlue.b * m
            #expect(abs(hue.g - g) <= 6 && abs(hue.b - b) <= 6, "not a blend: \(hue) at m \(m)")
            mixes.append(m)
        }
        #expect(zip(mixes.dropFirst(), mixes).allSatisfy { $0 >= $1 - 0.03 }, "went back: \(mixes)")
        let steps = zip(mixes.dropFirst(), mixes).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 < 0.15 }, "the blend jumped: \(mixes.map { Int($0 * 100) })")
        let middle = mixes.filter { (0.4...0.6).contains($0) }
        #expect(middle.count >= 3, "the 50/50 blend: \(mixes.map { Int($0 * 100) })")
        let blended = mixes.filter { (0.05...0.95).contains($0) }.count
        #expect(range.contains(blended), "\(blended) blended presentations")
    }

    @Test func twoStillsCrossfadeSmoothlyRedrawnAtDisplayRate() throws {
        func still(_ color: String) throws -> String {
            try Fixtures.make(
                "crossfade-\(color).png", ["-f", "lavfi", "-i", "color=c=\(color):s=320x240:d=1", "-frames:v", "1", "-update", "1"])
        }
        let red = try still("0xF6534A"), blue = try still("0x4E87F6")
        let log = PictureLog()
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            let (engine, recorder) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.2)), video: video, untimed: false)
            defer { engine.shutdown() }
            try engine.add([
                MediaItem(uri: red, duration: 2), MediaItem(uri: blue, duration: 2, transition: crossfade),
            ])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 30))
            // 2 + 2 s less the overlap: the second still starts 1 s in.
            #expect(recorder.started.map(\.timeline) == [0, 1])
        }
        // Two pictures only, so every blended presentation is a redraw: about 60 in the second.
        expectBlend(log, blended: 40...75)
    }
}
