// The engine's stall recovery, in process: the decode thread sits in a source that gives nothing (a FIFO
// nobody writes into, with a source timeout far longer than the test); the owner's recovery ends that
// item "stalled", a new decode thread plays the next item to its end, and shutdown is not held up by the
// thread that was replaced.

import Foundation
import Glibc
import Playback
import QueueModel
import TestSupport
import Testing

@Suite(.serialized) struct StallRecoveryTests {
    @Test func aStalledPlayEndsAndANewDecodeThreadPlaysTheNextItem() throws {
        let directory = try TemporaryDirectory(prefix: "queued-stalled-engine")
        let fifo = directory.path + "/never-written.wav"
        try #require(mkfifo(fifo, 0o600) == 0)
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let (engine, events) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true) {
            $0.sourceTimeout = 600
        }
        let ids = try engine.add([MediaItem(uri: fifo), MediaItem(uri: tone)])
        try engine.play()
        #expect(engine.status().state == .playing)
        // Nothing can come out of the FIFO: without a recovery this would wait for ten minutes.
        #expect(engine.recoverFromStall("stalled: no picture shown and no sound played for 5.0 s"))
        let finished = events.wait(timeout: 30) { seen in
            seen.contains {
                if case .itemEnded(ids[1], _, .eof, _, _) = $0 { return true }
                return false
            }
        }
        #expect(finished, "the next item did not play to its end: \(events.all)")
        let stalledEnd = events.all.first {
            if case .itemEnded(ids[0], _, _, _, _) = $0 { return true }
            return false
        }
        guard case .itemEnded(_, _, let reason, let error, _) = stalledEnd else {
            Issue.record("no end for the stalled item: \(events.all)")
            return
        }
        #expect(reason == .error && error?.hasPrefix("stalled:") == true)
        let state = engine.queue().entry(ids[0])?.state
        guard case .failed(let message) = state else {
            Issue.record("the stalled item is not marked failed: \(String(describing: state))")
            return
        }
        #expect(message.hasPrefix("stalled:"))
        #expect(!engine.recoverFromStall("idle"), "nothing is playing: nothing to recover")
        let start = MonotonicClock.seconds()
        engine.shutdown()
        #expect(MonotonicClock.seconds() - start < 10, "shutdown waited for the replaced thread")
    }
}
