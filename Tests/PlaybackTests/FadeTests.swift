// Fades and dips between plays. Without threads: the veil's curve, and which joins the state softens (a
// natural join into an item with a fade, a loop seam; never a cut). Through the engine: the sound of two
// tones joined by a fade follows the curve down to silence at the join and up again, sample-exactly and
// with nothing inserted; and SDL's offscreen output, read back, passes from red through black exactly once
// to blue.

import Foundation
import Logging
import Media
import QueueModel
import TestSupport
import Testing
import VideoSDL

@testable import Playback

@Suite(.serialized) struct FadeTests {
    let fade = ItemTransition(kind: .fade, duration: 1)

    @Test func theVeilRampsToTheColourAtTheJoinAndBack() {
        let window = FadeWindow(
            fadeIn: FadeRamp(join: 10, half: 0.5, color: TransitionColor(red: 0, green: 0, blue: 0)),
            fadeOut: FadeRamp(join: 20, half: 1, color: TransitionColor(red: 255, green: 255, blue: 255)))
        #expect(window.veil(at: 10)?.level == 0)
        #expect(window.veil(at: 10.25)?.level == 0.5)
        #expect(window.veil(at: 10.5) == nil)
        #expect(window.veil(at: 15) == nil)
        #expect(window.veil(at: 19.5) == PictureVeil(level: 0.5, color: TransitionColor(red: 255, green: 255, blue: 255)))
        #expect(window.veil(at: 20)?.level == 0)
        #expect(window.touches(19.9...20.1) && !window.touches(12...18))
    }

    @Test func durationsOutsideTheirRangeAreRefused() throws {
        #expect(throws: QueueError.self) { try ItemTransition(kind: .fade, duration: 6).validate() }
        #expect(throws: QueueError.self) { try ItemTransition(kind: .dip, duration: 0.05).validate() }
        try ItemTransition(kind: .fade, duration: 0.1).validate()
        try ItemTransition.cut.validate()
        #expect(ItemTransition(kind: .dip, duration: 1).color == TransitionColor(red: 255, green: 255, blue: 255))
        #expect(TransitionColor(hex: "#0a0B0c")?.hex == "#0a0b0c" && TransitionColor(hex: "#12") == nil)
    }

    @Test func onlyANaturalJoinIsSoftened() throws {
        let driver = try EngineStateDriver(items: [
            MediaItem(uri: "/a.wav"), MediaItem(uri: "/b.wav", transition: fade), MediaItem(uri: "/c.wav"),
        ])
        let ids = driver.ids
        try driver.state.play(id: nil)
        let a = try #require(driver.openRequested(duration: 2))
        // A's fade out follows B's transition: a second before A's predicted end (sample rate 100).
        let aWindow = try #require(driver.state.fadeWindow(for: a, serial: driver.state.serial))
        #expect(aWindow.fadeIn == nil && aWindow.fadeOut?.join == 2 && aWindow.fadeOut?.half == 0.5)
        let b = try #require(driver.write(a, frames: 200))
        #expect(b.id == ids[1])
        let bWindow = try #require(driver.state.fadeWindow(for: b, serial: driver.state.serial))
        #expect(bWindow.fadeIn?.join == 2 && bWindow.fadeOut == nil)  // C has no transition
        // A cut to B (`play` of B) is never softened.
        try driver.state.play(id: ids[1])
        let cut = try #require(driver.openRequested(duration: 2))
        #expect(driver.state.fadeWindow(for: cut, serial: driver.state.serial)?.fadeIn == nil)
    }

    @Test func aLoopSeamOfOneItemFadesThroughItsOwnTransition() throws {
        let driver = try EngineStateDriver(items: [MediaItem(uri: "/a.wav", loops: 2, transition: fade)])
        try driver.state.play(id: nil)
        let first = try #require(driver.openRequested(duration: 1))
        #expect(driver.state.fadeWindow(for: first, serial: driver.state.serial)?.fadeIn == nil)  // the start is a cut
        let second = try #require(driver.write(first, frames: 100))
        let window = try #require(driver.state.fadeWindow(for: second, serial: driver.state.serial))
        #expect(window.fadeIn?.join == 1)
    }

    @Test func twoTonesJoinedByAFadeFollowTheCurveWithNothingInserted() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 2, format: .wav)
        let b = try Fixtures.tone(frequency: 660, seconds: 2, format: .wav)
        let audio = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: audio, untimed: true)
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: a), MediaItem(uri: b, transition: fade)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let samples = audio.capturedSamples()
        #expect(samples.count == 4 * 48_000 * 2, "nothing inserted, nothing lost")
        /// The peak of the left channel over 10 ms starting at `second`.
        func peak(_ second: Double) -> Float {
            let first = Int(second * 48_000)
            return (first..<(first + 480)).map { abs(samples[$0 * 2]) }.max() ?? 0
        }
        #expect(abs(peak(1.0) - 0.5) < 0.02)  // before the fade: the tone as made
        #expect(abs(peak(1.745) - 0.25) < 0.03)  // halfway down (1.75 s: level 0.5)
        #expect(peak(1.99) < 0.02)  // the join: silence
        #expect(abs(peak(2.245) - 0.25) < 0.03)  // halfway up
        #expect(abs(peak(3.0) - 0.5) < 0.02)  // after it
    }

    @Test func onScreenRedPassesThroughBlackExactlyOnceToBlue() throws {
        let red = try Fixtures.video(seconds: 2, fps: 25, hue: .red)
        let blue = try Fixtures.video(seconds: 2, fps: 25, hue: .blue)
        let log = PictureLog()
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            let (engine, recorder) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.2)), video: video, untimed: false)
            defer { engine.shutdown() }
            try engine.add([MediaItem(uri: red), MediaItem(uri: blue, transition: fade)])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 30))
        }
        // The hue half of each picture presented, in order: red, darker, black, darker blue, blue (the black
        // of the screen before the first picture and after the last is not the fade's).
        let all = log.all.map { $0.rgb(x: $0.width / 2, y: $0.height * 3 / 4) }
        let lit = all.indices.filter { Int(all[$0].r) + Int(all[$0].b) > 40 }
        let hues = Array(all[(lit.first ?? 0)...(lit.last ?? 0)])
        let black = hues.map { Int($0.r) <= 12 && Int($0.g) <= 12 && Int($0.b) <= 12 }
        let runs = zip(black, [false] + black).filter { $0 && !$1 }.count
        #expect(runs == 1, "black \(runs) times: \(hues.map { "\($0.r)/\($0.b)" })")
        let firstBlack = try #require(black.firstIndex(of: true))
        // Red is about (246, 83, 74) and blue (78, ?, 246): red only before the black, blue only after it.
        let redSide = hues[..<firstBlack]
        let blueSide = hues[firstBlack...].filter { !(Int($0.r) <= 12 && Int($0.g) <= 12 && Int($0.b) <= 12) }
        #expect(redSide.allSatisfy { $0.r > $0.b } && blueSide.allSatisfy { $0.b > $0.r }, "red only before, blue only after")
        // Dimming on the way: some red pictures at about half strength, and full red before that.
        #expect(redSide.contains { (90...160).contains(Int($0.r)) } && redSide.contains { $0.r > 230 })
        #expect(blueSide.contains { $0.b > 200 })
        // Redrawn at display rate during the fade: more presentations than the clips' 100 pictures.
        #expect(hues.count > 110, "\(hues.count) presentations")
    }
}
