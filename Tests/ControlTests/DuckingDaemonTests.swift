// Music under the rest, through the real daemon and a private PulseAudio server: a music zone plays a 440 Hz
// tone on its own stream; the main zone plays a still (no sound), a video with a 1 kHz tone, another still.
// The null sink's monitor is recorded, and the 440 Hz level is measured every 10 ms: full before the video,
// 18 dB down while it plays (reached by a smooth ramp of about half a second that starts when its sound
// does), back up after it. And under an emergency alert (text alone: no sound of its own) the music falls
// silent, and comes back when the alert expires.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct DuckingDaemonTests {
    /// The amplitude of `frequency` in `samples` (mono, 48 kHz) with a Hann window (Goertzel).
    static func level(_ samples: ArraySlice<Double>, frequency: Double) -> Double {
        let count = samples.count
        let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
        var (previous, beforePrevious) = (0.0, 0.0)
        for (offset, sample) in samples.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(offset) / Double(count - 1))
            let current = sample * window + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return sqrt(max(0, power)) / Double(count) * 4  // a full-scale sine reads about 1
    }

    @Test func theMusicZoneIsDuckedUnderTheMainZonesVideoWithSoundAndComesBack() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let pulse = try #require(daemon.pulse)
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded]))
        _ = try client.call(
            "layout.set",
            ["zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": "100%", "h": "100%"]], ["name": "music", "duck": -18, "duckRamp": 0.5]]])
        let tone = try Fixtures.tone(frequency: 440, seconds: 30, amplitude: 0.25)
        let still = try Fixtures.still(hue: .green)
        let video = try Fixtures.video(seconds: 3, hue: .red, withAudio: .flac, audioFrequency: 1000)
        let music = try daemon.client()
        music.zone = "music"
        _ = try music.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone)]))
        let recorder = try SinkRecorder(server: pulse.server)
        _ = try music.call(API.PlayerPlay.self, .init())
        _ = try client.call(
            API.QueueAdd.self,
            .init(items: [RPCItemInput(uri: still, duration: 2), RPCItemInput(uri: video), RPCItemInput(uri: still, duration: 2.5)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        let ended = try collectNotifications(watcher, timeout: 30) { notes in
            notes.filter { $0.method == "event.itemEnded" && $0.params?["zone"] == nil }.count >= 3
        }
        let recording = recorder.stop()
        #expect(ended.filter { $0.method == "event.itemEnded" && $0.params?["zone"] == nil }.count == 3, "\(daemon.log().suffix(3000))")
        let mono = stride(from: 0, to: recording.count - 1, by: 2).map { Double(recording[$0]) / 32768 }
        let window = 480  // 10 ms
        var music440: [Double] = []
        var video1k: [Double] = []
        for start in stride(from: 0, to: mono.count - window * 4, by: window) {
            let slice = mono[start..<(start + window * 4)]  // 40 ms windows, every 10 ms
            music440.append(Self.level(slice, frequency: 440))
            video1k.append(Self.level(slice, frequency: 1000))
        }
        // Where the music plays at all, and its full level.
        let full = music440.max() ?? 0
        #expect(full > 0.15, "the music is heard: \(full)")
        // The video's sound: from the first window where its tone is heard to the last.
        let videoWindows = video1k.indices.filter { video1k[$0] > 0.1 }
        let videoStart = try #require(videoWindows.first), videoEnd = try #require(videoWindows.last)
        #expect(Double(videoEnd - videoStart) * 0.01 > 2.5, "the video's 3 s of sound: \(videoStart)…\(videoEnd)")
        // Before the video: full. Well inside it: −18 dB (0.126). After it (its ramp back done): full again.
        let before = music440[max(0, videoStart - 60)..<max(0, videoStart - 10)]
        let during = music440[(videoStart + 80)..<(videoEnd - 10)]
        let after = music440[min(music440.count, videoEnd + 80)..<min(music440.count, videoEnd + 150)]
        func mean(_ values: ArraySlice<Double>) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let ratio = mean(during) / mean(before)
        print("ducking: music \(String(format: "%.3f", mean(before))) before the video, \(String(format: "%.3f", mean(during))) during it (\(String(format: "%.1f", 20 * log10(ratio))) dB), \(String(format: "%.3f", mean(after))) after")
        #expect(!before.isEmpty && !during.isEmpty && !after.isEmpty)
        #expect(abs(20 * log10(ratio) + 18) < 1.5, "−18 dB under the video: \(20 * log10(ratio)) dB")
        #expect(abs(mean(after) / mean(before) - 1) < 0.1, "back to full after it")
        // The ramp down: from 90 % to 15 % of full takes about a third of a second on a 0.5 s raised cosine,
        // it begins within a quarter second of the video's sound, and it never goes back up on the way.
        let top = mean(before)
        let startOfRamp = try #require(music440.indices.first { $0 > videoStart - 50 && music440[$0] < 0.9 * top })
        let endOfRamp = try #require(music440.indices.first { $0 > startOfRamp && music440[$0] < 0.15 * top })
        let rampSeconds = Double(endOfRamp - startOfRamp) * 0.01
        let lag = Double(startOfRamp - videoStart) * 0.01
        print("ducking: ramp 90 % → 15 % in \(rampSeconds) s, starting \(lag) s after the video's sound")
        #expect(rampSeconds > 0.2 && rampSeconds < 0.5, "the ramp took \(rampSeconds) s")
        #expect(abs(lag) <= 0.25, "the ramp began \(lag) s from the video's sound")
        let ramp = music440[startOfRamp...endOfRamp]
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $1 <= $0 * 1.05 }, "the ramp goes one way")
    }

    @Test func theMusicIsSilentUnderAnAlertAndComesBackAfterIt() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let pulse = try #require(daemon.pulse)
        let client = try daemon.client()
        _ = try client.call(
            "layout.set",
            ["zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": "100%", "h": "100%"]], ["name": "music", "duck": -18, "duckRamp": 0.3]]])
        let music = try daemon.client()
        music.zone = "music"
        _ = try music.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: try Fixtures.tone(frequency: 440, seconds: 30, amplitude: 0.25))]))
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: try Fixtures.still(hue: .green), duration: 600)]))
        let recorder = try SinkRecorder(server: pulse.server)
        _ = try music.call(API.PlayerPlay.self, .init())
        _ = try client.call(API.PlayerPlay.self, .init())
        // A second and a half of music, then the alert until its expiry (2 to 3 s: RFC 3339 has whole seconds).
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { recorder.recordedFrames >= 72_000 })
        let raisedAt = recorder.recordedFrames
        _ = try client.call(
            API.AlertRaise.self, .init(id: "evacuate", text: "Leave by the nearest exit", expires: AlertDaemonTests.rfc3339(Date().addingTimeInterval(3))))
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { (try? client.call(API.AlertList.self, NoParams()).alerts.isEmpty) == true })
        let clearedAt = recorder.recordedFrames
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { recorder.recordedFrames >= clearedAt + 72_000 })
        let recording = recorder.stop()
        let mono = stride(from: 0, to: recording.count - 1, by: 2).map { Double(recording[$0]) / 32768 }
        func level(_ from: Int, _ to: Int) -> Double {
            guard from >= 0, to <= mono.count, to - from >= 1920 else { return -1 }
            return Self.level(mono[from..<to], frequency: 440)
        }
        // Before: full. From half a second after the raise to the expiry's second: silent. A second after: full.
        let before = level(raisedAt - 24_000, raisedAt)
        let under = level(raisedAt + 48_000, clearedAt - 48_000)
        let after = level(clearedAt + 48_000, clearedAt + 72_000)
        print("music under an alert: \(String(format: "%.4f", before)) before, \(String(format: "%.4f", under)) under it, \(String(format: "%.4f", after)) after")
        #expect(before > 0.15, "the music plays before the alert: \(before)")
        #expect(under >= 0 && under < before / 100, "silent (−40 dB or less) under the alert: \(under) of \(before)")
        #expect(abs(after / before - 1) < 0.1, "back to full after it: \(after) of \(before)")
    }
}
