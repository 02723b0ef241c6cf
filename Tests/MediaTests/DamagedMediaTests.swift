// Damaged files at the Media layer: each fails with a MediaError that says what went wrong, and nothing
// is freed twice (these were a SIGSEGV and a silent "played without a picture").

import Foundation
import Logging
import Media
import TestSupport
import Testing

@Suite struct DamagedMediaTests {
    @Test func streamInfoThatCannotBeReadIsAnErrorNotACrash() throws {
        let path = try Fixtures.unreadableStreamInfoMKV()
        // Repeated: a double close corrupts the heap and may only crash on a later open.
        for _ in 0..<20 {
            #expect {
                _ = try MediaReader(path: path)
            } throws: { error in
                (error as? MediaError)?.operation == "find stream info"
            }
        }
    }

    @Test func aStillWhoseDataIsDamagedYieldsNoPictureButAnError() throws {
        let reader = try MediaReader(path: try Fixtures.damagedPNG())
        #expect(reader.isStill)
        #expect {
            _ = try reader.readVideo()
        } throws: { error in
            (error as? MediaError)?.message.hasPrefix("the image could not be decoded") == true
        }
    }

    /// Not damage: a valid video whose audio track has no packet at all plays its pictures with silence.
    @Test func anEmptyAudioTrackBesideAGoodVideoIsSilenceNotAnError() throws {
        let path = try Fixtures.make(
            "video-with-empty-audio.mkv",
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo",
                "-map", "0:v", "-map", "1:a", "-frames:a", "0", "-c:v", "libx264", "-c:a", "flac", "-t", "1",
            ])
        let reader = try MediaReader(path: path)
        #expect(reader.hasAudio && reader.hasVideo)
        var pictures = 0
        while try reader.readVideo() != nil { pictures += 1 }
        var frames = 0
        while let chunk = try reader.readAudio() { frames += chunk.count / 2 }
        #expect(pictures == 25)
        #expect(frames == 0 || frames == 48_000, "silence for the pictures' length, or none: \(frames)")
    }

    @Test func everyMutationOfEverySeedOpensOrFailsCleanly() throws {
        // In-process and quick: a few hundred damaged files read to the end through MediaReader. The
        // daemon-level fuzz test checks the same media against the event rule.
        // Hundreds of damaged files make FFmpeg complain on every one: not worth reading here.
        FFmpegLog.install(Logger(label: "queued.ffmpeg") { _ in SwiftLogNoOpLogHandler() }, level: .critical)
        var opened = 0, failed = 0
        let files = try TemporaryDirectory(prefix: "queued-mutant")
        for (index, seed) in try Fixtures.fuzzSeeds().enumerated() {
            guard let original = FileManager.default.contents(atPath: seed.path) else { continue }
            for variant in 0..<40 {
                let (bytes, _) = MediaMutator.mutate(Array(original), seed: UInt64(index * 1000 + variant))
                let path = files.path + "/\(index)-\(variant)." + (seed.path as NSString).pathExtension
                FileManager.default.createFile(atPath: path, contents: Data(bytes))
                do {
                    var options = MediaReaderOptions()
                    options.stillDuration = 0.1
                    let reader = try MediaReader(path: path, options: options)
                    while try reader.readAudio() != nil {}
                    while try reader.readVideo() != nil {}
                    opened += 1
                } catch {
                    failed += 1
                }
            }
        }
        print("media mutants read in-process: \(opened) read through, \(failed) failed with a MediaError")
        #expect(opened > 0 && failed > 0, "the mutations should damage some files and spare others")
    }
}
