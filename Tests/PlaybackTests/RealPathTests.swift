// The engine on the real outputs: a private PulseAudio server with a null sink (its monitor recorded) and
// SDL on its offscreen driver (every presented picture read back). These tests keep real time, so they
// run one at a time (one serialized suite; the video ones in RealVideoPathTests.swift).
//
// Gapless audio: the test proves by alignment against each file's own decode that not one sample was
// inserted or dropped at any boundary.

import AudioPulse
import Logging
import Playback
import QueueModel
import TestSupport
import Testing

@Suite(.serialized) struct RealPathTests {
    /// Plays `items` through PulseAudio and returns what the null sink's monitor heard.
    func playAndRecord(_ items: [MediaItem]) throws -> (recording: [Int16], recorder: EventRecorder) {
        let pulse = try PrivatePulseServer()
        defer { pulse.stop() }
        let recorder = try SinkRecorder(server: pulse.server)
        let sink = try PulseAudioSink(config: PulseConfig(server: pulse.server), logger: Logger(label: "test.pulse"))
        let (engine, events) = try makeEngine(audio: sink, untimed: false)
        try engine.add(items)
        try engine.play()
        let done = events.waitUntilDone(timeout: 120)
        engine.shutdown()
        #expect(done, "playback did not finish")
        return (recorder.stop(), events)
    }

    func expectSeamless(heard: [Int16], expected: [Int16], tolerance: Int, label: String) {
        guard let start = AudioAlignment.locate(expected.prefix(4096), in: heard, tolerance: tolerance) else {
            Issue.record("\(label): the first clip was not found in the recording")
            return
        }
        let report = AudioAlignment.compare(expected: expected, actual: heard, atFrame: start, tolerance: tolerance)
        print(
            "\(label): \(expected.count / 2) frames expected, matched \(report.matchedFrames) from frame \(start), max difference \(report.maxDifference)"
        )
        #expect(report.matches, "\(label): \(report)")
        // Nothing after the queue's end but silence: no repeated or extra material.
        let tail = heard.dropFirst((start + expected.count / 2) * 2)
        #expect(tail.allSatisfy { abs(Int($0)) <= tolerance }, "\(label): sound after the end of the queue")
    }

    @Test func losslessClipsAndALoopJoinSampleExactly() throws {
        let clips = try [440.0, 660, 880].map { try Fixtures.tone(frequency: $0, seconds: 2, format: .flac) }
        let looped = try Fixtures.tone(frequency: 550, seconds: 1, format: .wav)
        let (heard, events) = try playAndRecord(clips.map { MediaItem(uri: $0) } + [MediaItem(uri: looped, loops: 5)])
        var expected: [Int16] = []
        for path in clips + Array(repeating: looped, count: 5) { expected += try Fixtures.decodePCM(path) }
        expectSeamless(heard: heard, expected: expected, tolerance: 0, label: "flac/wav via PulseAudio")
        #expect(events.started.map(\.play) == [1, 1, 1, 1, 2, 3, 4, 5])
    }

    @Test func aacInMP4JoinsAndLoopsWithoutPaddingGaps() throws {
        let clips = try [440.0, 660, 880].map { try Fixtures.tone(frequency: $0, seconds: 2, format: .aacMP4) }
        let looped = try Fixtures.tone(frequency: 550, seconds: 1, format: .aacMP4)
        let (heard, _) = try playAndRecord(clips.map { MediaItem(uri: $0) } + [MediaItem(uri: looped, loops: 5)])
        var expected: [Int16] = []
        for path in clips + Array(repeating: looped, count: 5) {
            expected += try Fixtures.decodePCM(path, trimToDeclaredDuration: true)
        }
        expectSeamless(heard: heard, expected: expected, tolerance: 1, label: "AAC-in-MP4 via PulseAudio")
    }
}
