// Valid files are never called damaged: a matrix of containers (Matroska, WebM, MP4, QuickTime, Matroska
// written live with no durations) × track shapes (sound longer than picture, picture longer, equal, sound
// only, picture only), each played once and looped, untimed on the null outputs. Every play must end `eof`,
// and the samples written say where each play ended: at a loop seam (trackEnd auto) the shortest track,
// the last play the longest — each within one picture (40 ms, 1920 samples). The media fuzz test says "damaged
// files never crash or hang"; this one says "valid files are never called damaged". The same seams on
// screen are checked by RealPathTests.validClipsLoopWithoutAFrozenSeam.

import Foundation
import Media
import Playback
import QueueModel
import TestSupport
import Testing

@Suite struct ValidMediaTests {
    static let frame = 0.04

    struct Played {
        var seconds: Double
        var starts: [Double]
        var ended: [(reason: EndReason, error: String?)]
    }

    func play(_ item: MediaItem) throws -> Played {
        let (frames, recorder) = try playUntimed(item)
        return Played(
            seconds: Double(frames) / 48_000, starts: recorder.started.map(\.timeline),
            ended: recorder.ended.map { ($0.reason, $0.error) })
    }

    static let matrix: [(ShapeContainer, TrackShape)] = ShapeContainer.allCases.flatMap { container in
        TrackShape.allCases.map { (container, $0) }
    }

    @Test(arguments: matrix)
    func everyPlayOfAValidFileEndsEOF(container: ShapeContainer, shape: TrackShape) throws {
        let clip = try Fixtures.shapedClip(container, shape, hue: .green)
        let label = "\(container) \(shape)"

        let once = try play(MediaItem(uri: clip))
        #expect(once.ended.map(\.reason) == [.eof], "\(label) once: \(once.ended)")
        #expect(abs(once.seconds - shape.longest) <= Self.frame, "\(label) once: \(once.seconds) s")

        let looped = try play(MediaItem(uri: clip, loops: 3))
        #expect(looped.ended.map(\.reason) == [.eof, .eof, .eof], "\(label) looped: \(looped.ended)")
        let seams = zip(looped.starts, looped.starts.dropFirst()).map { $1 - $0 }
        #expect(seams.count == 2 && seams.allSatisfy { abs($0 - shape.shortest) <= Self.frame }, "\(label) seams \(seams)")
        let expected = 2 * shape.shortest + shape.longest
        #expect(abs(looped.seconds - expected) <= 3 * Self.frame, "\(label) looped: \(looped.seconds) s, \(expected) s expected")
    }

    @Test(arguments: ShapeContainer.allCases, [TrackShape.soundLonger, .pictureLonger])
    func shortestAndLongestApplyToEveryPlay(container: ShapeContainer, shape: TrackShape) throws {
        let clip = try Fixtures.shapedClip(container, shape, hue: .green)
        let label = "\(container) \(shape)"
        for (trackEnd, length) in [(TrackEnd.shortest, shape.shortest), (.longest, shape.longest)] {
            let played = try play(MediaItem(uri: clip, loops: 3, trackEnd: trackEnd))
            #expect(played.ended.map(\.reason) == [.eof, .eof, .eof], "\(label) \(trackEnd): \(played.ended)")
            let seams = zip(played.starts, played.starts.dropFirst()).map { $1 - $0 }
            #expect(seams.allSatisfy { abs($0 - length) <= Self.frame }, "\(label) \(trackEnd): seams \(seams)")
            #expect(abs(played.seconds - 3 * length) <= 3 * Self.frame, "\(label) \(trackEnd): \(played.seconds) s")
        }
    }

    /// The damage check still catches damage: the same files cut short end `error`, not `eof`.
    @Test(arguments: [ShapeContainer.mkv, .webm, .mp4, .mov])
    func aTruncatedCopyIsStillAnError(container: ShapeContainer) throws {
        let clip = try Fixtures.shapedClip(container, .soundLonger, hue: .green)
        let size = try #require(FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let cut = try Fixtures.truncated(of: clip, keepBytes: size * 6 / 10)
        let played = try play(MediaItem(uri: cut))
        #expect(played.ended.map(\.reason) == [.error], "\(container): \(played.ended)")
    }
}
