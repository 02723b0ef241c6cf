// The music zone's output through a capture sink: samples pass bit-exact until the audio zone plays sound,
// then ramp down sample by sample as DuckEnvelope says, stay down, and come back; a duck told late starts
// from the first frame not yet written (never a jump); DuckControl ducks only while the audio zone plays.

import AudioMix
import Playback
import Testing

struct DuckedAudioSinkTests {
    /// A "music" of distinct samples (a ramp of values, so that any reordering or loss would show).
    func music(frames: Int, channels: Int = 2, from start: Int = 0) -> [Float] {
        (0..<frames * channels).map { Float(((start * channels + $0) % 1000) + 1) / 1000 }
    }

    @Test func theMusicPassesBitExactThenRampsDownAndBackSampleBySample() throws {
        let capture = NullAudioSink(mode: .untimed, keepSamples: true)
        let music = DuckedAudioSink(capture, depth: -18, rampSeconds: 0.5)
        let chunk = 4_800
        #expect(music.write(self.music(frames: chunk)))
        // Untimed: what is written is heard at once, so "now" is the next frame written.
        music.set(ducked: true)
        for index in 1..<20 { #expect(music.write(self.music(frames: chunk, from: index * chunk))) }
        music.set(ducked: false)
        for index in 20..<40 { #expect(music.write(self.music(frames: chunk, from: index * chunk))) }
        let out = capture.capturedSamples()
        let input = self.music(frames: 40 * chunk)
        #expect(out.count == input.count)
        #expect(Array(out[0..<chunk * 2]) == Array(input[0..<chunk * 2]), "before the duck: bit-exact")
        var reference = DuckEnvelope(depth: -18, rampSeconds: 0.5, sampleRate: 48_000)
        reference.set(ducked: true, at: Int64(chunk))
        reference.set(ducked: false, at: Int64(20 * chunk))
        var worst: Float = 0
        var largestGainStep: Float = 0
        var lastGain: Float = 1
        for frame in chunk..<(40 * chunk) {
            let gain = reference.gain(at: Int64(frame))
            for channel in 0..<2 {
                let index = frame * 2 + channel
                worst = max(worst, abs(out[index] - input[index] * gain))
            }
            largestGainStep = max(largestGainStep, abs(gain - lastGain))
            lastGain = gain
        }
        #expect(worst == 0, "every sample is the music times the envelope's gain at its frame (worst \(worst))")
        // The raised cosine's steepest step is π/2 × (1 − 0.126) / 24000 frames = 5.72e-5: nothing steeper.
        #expect(largestGainStep < 0.000_058, "no step in the gain: \(largestGainStep)")
        let ducked = out[(10 * chunk) * 2] / input[(10 * chunk) * 2]
        #expect(abs(ducked - 0.125_89) < 1e-4, "−18 dB: \(ducked)")
        #expect(Array(out[(36 * chunk * 2)...]) == Array(input[(36 * chunk * 2)...]), "after the ramp back: bit-exact")
    }

    @Test func aDuckToldForAFrameAlreadyWrittenStartsAtTheNextOneWithoutAJump() {
        // Realtime: samples are heard over time, so a duck "heard now" lands on frames already written.
        let capture = NullAudioSink(mode: .realtime(buffer: 1), keepSamples: true)
        let music = DuckedAudioSink(capture, depth: -12, rampSeconds: 0.1)
        #expect(music.write(self.music(frames: 24_000)))
        let written = music.writtenFrames()
        music.set(ducked: true, heardAt: 0)  // long past
        #expect(music.gainNow() == 1, "the ramp starts at the first frame not yet written")
        #expect(music.write(self.music(frames: 9_600, from: 24_000)))
        let out = capture.capturedSamples()
        let input = self.music(frames: 33_600)
        #expect(Array(out[0..<Int(written) * 2]) == Array(input[0..<Int(written) * 2]), "what was written stays as it was")
        #expect(out[Int(written) * 2] == input[Int(written) * 2], "the ramp's first frame is at full gain")
        let end = out.count - 1
        #expect(abs(out[end] / input[end] - 0.251) < 0.002, "−12 dB after the 0.1 s ramp")
        capture.close()
    }

    @Test func duckControlDucksOnlyWhileTheAudioZonePlaysSound() {
        let capture = NullAudioSink(mode: .untimed, keepSamples: true)
        let music = DuckedAudioSink(capture, depth: -18, rampSeconds: 0.01)
        let control = DuckControl()
        control.attach(music)
        control.playScheduled(sound: true, heardAt: 0)
        #expect(music.write(self.music(frames: 4_800)))
        #expect(music.gainNow() == 1, "not playing yet: no duck")
        control.audioZonePlaying(true)
        #expect(music.write(self.music(frames: 4_800)))
        #expect(abs(music.gainNow() - 0.125_89) < 1e-4, "playing a play with sound: ducked")
        control.audioZonePlaying(false)
        #expect(music.write(self.music(frames: 4_800)))
        #expect(music.gainNow() == 1, "paused: back up")
        control.audioZonePlaying(true)
        control.playScheduled(sound: false, heardAt: 0)
        #expect(music.write(self.music(frames: 4_800)))
        #expect(music.gainNow() == 1, "a play without sound: not ducked")
    }
}
