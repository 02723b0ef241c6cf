// PulseAudioSink against a real private PulseAudio server per test (module-null-sink, recorded from
// null.monitor with parec), plus the sink's pure parts. Blocking sink calls (write, drain) run on their own
// threads, never on the cooperative pool; every wait polls a condition with a deadline.

import Foundation
import Logging
import Playback
import TestSupport
import Testing

@testable import AudioPulse

private let testLogger = Logger(label: "queued.test.pulse")
private let testRate = 48_000

/// For the tests that compare recordings: with the default 0.1 s, the stream holds 75 ms, and on a
/// loaded 2-core machine (load 6.5, others' builds) the server underran mid-test, and an underrun is a
/// gap in the recording. The sink behaves the same at any latency.
private func roomyConfig(_ server: PulseTestServer) -> PulseConfig {
    var config = PulseConfig(server: server.address)
    config.targetLatency = 0.4
    config.bufferSeconds = 0.4
    return config
}

// MARK: - Pure parts

@Suite struct PulseSinkPartsTests {
    @Test func conversionIsBitExactAtUnityAndHalvesAtHalf() {
        let values: [Int16] = [-32768, -32767, -12345, -1, 0, 1, 2, 3, 12345, 32767]
        let floats = values.map { Float($0) / 32768 }
        var out = [Int16](repeating: 7, count: values.count)
        floats.withUnsafeBufferPointer { S16Converter.convert($0, gain: 1, into: &out) }
        #expect(out == values)
        floats.withUnsafeBufferPointer { S16Converter.convert($0, gain: 0.5, into: &out) }
        #expect(zip(out, values).allSatisfy { abs(Int($0) * 2 - Int($1)) <= 1 })
        floats.withUnsafeBufferPointer { S16Converter.convert($0, gain: 0, into: &out) }
        #expect(out.allSatisfy { $0 == 0 })
        let loud: [Float] = [1.5, -1.5, 1.0, .infinity, -.infinity]
        loud.withUnsafeBufferPointer { S16Converter.convert($0, gain: 1, into: &out) }
        #expect(Array(out[0..<5]) == [32767, -32768, 32767, 32767, -32768])
    }

    @Test func ringKeepsOrderAcrossTheWrap() {
        var ring = SampleRing(capacity: 8)
        ring.append([1, 2, 3, 4, 5, 6], 0..<6)
        var got: [Float] = []
        ring.consume(4) { piece, _ in got += piece }
        ring.append([7, 8, 9, 10, 11, 12], 0..<6)
        #expect(ring.free == 0)
        var pieces = 0
        ring.consume(100) { piece, at in
            #expect(at == got.count - 4)
            got += piece
            pieces += 1
        }
        #expect(got == (1...12).map(Float.init))
        #expect(pieces == 2)
        #expect(ring.isEmpty)
    }

    @Test func timelineContinuesFromTheHeardPositionAfterAFlush() {
        var timeline = OutputTimeline()
        timeline.accept(frames: 10_000)
        #expect(timeline.played(atServerFrame: 4_000) == 4_000)
        #expect(timeline.played(atServerFrame: 3_900) == 4_000)  // never decreases
        #expect(timeline.played(atServerFrame: 20_000) == 10_000)  // never past written
        var flushed = OutputTimeline()
        flushed.accept(frames: 10_000)
        _ = flushed.played(atServerFrame: 4_000)
        flushed.flushed()
        #expect(flushed.written == 4_000)
        // The server had read up to 6_000 (2_000 rendered but unheard); new data goes there.
        flushed.rebase(serverWriteFrame: 6_000)
        flushed.accept(frames: 1_000)
        #expect(flushed.played(atServerFrame: 5_500) == 4_000)  // old tail still sounding
        #expect(flushed.played(atServerFrame: 6_500) == 4_500)  // new data, on the same timeline
        flushed.drained(through: 5_000)
        #expect(flushed.played == 5_000)
        #expect(OutputTimeline.frames(usec: 1_000_000, sampleRate: testRate) == 48_000)
        #expect(OutputTimeline.frames(usec: 20, sampleRate: testRate) == 1)  // libpulse floors 1 frame to 20 µs
        #expect(OutputTimeline.frames(usec: UInt64.max - 7, sampleRate: testRate) == nil)  // garbage: no reading, no trap
    }
}

// MARK: - Against a server

@Suite(.serialized) struct PulseAudioSinkTests {
    @Test func playsEverySampleExactlyAndContiguously() async throws {
        let server = try PulseTestServer()
        let recorder = try server.record()
        let sink = try PulseAudioSink(config: roomyConfig(server), logger: testLogger)
        defer { sink.close() }
        let signal = testPattern(frames: 3 * testRate, seed: 1)
        let samples = asFloats(signal)
        let outcome = await runOnThread { () -> (Bool, Int) in
            var generator = SeededGenerator(seed: 42)
            var at = 0
            while at < samples.count {
                let end = min(samples.count, at + 2 * Int.random(in: 100...3000, using: &generator))
                guard sink.write(Array(samples[at..<end])) else { return (false, -1) }
                at = end
            }
            let underflows = sink.diagnostics().underflows
            sink.drain()
            return (true, underflows)
        }
        #expect(outcome.0)
        #expect(outcome.1 == 0, "underflows before the drain")
        #expect(sink.writtenFrames() == Int64(3 * testRate))
        #expect(sink.playedFrames() == Int64(3 * testRate))
        let recording = try #require(await recorder.waitFor(signal), "signal not found in \(recorder.path)")
        #expect(recording.matching == signal.count / 2, "frames matching in a row from the first")
    }

    @Test func playedFramesFollowsRealTimeAndStopsWhilePaused() async throws {
        let server = try PulseTestServer(norewinds: false)
        let sink = try PulseAudioSink(config: PulseConfig(server: server.address), logger: testLogger)
        let writer = BackgroundWriter(sink, asFloats(testPattern(frames: 30 * testRate, seed: 2)), chunkFrames: 1024)
        #expect(await waitUntil(timeout: 5) { sink.playedFrames() > 0 }, "playback never started")

        // From the very start (the null sink may stall for up to 2 s while libpulse's smoother runs on):
        // the ring is kept full, so the listener is always more than half a ring behind what was written.
        let run = await observePositions(sink, seconds: 1.5)
        #expect(run.violations.isEmpty, "\(run.violations)")
        #expect(run.lags.min()! > Int64(testRate / 10), "played ran ahead of the audio")
        #expect(abs(run.rate / Double(testRate) - 1) < 0.25, "rate \(run.rate)")
        print(
            "MEASURED start: rate \(run.rate) frames/s, written−played \(run.lags.min()!)…\(run.lags.max()!), "
                + "pa latency \(run.latency) s, ours \(run.estimatedLatency) s")

        sink.setPaused(true)
        let heldAt = sink.playedFrames()
        var rawWhilePaused: [Int64] = []
        let moved = await waitUntil(timeout: 0.5) {
            rawWhilePaused.append(sink.diagnostics().streamTimeFrames ?? -1)
            return sink.playedFrames() != heldAt
        }
        #expect(!moved, "playedFrames moved while paused")
        print(
            "MEASURED paused: held \(heldAt); libpulse stream time "
                + "\(rawWhilePaused.first!)…\(rawWhilePaused.last!)")
        sink.setPaused(false)
        let resumed = ContinuousClock.now
        #expect(await waitUntil(timeout: 2) { sink.playedFrames() > heldAt }, "did not resume")
        let firstMove = ContinuousClock.now - resumed, jump = sink.playedFrames() - heldAt
        let after = await observePositions(sink, seconds: 1.5)
        #expect(after.violations.isEmpty, "\(after.violations)")
        #expect(abs(after.rate / Double(testRate) - 1) < 0.1, "rate after resume \(after.rate)")
        #expect(after.lags.min()! > Int64(testRate / 10))
        print(
            "MEASURED resume: moved \(firstMove) after uncork, by \(jump) frames; then rate \(after.rate), "
                + "written−played \(after.lags.min()!)…\(after.lags.max()!) "
                + "(median \(after.lags.sorted()[after.lags.count / 2])), "
                + "pa latency \(after.latency) s, ours \(after.estimatedLatency) s, "
                + "write-callback period \(after.callbackPeriod * 1000) ms, tlength/prebuf/minreq "
                + "\(after.end.tlengthFrames)/\(after.end.prebufFrames)/\(after.end.minreqFrames) frames, "
                + "underflows \(after.end.underflows)")

        sink.close()  // wakes the writer, blocked on a full ring
        #expect(await waitUntil(timeout: 2) { writer.finished }, "close did not wake write")
        #expect(writer.result == false)
    }

    @Test func flushContinuesTheTimelineWithNewData() async throws {
        let server = try PulseTestServer()
        let recorder = try server.record()
        let sink = try PulseAudioSink(config: roomyConfig(server), logger: testLogger)
        defer { sink.close() }
        let old = testPattern(frames: 3 * testRate, seed: 3), new = testPattern(frames: 3 * testRate, seed: 4)
        let oldWriter = BackgroundWriter(sink, asFloats(old), chunkFrames: 1000)
        #expect(await waitUntil(timeout: 5) { sink.playedFrames() >= Int64(testRate / 2) })
        let before = await observePositions(sink, seconds: 0.5)  // mid-play, the ring kept full
        sink.flush()
        let heard = sink.playedFrames()
        #expect(sink.writtenFrames() == heard)
        #expect(await waitUntil(timeout: 2) { oldWriter.finished } && oldWriter.result == false, "flush did not wake write")

        let newWriter = BackgroundWriter(sink, asFloats(new), chunkFrames: 1000, drain: true)
        #expect(await waitUntil(timeout: 5) { sink.playedFrames() > heard + Int64(testRate / 2) })
        let after = await observePositions(sink, seconds: 0.5)
        #expect(after.violations.isEmpty, "\(after.violations)")
        // The new data must be heard as timeline frame `heard` on: then the listener stays as far behind
        // `write` as before. A wrong offset shows as a lag clamped to 0, or off by the sink's latency.
        let lagBefore = before.lags.sorted()[before.lags.count / 2]
        let lagAfter = after.lags.sorted()[after.lags.count / 2]
        print(
            "MEASURED flush: heard \(heard), median lag before \(lagBefore), after \(lagAfter), "
                + "offset \(after.end.timelineOffset)")
        #expect(abs(lagAfter - lagBefore) < Int64(testRate / 40), "lag \(lagBefore) → \(lagAfter)")
        #expect(await waitUntil(timeout: 8) { newWriter.finished } && newWriter.result)
        #expect(sink.writtenFrames() == heard + Int64(new.count / 2))
        #expect(sink.playedFrames() == sink.writtenFrames())

        let found = try #require(await recorder.waitFor(new), "new data not found")
        #expect(found.matching == new.count / 2)
        let samples = recorder.samples()
        let oldStart = try #require(findFrames(old[0..<32], in: samples), "old data not found")
        let oldHeard = matchingFrames(old, in: samples, at: oldStart)
        print(
            "MEASURED flush: old frames played \(oldHeard) (heard at flush \(heard)), "
                + "silence before new \((found.start - oldStart) / 2 - oldHeard) frames")
        #expect(oldHeard >= Int(heard) && oldHeard < Int(heard) + testRate / 4)
        #expect(samples[(oldStart + 2 * oldHeard)..<found.start].allSatisfy { $0 == 0 })
    }

    /// An interrupt's splice at the sink: `cancelWrite` frees the blocked writer, `retract` takes back what
    /// the server holds beyond the lead and beyond what the sink has read (this null sink cannot rewind and
    /// reads ~90 ms ahead at this latency), and the next samples are heard right there — the old ones up to
    /// the cut, the new ones from it, nothing dropped, repeated or inserted.
    @Test func retractTakesBackWhatTheServerHeldAndPlaysTheNewSamplesInItsPlace() async throws {
        let server = try PulseTestServer()
        let recorder = try server.record()
        let sink = try PulseAudioSink(config: roomyConfig(server), logger: testLogger)
        defer { sink.close() }
        let old = testPattern(frames: 3 * testRate, seed: 5), new = testPattern(frames: testRate, seed: 6)
        let oldWriter = BackgroundWriter(sink, asFloats(old), chunkFrames: 1000)
        #expect(await waitUntil(timeout: 5) { sink.playedFrames() >= Int64(testRate / 2) })
        // A cancel between two writes frees nothing: repeat until the writer is out (bounded).
        #expect(
            await waitUntil(timeout: 2) {
                sink.cancelWrite()
                return oldWriter.finished
            } && oldWriter.result == false)
        let before = sink.diagnostics()
        let sent = before.writtenFrames - Int64(before.ringFrames)
        let heard = sink.playedFrames()
        let cut = sink.retract(from: 0, lead: 0.015)
        print(
            "MEASURED retract: heard \(heard), cut \(cut), sent to the server \(sent), written \(before.writtenFrames)")
        #expect(cut >= heard + Int64(testRate * 15 / 1000) && cut < sent, "the cut is in what the server held")
        #expect(sink.writtenFrames() == cut)
        let newWriter = BackgroundWriter(sink, asFloats(new), chunkFrames: 1000, drain: true)
        #expect(await waitUntil(timeout: 8) { newWriter.finished } && newWriter.result)
        #expect(sink.playedFrames() == cut + Int64(new.count / 2))

        let found = try #require(await recorder.waitFor(new), "new data not found")
        #expect(found.matching == new.count / 2)
        let samples = recorder.samples()
        let oldStart = try #require(findFrames(old[0..<32], in: samples), "old data not found")
        #expect(matchingFrames(old, in: samples, at: oldStart) == Int(cut), "the old samples up to the cut only")
        #expect(found.start == oldStart + 2 * Int(cut), "the new samples right at the cut")
    }

    @Test func volumeScalesAndMuteSilences() async throws {
        let server = try PulseTestServer()
        let recorder = try server.record()
        let sink = try PulseAudioSink(config: roomyConfig(server), logger: testLogger)
        defer { sink.close() }
        let parts = (5...8).map { testPattern(frames: testRate / 2, seed: UInt32($0)) }
        let settings: [(Float, Bool)] = [(1, false), (0.5, false), (0.8, true), (1, false)]
        let wrote = await runOnThread { () -> Bool in
            for (part, (volume, muted)) in zip(parts, settings) {
                sink.setVolume(volume, muted: muted)
                guard sink.write(asFloats(part)) else { return false }
                sink.drain()  // empties the ring: the next volume applies to the whole next part
            }
            return true
        }
        #expect(wrote)
        let last = try #require(await recorder.waitFor(parts[3]), "last part not found")
        #expect(last.matching == parts[3].count / 2)
        let samples = recorder.samples()
        let first = try #require(findFrames(parts[0][0..<32], in: samples))
        #expect(matchingFrames(parts[0], in: samples, at: first) == parts[0].count / 2)
        let halved = parts[1].map { Int16(clamping: Int(lrintf(Float($0) * 0.5))) }
        let half = try #require(findFrames(halved[0..<32], in: samples, tolerance: 1), "halved part not found")
        #expect(matchingFrames(halved, in: samples, at: half, tolerance: 1) == halved.count / 2)
        let gap = samples[(half + halved.count)..<last.start]
        #expect(gap.allSatisfy { $0 == 0 }, "muted part not silent")
        #expect(gap.count >= parts[2].count)
    }

    @Test func unreachableServerFailsFastAndClearly() async throws {
        let address = "unix:/tmp/queued-no-such-server-\(getpid())/native"
        let started = ContinuousClock.now
        // Fast = refused at once, not after the connect timeout: a long one makes the difference plain on a
        // loaded machine too (no speed is asserted).
        var config = PulseConfig(server: address)
        config.connectTimeout = 30
        do {
            _ = try PulseAudioSink(config: config, logger: testLogger)
            Issue.record("connected to \(address)")
        } catch let error as PulseError {
            print("MEASURED error: \(error) after \(ContinuousClock.now - started)")
            #expect(error.description.contains(address))
            #expect(error.stage == .connect)
        }
        #expect(ContinuousClock.now - started < .seconds(10), "it waited for the connect timeout")
        #expect(!PulseAudioSink.isServerReachable(address))
        let server = try PulseTestServer()
        #expect(PulseAudioSink.isServerReachable(server.address))
    }

    @Test func drainPlaysLessThanPrebuf() async throws {
        let server = try PulseTestServer()
        let recorder = try server.record()
        let sink = try PulseAudioSink(config: PulseConfig(server: server.address), logger: testLogger)
        defer { sink.close() }
        let short = testPattern(frames: testRate / 50, seed: 12)  // 20 ms, below prebuf (50 ms)
        let started = ContinuousClock.now
        #expect(
            await runOnThread {
                guard sink.write(asFloats(short)) else { return false }
                sink.drain()
                return true
            })
        // Below prebuf the server would never start on its own: a drain that did not trigger it would hang.
        // The bound only tells a hang from a slow machine (it once took 3.2 s under load), not a speed.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(sink.playedFrames() == Int64(short.count / 2))
        let found = try #require(await recorder.waitFor(short), "short item not found")
        #expect(found.matching == short.count / 2)
    }

    @Test func drainReturnsOnFlushAndOnClose() async throws {
        let server = try PulseTestServer()
        let sink = try PulseAudioSink(config: PulseConfig(server: server.address), logger: testLogger)
        for ending in ["flush", "close"] {
            #expect(sink.write(asFloats(testPattern(frames: testRate / 10, seed: 10))))
            sink.setPaused(true)  // a corked stream never finishes draining
            let drained = Flag()
            Thread {
                sink.drain()
                drained.set()
            }.start()
            #expect(!(await waitUntil(timeout: 0.3) { drained.isSet }), "drain returned while corked (\(ending))")
            if ending == "flush" { sink.flush() } else { sink.close() }
            #expect(await waitUntil(timeout: 2) { drained.isSet }, "drain did not return on \(ending)")
            sink.setPaused(false)
        }
    }

    @Test func concurrentCallsNeitherCrashNorHang() async throws {
        let server = try PulseTestServer()
        let sink = try PulseAudioSink(config: PulseConfig(server: server.address), logger: testLogger)
        let writer = BackgroundWriter(
            sink, asFloats(testPattern(frames: 60 * testRate, seed: 11)), chunkFrames: 700,
            rewriteAfterFlush: true)
        let stop = Flag()
        let callers = (0..<3).map { role in
            let done = Flag(), wentBack = Flag()
            Thread {
                var last: Int64 = 0, round = 0
                while !stop.isSet {
                    let played = sink.playedFrames()
                    if played < last { wentBack.set() }
                    last = played
                    switch (role, round % 50) {
                    case (0, 0): sink.flush()
                    case (1, 0): sink.setPaused(true)
                    case (1, 25): sink.setPaused(false)
                    case (2, _): sink.setVolume(Float(round % 10) / 10, muted: round % 7 == 0)
                    default: break
                    }
                    usleep(1000)
                    round += 1
                }
                done.set()
            }.start()
            return (done: done, wentBack: wentBack)
        }
        try await Task.sleep(for: .seconds(1.5))  // how long they race: a duration, not a synchronisation
        stop.set()
        #expect(await waitUntil(timeout: 5) { callers.allSatisfy { $0.done.isSet } }, "a caller hangs")
        #expect(callers.allSatisfy { !$0.wentBack.isSet }, "playedFrames went back")
        sink.close()
        #expect(await waitUntil(timeout: 2) { writer.finished }, "the writer hangs after close")
    }

    @Test func serverDeathEndsWritesWithoutHanging() async throws {
        let server = try PulseTestServer(norewinds: false)
        let sink = try PulseAudioSink(config: PulseConfig(server: server.address), logger: testLogger)
        defer { sink.close() }
        let writer = BackgroundWriter(sink, asFloats(testPattern(frames: 30 * testRate, seed: 9)), chunkFrames: 1024)
        #expect(await waitUntil(timeout: 5) { sink.playedFrames() > 0 })
        let before = sink.playedFrames()
        server.kill(SIGKILL)
        #expect(await waitUntil(timeout: 3) { writer.finished }, "write hangs after the server died")
        #expect(writer.result == false)
        #expect(sink.playedFrames() >= before)
        #expect(sink.write([0, 0]) == false)
        await runOnThread { sink.drain() }  // returns at once
        sink.flush()
        sink.setPaused(true)
    }
}

// MARK: - Measuring

private struct PositionObservation {
    var rate = 0.0, latency = 0.0, estimatedLatency = 0.0, callbackPeriod = 0.0
    var lags: [Int64] = []
    var violations: [String] = []
    var end = PulseDiagnostics()
}

/// Polls positions every 5 ms for `seconds`, checking played ≤ written and monotonic.
private func observePositions(_ sink: PulseAudioSink, seconds: Double) async -> PositionObservation {
    var result = PositionObservation()
    let start = ContinuousClock.now, startDiagnostics = sink.diagnostics()
    let p0 = sink.playedFrames()
    var last = p0
    var latencies: [Double] = [], estimates: [Double] = []
    _ = await waitUntil(timeout: seconds) {
        let played = sink.playedFrames(), written = sink.writtenFrames()
        if played > written { result.violations.append("played \(played) > written \(written)") }
        if played < last { result.violations.append("played went back \(last) → \(played)") }
        last = played
        result.lags.append(written - played)
        let diagnostics = sink.diagnostics()
        if let latency = diagnostics.latency { latencies.append(latency) }
        estimates.append(diagnostics.estimatedLatency)
        return false
    }
    let elapsed = (ContinuousClock.now - start) / .seconds(1)
    result.end = sink.diagnostics()
    result.rate = Double(sink.playedFrames() - p0) / elapsed
    result.latency = latencies.sorted()[latencies.count / 2]
    result.estimatedLatency = estimates.sorted()[estimates.count / 2]
    result.callbackPeriod = elapsed / Double(max(1, result.end.writeRequests - startDiagnostics.writeRequests))
    return result
}

// MARK: - Signals

/// Full-scale pseudo-random interleaved stereo S16: every frame distinct enough to be found.
private func testPattern(frames: Int, seed: UInt32) -> [Int16] {
    var x = seed &* 2_654_435_761
    return (0..<frames * 2).map { _ in
        x = x &* 1_664_525 &+ 1_013_904_223
        return Int16(truncatingIfNeeded: x >> 16)
    }
}

private func asFloats(_ samples: [Int16]) -> [Float] { samples.map { Float($0) / 32768 } }

/// First frame-aligned position of `needle` in `hay`.
private func findFrames(_ needle: ArraySlice<Int16>, in hay: [Int16], tolerance: Int = 0) -> Int? {
    guard hay.count >= needle.count else { return nil }
    let first = Int(needle[needle.startIndex])
    return stride(from: 0, through: hay.count - needle.count, by: 2).first { at in
        guard abs(Int(hay[at]) - first) <= tolerance else { return false }
        return zip(needle, hay[at...]).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }
}

/// How many frames of `signal` match `hay` in a row from `at`.
private func matchingFrames(_ signal: [Int16], in hay: [Int16], at: Int, tolerance: Int = 0) -> Int {
    var i = 0
    while i < signal.count, at + i < hay.count, abs(Int(signal[i]) - Int(hay[at + i])) <= tolerance { i += 1 }
    return i / 2
}

// MARK: - Threads and waiting

/// Runs blocking work on a thread of its own.
private func runOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// The decode thread's part: writes `samples` in chunks (then drains), on its own thread.
private final class BackgroundWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false, ok = false
    var finished: Bool { lock.withLock { done } }
    var result: Bool { lock.withLock { ok } }

    /// `rewriteAfterFlush`: carry on after a `false` from write while the sink is open (a seek's new data).
    init(
        _ sink: PulseAudioSink, _ samples: [Float], chunkFrames: Int, drain: Bool = false,
        rewriteAfterFlush: Bool = false
    ) {
        Thread { [self] in
            var at = 0, success = true
            while success && at < samples.count {
                let end = min(samples.count, at + 2 * chunkFrames)
                success = sink.write(Array(samples[at..<end]))
                if !success && rewriteAfterFlush && sink.write([0, 0]) { success = true }
                at = end
            }
            if success && drain { sink.drain() }
            lock.withLock { (done, ok) = (true, success) }
        }.start()
    }
}

/// A flag any thread may set and read.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

// MARK: - Private servers and recorders

/// A private `pulseaudio` with a null sink in a temp dir; killed and removed on deinit.
/// `norewinds`: the null sink's rewinds (when a stream starts or leaves an underrun) re-render audio its
/// monitor has already recorded, so up to ~1200 frames of a stream's start never reach parec; with
/// rewinds off, recordings are exact. Rewinds on is closer to a real device (and shows the null sink's
/// start-up stall, with its 2 s idle block), so the position tests keep them.
private final class PulseTestServer {
    let directory: String
    let address: String
    private let process: ChildProcess
    private var recorders: [ChildProcess] = []

    init(norewinds: Bool = true) throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("queued-pulse-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        address = "unix:\(directory)/native"
        process = try ChildProcess(
            "pulseaudio",
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                "-L", "module-native-protocol-unix socket=\(directory)/native auth-anonymous=1",
                "-L", "module-null-sink sink_name=null rate=48000 channels=2\(norewinds ? " norewinds=1" : "")",
            ],
            environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory], stdoutPath: "\(directory)/server.log",
            stderrPath: "\(directory)/server.log")
        let address = address
        let deadline = ContinuousClock.now + .seconds(5)
        while !PulseAudioSink.isServerReachable(address, timeout: 0.5) {
            guard ContinuousClock.now < deadline else {
                throw PulseTestFailure("pulseaudio did not start: \(directory)")
            }
            usleep(5_000)
        }
    }

    deinit {
        for recorder in recorders { recorder.terminate(timeout: 1) }
        process.terminate(timeout: 1)
        try? FileManager.default.removeItem(atPath: directory)
    }

    func kill(_ signal: Int32) { process.send(signal: signal) }

    /// Starts parec on null.monitor and waits until it delivers data.
    func record() throws -> PulseRecording {
        let path = "\(directory)/recording-\(recorders.count).raw"
        recorders.append(
            try ChildProcess(
                "parec",
                [
                    "--server=\(address)", "-d", "null.monitor", "--format=s16le", "--rate=48000", "--channels=2",
                    "--raw",
                ],
                environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory], stdoutPath: path,
                stderrPath: path + ".err"))
        let deadline = ContinuousClock.now + .seconds(5)
        while ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0 {
            guard ContinuousClock.now < deadline else { throw PulseTestFailure("parec records nothing") }
            usleep(5_000)
        }
        return PulseRecording(path: path)
    }
}

private struct PulseRecording: Sendable {
    let path: String

    func samples() -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var samples = [Int16](repeating: 0, count: data.count / 4 * 2)
        samples.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
        return samples
    }

    /// Waits until the recording holds all of `signal` from its first frame; nil if it never starts.
    func waitFor(_ signal: [Int16]) async -> (start: Int, matching: Int)? {
        var best: (start: Int, matching: Int)?
        _ = await waitUntil(timeout: 8) {
            let samples = samples()
            guard let start = findFrames(signal[0..<32], in: samples) else { return false }
            best = (start, matchingFrames(signal, in: samples, at: start))
            return best!.matching == signal.count / 2 || samples.count > start + signal.count + 2 * testRate
        }
        return best
    }
}

private struct PulseTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
