// queue.replace on the engine with its threads, untimed, every sample captured: a swap at the end of the
// play under way lets that play finish whole and joins the new queue to it sample for sample (nothing
// inserted, nothing dropped), and the old queue's other items never play.

import Media
import QueueModel
import TestSupport
import Testing

@testable import Playback

@Suite struct ReplaceEngineTests {
    @Test func aSwapAtItemEndJoinsTheNewQueueSampleForSample() throws {
        let loop = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let old = try Fixtures.tone(frequency: 550, seconds: 0.5, format: .wav)
        let new = try Fixtures.tone(frequency: 660, seconds: 0.5, format: .wav)
        let sink = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: sink, untimed: true)
        defer { engine.shutdown() }
        let ids = try engine.add([MediaItem(uri: loop, loops: 0), MediaItem(uri: old)])
        try engine.play()
        #expect(
            recorder.wait(timeout: 30) { events in
                events.contains {
                    if case .itemStarted(_, 3, _, _, _, _, _, _, _) = $0 { return true }
                    return false
                }
            })
        let replaced = try engine.replace(with: [MediaItem(uri: new)], rev: 4, at: .itemEnd)
        #expect(recorder.waitUntilDone(timeout: 30))

        let loopPlays = recorder.ended.filter { $0.id == ids[0] }
        #expect(loopPlays.allSatisfy { $0.reason == .eof } && loopPlays.count >= 3)
        #expect(recorder.started.map(\.id) == Array(repeating: ids[0], count: loopPlays.count) + replaced.ids)
        var expected: [Int16] = []
        for _ in loopPlays { expected += try Fixtures.decodePCM(loop) }
        expected += try Fixtures.decodePCM(new)
        let heard = int16Samples(sink.capturedSamples())
        #expect(heard.count == expected.count)
        #expect(heard == expected, "the new queue follows the loop's last play sample for sample")
        #expect(engine.queue().entries.map(\.id) == replaced.ids && engine.status().appliedRev == 4)
    }
}
