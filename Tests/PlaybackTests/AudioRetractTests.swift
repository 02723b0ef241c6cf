// The audio outputs' splice primitives on the null output (the PulseAudio one is shown end to end by
// InterruptDaemonTests, recorded from a real server): `retract` takes back only what is not yet heard and
// not within `lead` of the heard position; `cancelWrite` lets a blocked `write` out at once, dropping nothing.

import Foundation
import Playback
import Testing

@Suite struct AudioRetractTests {
    let rate = 48_000

    @Test func retractKeepsWhatIsHeardAndTheLeadAndTakesBackTheRest() {
        let sink = NullAudioSink(mode: .realtime(buffer: 2))
        #expect(sink.write([Float](repeating: 0.25, count: 2 * rate)))  // one second, heard from now on
        let before = sink.playedFrames()
        let cut = sink.retract(from: 0, lead: 0.05)
        let after = sink.playedFrames()
        let lead = Int64(rate / 20)
        #expect(cut >= before + lead && cut <= after + lead, "heard \(before)...\(after), cut at \(cut)")
        #expect(sink.writtenFrames() == cut, "the next write lands at the cut")
        sink.setPaused(true)  // the heard position holds, at least `lead` before the cut
        // A later frame is honoured as asked; one past what was written takes nothing back.
        #expect(sink.retract(from: cut - 10, lead: 0) == cut - 10)
        #expect(sink.retract(from: cut + 1000, lead: 0) == cut - 10)
        #expect(sink.write([0, 0]) && sink.writtenFrames() == cut - 9)
    }

    @Test func theCaptureOutputTakesNothingBack() {
        let sink = NullAudioSink(mode: .untimed, keepSamples: true)
        #expect(sink.write([0.5, 0.5, 0.25, 0.25]))
        #expect(sink.retract(from: 0, lead: 0) == 2)
        #expect(sink.capturedSamples() == [0.5, 0.5, 0.25, 0.25])
    }

    @Test func cancelWriteLetsABlockedWriteOutKeepingWhatItHad() {
        let sink = NullAudioSink(mode: .realtime(buffer: 0.05))
        #expect(sink.write([Float](repeating: 0.1, count: 2 * rate * 10)))  // ten seconds ahead of the listener
        let returned = DispatchSemaphore(value: 0)
        let result = Box()
        Thread {
            // Blocked until those ten seconds are heard, or cancelled.
            result.set(sink.write([0.2, 0.2]))
            returned.signal()
        }.start()
        var cancels = 0
        // A cancel before the write began does not touch it: repeat until it returns (bounded).
        while returned.wait(timeout: .now() + .milliseconds(5)) == .timedOut && cancels < 2000 {
            sink.cancelWrite()
            cancels += 1
        }
        #expect(cancels < 2000, "write never returned")
        #expect(result.value == false, "a cancelled write reports it was cut short")
        #expect(sink.writtenFrames() == Int64(rate * 10), "nothing dropped, nothing added")
    }
}

private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    var value: Bool? { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
