// The loop seams of valid clips whose tracks differ, on screen: each container × shape of ValidMediaTests
// played twice (trackEnd auto) on PulseAudio + SDL offscreen. The seam ends the first play at its shortest
// track (within a frame) and joins the second: every picture shown in order, none black, and on the audio
// clock no picture held longer than one frame interval (+5 ms; + the file's own gap between its first sound
// and first picture) — a play failed and restarted at the seam (the "truncated?" bug) held the last
// picture 133–150 ms.

import Playback
import QueueModel
import TestSupport
import Testing

extension RealPathTests {
    static let seamShapes: [(ShapeContainer, TrackShape)] = ShapeContainer.allCases.flatMap { container in
        [TrackShape.soundLonger, .pictureLonger, .equal, .pictureOnly].map { (container, $0) }
    }

    @Test(arguments: seamShapes)
    func validClipsLoopWithoutAFrozenSeam(container: ShapeContainer, shape: TrackShape) throws {
        let clip = try Fixtures.shapedClip(container, shape, hue: .yellow)
        let (pictures, events, _) = try playAndWatch([MediaItem(uri: clip, loops: 2)])
        let label = "\(container) \(shape)"
        #expect(events.ended.map(\.reason) == [.eof, .eof], "\(label): \(events.ended)")
        let starts = events.started.map(\.timeline)
        try #require(starts.count == 2, "\(label): \(starts.count) plays")
        let seam = starts[1] - starts[0]
        #expect(abs(seam - shape.shortest) <= 0.04, "\(label): the seam at \(seam) s, not at the shortest track")
        // Where the file's first picture sits after its first sound (WebM: Opus starts 14 ms before VP9): the
        // pictures of the first play are those that start before the seam.
        let offset = events.presented.first?.itemTime ?? 0
        let allPictures = Int(((shape.lengths.picture ?? 0) * 25).rounded())
        let firstPictures = (0..<allPictures).filter { offset + Double($0) * 0.04 < seam - 1e-6 }.count
        checkJoins(
            pictures, plays: [(.yellow, firstPictures, 0.04 + offset + 0.025), (.yellow, allPictures, 0.04)],
            label: label)
        let due = events.presented.map(\.timeline)
        let holds = zip(due, due.dropFirst()).map { $1 - $0 }
        #expect(
            due.count == firstPictures + allPictures && holds.allSatisfy { $0 <= 0.04 + offset + 0.005 },
            "\(label): \(due.count) pictures, longest hold on the clock \(holds.max() ?? 0) s")
    }
}
