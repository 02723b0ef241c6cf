// The engine on untimed capture outputs: deterministic checks of what would be heard and shown, on the
// output timeline — gapless joins, loop counts, failures, drift, and resource use over many loops.

import Foundation
import Media
import Playback
import QueueModel
import TestSupport
import DecodeChoice
import Testing

@Suite struct EngineUntimedTests {
    @Test func audioItemsJoinWithoutInsertedOrDroppedSamples() throws {
        let tones = try [440.0, 660, 880].map { try Fixtures.tone(frequency: $0, seconds: 2, format: .flac) }
        let sink = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: sink, untimed: true)
        defer { engine.shutdown() }
        try engine.add(tones.map { MediaItem(uri: $0) } + [MediaItem(uri: tones[0], loops: 5)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        var expected: [Int16] = []
        for path in tones + Array(repeating: tones[0], count: 5) { expected += try Fixtures.decodePCM(path) }
        let heard = int16Samples(sink.capturedSamples())
        #expect(heard.count == expected.count)
        #expect(heard == expected)
        #expect(recorder.started.map(\.play) == [1, 1, 1, 1, 2, 3, 4, 5])
        #expect(recorder.started.map(\.timeline) == (0..<8).map { Double($0) * 2 })
    }

    @Test func loopCountsPerItemAndForTheQueue() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let b = try Fixtures.tone(frequency: 550, seconds: 0.5, format: .wav)
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true, queueLoops: 2)
        defer { engine.shutdown() }
        let ids = try engine.add([MediaItem(uri: a, loops: 3), MediaItem(uri: b)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let plays = recorder.started.map { "\($0.id.rawValue).\($0.play)" }
        let once = ["\(ids[0].rawValue).1", "\(ids[0].rawValue).2", "\(ids[0].rawValue).3", "\(ids[1].rawValue).1"]
        #expect(plays == once + once)
        #expect(recorder.ended.allSatisfy { $0.reason == .eof })
        #expect(recorder.lastStatus?.state == .idle)
    }

    @Test func foreverLoopsUntilNext() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 0.2, format: .wav)
        let b = try Fixtures.tone(frequency: 550, seconds: 0.2, format: .wav)
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true)
        defer { engine.shutdown() }
        let ids = try engine.add([MediaItem(uri: a, loops: 0), MediaItem(uri: b)])
        try engine.play()
        #expect(
            recorder.wait(timeout: 30) { events in
                events.contains {
                    if case .itemStarted(_, 25, _, _, _, _, _, _, _) = $0 { return true }
                    return false
                }
            })
        try engine.next()
        #expect(recorder.waitUntilDone(timeout: 30))
        // Untimed, `next` can land between two plays of the looping item (one ended eof, the next not yet
        // begun): then nothing is skipped; otherwise exactly the looping item's current play is.
        let skipped = recorder.ended.filter { $0.reason == .skipped }
        #expect(skipped.count <= 1 && skipped.allSatisfy { $0.id == ids[0] })
        #expect(recorder.ended.filter { $0.id == ids[0] }.dropLast().allSatisfy { $0.reason == .eof })
        #expect(recorder.started.last?.id == ids[1])
        #expect(
            recorder.started.filter { $0.id == ids[0] }.map(\.play)
                == Array(1...recorder.started.filter { $0.id == ids[0] }.count))
    }

    @Test(arguments: BrokenInput.allCases)
    func brokenItemFailsAndTheQueuePlaysOn(_ input: BrokenInput) throws {
        let good = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .flac)
        let broken = try input.make()
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true)
        defer { engine.shutdown() }
        let ids = try engine.add([MediaItem(uri: broken), MediaItem(uri: good)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let failure = recorder.ended.first { $0.id == ids[0] }
        #expect(failure?.reason == .error)
        #expect(
            failure?.error?.contains(broken) == true, "message names the file: \(String(describing: failure?.error))")
        #expect(recorder.ended.contains { $0.id == ids[1] && $0.reason == .eof })
        #expect(recorder.lastStatus?.state == .idle)
        if case .failed = engine.queue().entry(ids[0])?.state {} else { Issue.record("item not marked failed") }
    }

    @Test func aQueueWhereEveryItemFailsStopsInsteadOfSpinning() throws {
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true, queueLoops: 0)
        defer { engine.shutdown() }
        try engine.add([
            MediaItem(uri: Fixtures.missing()), MediaItem(uri: try Fixtures.empty()),
            MediaItem(uri: try Fixtures.garbage()),
        ])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 10))
        let status = recorder.lastStatus
        #expect(status?.state == .stopped)
        #expect(status?.error?.contains("every item") == true)
        // One event carries the stop and its reason: a client never sees "stopped" without why.
        let stops = recorder.all.compactMap { event -> PlayerStatus? in
            if case .statusChanged(let s) = event, s.state == .stopped { return s }
            return nil
        }
        #expect(stops.count == 1 && stops.allSatisfy { $0.error != nil }, "\(stops.map(\.error))")
        #expect(recorder.ended.count == 3, "one failure per item, no spinning: \(recorder.ended.count)")
    }

    @Test func twoHundredLoopsEndWithZeroDrift() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .red, withAudio: .aacMP4)
        let sink = NullAudioSink(mode: .untimed)
        let (engine, recorder) = try makeEngine(audio: sink, video: NullVideoSink(), untimed: true) {
            $0.trackEnd = .shortest
        }
        recorder.keepFrames = true
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: clip, loops: 200)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 120))
        #expect(sink.writtenFrames() == 200 * 48000, "audio timeline: \(sink.writtenFrames()) frames")
        let frames = recorder.presented
        #expect(frames.count == 200 * 25)
        // Every picture is due exactly where its play's audio puts it.
        var worst = 0.0
        for frame in frames {
            let expected = Double(frame.play - 1) + frame.itemTime
            worst = max(worst, abs(frame.timeline - expected))
        }
        #expect(worst < 1e-9, "A/V drift on the output timeline: \(worst) s")
        let lastEnd = (frames.last?.timeline ?? 0) + 0.04
        #expect(abs(lastEnd - Double(sink.writtenFrames()) / 48000) < 1e-9)
        print("untimed 200 loops: audio \(sink.writtenFrames()) frames, \(frames.count) pictures, drift \(worst) s")
    }
}

/// `--hwdec auto` on a machine where no device can be made ("fallback tested", not "hardware decoding
/// works"): the joins between clips and their loop seams are the same as with software decoding, sample for
/// sample and picture for picture, and the status names the decoder.
@Suite struct HWDecodeFallbackEngineTests {
    func run(hwdec: HWDecodeRegistry?) throws -> (Int64, [String], [PlayerStatus]) {
        let red = try Fixtures.video(seconds: 1, fps: 25, hue: .red, withAudio: .aacMP4)
        let blue = try Fixtures.video(seconds: 1, fps: 25, hue: .blue, withAudio: .aacMP4)
        let sink = NullAudioSink(mode: .untimed)
        let (engine, recorder) = try makeEngine(audio: sink, video: NullVideoSink(), untimed: true) {
            $0.trackEnd = .shortest
            $0.hwdec = hwdec
        }
        recorder.keepFrames = true
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: red, loops: 3), MediaItem(uri: blue, loops: 2)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 120))
        let pictures = recorder.presented.map { "\($0.id) \($0.play) \($0.itemTime) \($0.timeline)" }
        let statuses = recorder.all.compactMap { event -> PlayerStatus? in
            if case .statusChanged(let status) = event { return status }
            return nil
        }
        return (sink.writtenFrames(), pictures, statuses)
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri")))
    func joinsAndLoopSeamsAreUnchangedWhenHardwareFallsBack() throws {
        let software = try run(hwdec: nil)
        let auto = try run(hwdec: HWDecodeRegistry(setting: HWDecodeSetting(methods: .auto)))
        #expect(auto.0 == software.0 && auto.0 == 5 * 48000, "samples written: \(auto.0) vs \(software.0)")
        #expect(auto.1 == software.1 && auto.1.count == 5 * 25, "every picture at the same place")
        let decoders = Set(auto.2.compactMap(\.decoder))
        #expect(decoders.count == 1)
        let decoder = try #require(decoders.first)
        #expect(decoder.codec == "h264" && decoder.hwdec == nil && decoder.fallback?.contains("cannot create a device") == true)
        #expect(software.2.compactMap(\.decoder).allSatisfy { $0.fallback == nil && $0.hwdec == nil })
    }
}

@Suite struct EngineRateTests {
    /// Zero crossings per second of the left channel: the pitch.
    func crossingsPerSecond(_ samples: [Float], rate: Double = 48000) -> Double {
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / (Double(left.count) / rate)
    }

    @Test func doubleSpeedHalvesTheTimeAndKeepsThePitch() throws {
        let tone = try Fixtures.tone(frequency: 440, seconds: 2, format: .flac)
        let sink = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: sink, untimed: true)
        defer { engine.shutdown() }
        try engine.setRate(2)
        #expect(throws: PlayerError.self) { try engine.setRate(3) }
        try engine.add([MediaItem(uri: tone)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        let samples = sink.capturedSamples()
        let seconds = Double(samples.count / 2) / 48000
        let pitch = crossingsPerSecond(samples) / 2
        print("rate 2: 2 s of 440 Hz played in \(seconds) s at \(pitch) Hz")
        #expect(abs(seconds - 1) < 0.03)
        #expect(abs(pitch - 440) < 10)
        #expect(engine.status().rate == 2)
    }
}

@Suite struct EngineMixedMediaTests {
    @Test func differentRatesAndLayoutsShareOneStream() throws {
        let items = try [
            Fixtures.tone(frequency: 440, seconds: 1, format: .flac),
            Fixtures.tone(frequency: 550, seconds: 1, format: .wav, rate: 44100, channels: 1),
            Fixtures.tone(frequency: 660, seconds: 1, format: .flac, rate: 32000, channels: 6),
            Fixtures.tone(frequency: 770, seconds: 1, format: .aacMP4, rate: 44100, channels: 2),
        ]
        let sink = NullAudioSink(mode: .untimed, keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: sink, untimed: true)
        defer { engine.shutdown() }
        try engine.add(items.map { MediaItem(uri: $0) })
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        #expect(recorder.ended.map(\.reason) == [.eof, .eof, .eof, .eof])
        let starts = recorder.started.map(\.timeline)
        // Each item lasts its own second (± a resampler's rounding), with nothing in between.
        for (start, next) in zip(starts, starts.dropFirst()) { #expect(abs(next - start - 1) < 0.001) }
        let samples = sink.capturedSamples()
        #expect(abs(Double(samples.count / 2) / 48000 - 4) < 0.002)
        // No silence inserted at the joins: the signal never stays at zero for 2 ms.
        let left = stride(from: 0, to: samples.count, by: 2).map { abs(samples[$0]) }
        var run = 0, longest = 0
        for value in left.dropFirst(10).dropLast(10) {
            run = value < 1e-4 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest < 96, "a silent run of \(longest) frames")
    }

    @Test func stillImagesAreShownForTheirDuration() throws {
        let still = try Fixtures.still(hue: .cyan, format: .png)
        let jpeg = try Fixtures.still(hue: .yellow, format: .jpeg)
        let sink = NullAudioSink(mode: .untimed)
        let (engine, recorder) = try makeEngine(audio: sink, video: NullVideoSink(), untimed: true)
        defer { engine.shutdown() }
        let ids = try engine.add([MediaItem(uri: still, duration: 0.5), MediaItem(uri: jpeg, loops: 2)])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 30))
        #expect(recorder.started.map(\.timeline) == [0, 0.5, 10.5])
        #expect(recorder.presented.map(\.id) == [ids[0], ids[1], ids[1]])
        #expect(sink.writtenFrames() == Int64(20.5 * 48000))
    }
}

/// A video output whose window the user has closed.
final class ClosedWindowSink: VideoSink, @unchecked Sendable {
    func open() throws {}
    func show(_ frame: VideoFrame) {}
    func showBlack() {}
    func pump() {}
    func setFit(_ fit: VideoFit) {}
    func setFullscreen(_ fullscreen: Bool) {}
    func setRotation(_ rotation: VideoRotation) {}
    func screenshot(_ request: ScreenshotRequest) -> Screenshot? { nil }
    func close() {}
    var closeRequested: Bool { true }
}

@Suite struct EngineWindowTests {
    @Test func closingTheWindowIsReportedOnce() throws {
        let closed = EventRecorder()
        let (engine, _) = try makeEngine(audio: NullAudioSink(mode: .untimed), video: ClosedWindowSink(), untimed: true)
        {
            $0.onWindowClosed = { closed.record(.queueChanged(version: 0)) }
        }
        defer { engine.shutdown() }
        #expect(closed.wait(timeout: 5) { $0.count == 1 })
        #expect(!closed.wait(timeout: 0.2) { $0.count > 1 })
    }
}
