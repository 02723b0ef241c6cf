// The reported valid clip through the daemon, as a user ran it: 2.0 s of H.264 picture and 2.3 s of FLAC
// sound in Matroska, `--item-loops 3`. Every play ends `eof` (it ended `error: … (truncated?)` each time),
// timed and untimed. ValidMediaTests holds the whole matrix of containers and shapes.

import Foundation
import TestSupport
import Testing

@Suite struct ValidMediaDaemonTests {
    @Test(arguments: [false, true])
    func matroskaWithLongerSoundPlaysEveryLoopToEOF(untimed: Bool) throws {
        let clip = try Fixtures.make(
            "longaudio.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x3366aa:s=640x360:r=30:d=2", "-f", "lavfi", "-i",
                "sine=f=440:duration=2.3:sample_rate=48000", "-ac", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-c:a", "flac",
            ])
        let result = try ChildProcess.run(
            BuiltProduct.path("queued"),
            [
                "--no-socket", "--no-state", "--audio", "null", "--video", "null", "--exit-when-done",
                "--log-level", "info", "--item-loops", "3",
            ] + (untimed ? ["--untimed"] : []) + [clip],
            timeout: 60)
        #expect(result.status == 0, "queued exited with \(result.status):\n\(result.stderr.suffix(2000))")
        #expect(
            DamagedMediaDaemonTests.events(in: result.stderr) == [
                "start 1", "end 1 eof", "start 1", "end 1 eof", "start 1", "end 1 eof",
            ], "\(result.stderr.suffix(2000))")
        #expect(!result.stderr.contains("truncated?"))
    }
}
