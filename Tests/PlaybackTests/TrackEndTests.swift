// Where an audio+video item ends when its tracks differ (a 1.0 s picture track, a 1.3 s sound track),
// counted sample for sample on an untimed capture output: `shortest` ends every play at 1.0 s, `longest`
// plays every sample of the sound (1.3 s, the last picture held), and `auto` — the default — ends a play
// at its shortest track exactly when the same item plays again right after it (the loop seam), so only the
// last play of the loop keeps the full sound.

import Media
import Playback
import QueueModel
import TestSupport
import Testing

@Suite struct TrackEndTests {
    func play(
        _ item: MediaItem, configure: (inout EngineConfig) -> Void = { _ in }
    ) throws -> (frames: Int64, starts: [Double]) {
        let played = try playUntimed(item, configure: configure)
        return (played.frames, played.recorder.started.map(\.timeline))
    }

    @Test func defaultEndsLoopSeamsAtTheShortestTrackAndTheLastPlayAtTheLongest() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .magenta, withAudio: .aacMP4, audioSeconds: 1.3)
        let played = try play(MediaItem(uri: clip, loops: 3))
        #expect(played.starts == [0, 1, 2], "plays start one picture track apart: \(played.starts)")
        #expect(played.frames == 2 * 48_000 + 62_400, "two seams at 1.0 s, then the whole 1.3 s: \(played.frames)")
    }

    @Test func longestPlaysEverySampleOfTheSound() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .magenta, withAudio: .aacMP4, audioSeconds: 1.3)
        let played = try play(MediaItem(uri: clip, loops: 3, trackEnd: .longest))
        #expect(played.frames == 3 * 62_400, "\(played.frames)")
        #expect(played.starts == [0, 1.3, 2.6])
    }

    @Test func shortestAndTheDaemonDefaultApplyToEveryPlay() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .magenta, withAudio: .aacMP4, audioSeconds: 1.3)
        #expect(try play(MediaItem(uri: clip, loops: 3, trackEnd: .shortest)).frames == 3 * 48_000)
        #expect(try play(MediaItem(uri: clip, loops: 3)) { $0.trackEnd = .longest }.frames == 3 * 62_400)
        // The item's own choice beats the daemon's.
        #expect(
            try play(MediaItem(uri: clip, loops: 3, trackEnd: .shortest)) { $0.trackEnd = .longest }.frames == 3
                * 48_000)
    }

    @Test func forAnItemPlayedOnceAutoKeepsTheWholeFile() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .magenta, withAudio: .aacMP4, audioSeconds: 1.3)
        #expect(try play(MediaItem(uri: clip)).frames == 62_400)
    }
}
