// Smoke tests for the TestSupport harness itself: if these fail, failures elsewhere are about
// the environment (ffmpeg, PulseAudio, Xvfb), not about queued.

import Foundation
import Glibc
import TestSupport
import Testing

@Suite struct TestSupportSmokeTests {
    @Test func childProcessRunsWithAnEmptySignalMask() async throws {
        // From a task, where Foundation.Process children would inherit a blocked mask.
        let result = try await Task.detached { try ChildProcess.run("grep", ["SigBlk", "/proc/self/status"]) }.value
        #expect(result.status == 0)
        #expect(result.stdout.contains("0000000000000000"), "\(result.stdout)")
        let sleeper = try ChildProcess("sleep", ["60"])
        #expect(sleeper.isRunning)
        #expect(sleeper.terminate() == -SIGTERM)
    }

    @Test func losslessToneDecodesExactly() throws {
        let samples = try Fixtures.decodePCM(try Fixtures.tone(frequency: 440, seconds: 0.5, format: .flac))
        #expect(samples.count == 48000)
        #expect(AudioAlignment.peak(samples) == 16384)
        #expect(AudioAlignment.firstNonSilentFrame(samples) == 1)
    }

    @Test func aacReferenceHasDeclaredLength() throws {
        let path = try Fixtures.tone(frequency: 997, seconds: 1, format: .aacMP4)
        #expect(try Fixtures.decodePCM(path, trimToDeclaredDuration: true).count == 96000)
        #expect(try Fixtures.decodePCM(path).count > 96000)  // encoder padding before the trim
    }

    @Test func videoFramesCarryTheirNumberAndHue() throws {
        let path = try Fixtures.video(seconds: 1, fps: 10, hue: .cyan, withAudio: .aacMP4, audioSeconds: 1.5)
        let stamps = try Fixtures.decodeStamps(path)
        #expect(stamps.map(\.frame) == Array(0..<10))
        #expect(stamps.allSatisfy { $0.hue == .cyan })
        let audio = try ProbedStream.probe(path).first { $0.codecType == "audio" }
        #expect(audio?.duration == 1.5)
    }

    @Test func brokenInputsExist() throws {
        #expect(FileManager.default.fileExists(atPath: try Fixtures.empty()))
        #expect(FileManager.default.fileExists(atPath: try Fixtures.garbage()))
        #expect(FileManager.default.fileExists(atPath: try Fixtures.unsupported()))
        #expect(!FileManager.default.fileExists(atPath: Fixtures.missing()))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: try Fixtures.directoryPath(), isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test func playedToneComesBackBitExact() throws {
        let pulse = try PrivatePulseServer()
        let recorder = try SinkRecorder(server: pulse.server)
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let reference = try Fixtures.decodePCM(tone)
        try ChildProcess.check("paplay", ["--server=\(pulse.server)", tone])
        // paplay returns once the server has played it; wait for the monitor to deliver it all.
        #expect(
            waitUntil(timeout: 5) {
                guard let start = AudioAlignment.firstNonSilentFrame(recorder.snapshot()) else { return false }
                return recorder.recordedFrames >= start + 24000 + 2400
            })
        let recording = recorder.stop()
        let offset = try #require(
            AudioAlignment.locate(reference.prefix(4096), in: recording, tolerance: 0),
            "tone not found; pulse log:\n\(pulse.log())")
        let report = AudioAlignment.compare(expected: reference, actual: recording, atFrame: offset, tolerance: 0)
        #expect(report.matches, "\(report)")
    }

    @Test func xvfbStartsAndStops() throws {
        let xvfb = try XvfbServer()
        let socket = "/tmp/.X11-unix/X\(xvfb.displayNumber)"
        #expect(access(socket, F_OK) == 0)
        xvfb.stop()
        #expect(access(socket, F_OK) != 0)
    }
}
