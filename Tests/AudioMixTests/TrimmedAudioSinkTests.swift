// A sync group member's trimmed sound through a capture sink: untrimmed it passes bit-exact; trimmed it
// plays faster or slower by the trim (a 1 kHz tone comes out at 1 kHz × the pace), with no step at a change
// of trim, and the heard position maps back to the engine's frames. PaceMap's two directions agree.

@testable import AudioMix
import Foundation
import Playback
import Testing

struct TrimmedAudioSinkTests {
    func tone(frames: Int, from start: Int, frequency: Double = 1000) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Float(0.5 * sin(2 * Double.pi * frequency * Double(start + frame) / 48_000))
            (samples[frame * 2], samples[frame * 2 + 1]) = (value, value)
        }
        return samples
    }

    /// Upward zero crossings of the left channel per second.
    func frequency(of samples: [Float]) -> Double {
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let crossings = (1..<left.count).filter { left[$0 - 1] < 0 && left[$0] >= 0 }
        guard let first = crossings.first, let last = crossings.last, last > first else { return 0 }
        return Double(crossings.count - 1) / (Double(last - first) / 48_000)
    }

    @Test func untrimmedTheSoundPassesBitExact() {
        let capture = NullAudioSink(mode: .untimed, keepSamples: true)
        let sink = TrimmedAudioSink(capture)
        let input = tone(frames: 48_000, from: 0)
        #expect(sink.write(input))
        #expect(capture.capturedSamples() == input)
        #expect(sink.writtenFrames() == 48_000 && sink.playedFrames() == 48_000)
    }

    @Test func aTrimPlaysFasterOrSlowerWithoutAStepAndPositionsMapBack() {
        let capture = NullAudioSink(mode: .untimed, keepSamples: true)
        let sink = TrimmedAudioSink(capture)
        let chunk = 4_800
        var written = 0
        func play(seconds: Int) -> [Float] {
            let before = capture.capturedSamples().count
            for _ in 0..<(seconds * 10) {
                #expect(sink.write(tone(frames: chunk, from: written)))
                written += chunk
            }
            return Array(capture.capturedSamples()[before...])
        }
        let plain = play(seconds: 2)
        #expect(sink.setTrim(ppm: 5000) == 5000)
        let fast = play(seconds: 4)
        sink.setTrim(ppm: -5000)
        let slow = play(seconds: 4)
        #expect(sink.setTrim(ppm: 9000) == 5000, "the trim is held within ±0.5 %")
        print("1 kHz tone: untrimmed \(frequency(of: plain)) Hz, +5000 ppm \(frequency(of: fast)) Hz, -5000 ppm \(frequency(of: slow)) Hz")
        #expect(abs(frequency(of: plain) - 1000) < 0.5)
        #expect(abs(frequency(of: Array(fast.dropFirst(9600))) - 1005) < 0.5)
        #expect(abs(frequency(of: Array(slow.dropFirst(9600))) - 995) < 0.5)
        // No step anywhere: a 1 kHz tone at 0.5 moves at most 0.066 per sample (0.5 % faster: 0.0658).
        let all = capture.capturedSamples()
        let largestStep = stride(from: 2, to: all.count, by: 2).map { abs(all[$0] - all[$0 - 2]) }.max() ?? 0
        #expect(largestStep < 0.07, "a step of \(largestStep) in the trimmed sound")
        // 4 s at +0.5 % and 4 s at -0.5 %: the device got 10 s minus 20 ms plus 20 ms of frames, within the filter.
        let deviceFrames = all.count / 2
        #expect(abs(deviceFrames - (2 * 48_000 + Int(Double(4 * 48_000) / 1.005) + Int(Double(4 * 48_000) / 0.995))) < 64)
        // Everything written is heard at once here (untimed): the engine hears what it wrote, less what the
        // filter still holds.
        #expect(sink.writtenFrames() == Int64(written))
        #expect(abs(sink.playedFrames() - Int64(written)) < 64)
    }

    @Test func thePaceMapGoesBothWaysAcrossChangesOfPace() {
        var map = PaceMap()
        map.mark(device: 0, engine: 0, pace: 1)
        map.mark(device: 48_000, engine: 48_000, pace: 1.005)
        map.mark(device: 96_000, engine: 48_000 + 48_000 * 1.005, pace: 0.995)
        for device in stride(from: Int64(0), to: 150_000, by: 7_919) {
            let engine = map.engine(atDevice: device)
            #expect(abs(map.device(atEngine: engine) - Double(device)) < 1e-6)
        }
        #expect(abs(map.engine(atDevice: 72_000) - (48_000 + 24_000 * 1.005)) < 1e-6)
        map.forget(before: 100_000)
        #expect(map.anchors.count == 1 && map.anchors[0].device == 96_000)
    }
}
