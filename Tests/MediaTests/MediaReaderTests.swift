// MediaReader against real files made by the ffmpeg CLI: sample-exact audio, the gapless trim of AAC,
// timing decisions, pictures, and one test per kind of broken input.

import Glibc
import Media
import TestSupport
import Testing

/// Reads all audio of a reader and converts it the way the PulseAudio sink does (x·32768, rounded).
func readAllAudio(_ reader: MediaReader) throws -> [Int16] {
    var samples: [Int16] = []
    while let chunk = try reader.readAudio() {
        samples.append(contentsOf: chunk.map { Int16(clamping: Int(lrintf($0 * 32768))) })
    }
    return samples
}

@Suite struct MediaReaderTests {
    @Test func losslessAudioDecodesBitExact() throws {
        for format in [AudioFixtureFormat.flac, .wav] {
            let path = try Fixtures.tone(frequency: 440, seconds: 1.5, format: format)
            let reader = try MediaReader(path: path)
            #expect(reader.hasAudio && !reader.hasVideo)
            let ours = try readAllAudio(reader)
            let reference = try Fixtures.decodePCM(path)
            #expect(ours.count == reference.count)
            #expect(ours == reference, "\(format): decoded samples differ from ffmpeg's")
        }
    }

    @Test func aacInMP4IsTrimmedToTheDeclaredDuration() throws {
        let path = try Fixtures.tone(frequency: 523.25, seconds: 2, format: .aacMP4)
        let ours = try readAllAudio(MediaReader(path: path))
        let reference = try Fixtures.decodePCM(path, trimToDeclaredDuration: true)
        let untrimmed = try Fixtures.decodePCM(path)
        #expect(untrimmed.count > reference.count, "FFmpeg 5.1 leaves encoder padding at the end")
        #expect(ours.count == reference.count)
        let report = AudioAlignment.compare(expected: reference, actual: ours, atFrame: 0, tolerance: 1)
        #expect(report.matches, "\(report)")
    }

    @Test func resamplesOtherRatesAndLayouts() throws {
        let path = try Fixtures.tone(frequency: 440, seconds: 1, format: .flac, rate: 44100, channels: 1)
        let ours = try readAllAudio(MediaReader(path: path))
        // 1 s at 44.1 kHz mono becomes 1 s at 48 kHz stereo (± the resampler's rounding).
        #expect(abs(ours.count / 2 - 48000) <= 2)
    }

    @Test func windowCutsSampleExactly() throws {
        let path = try Fixtures.tone(frequency: 440, seconds: 2, format: .flac)
        var options = MediaReaderOptions()
        options.start = 0.5
        options.end = 1.25
        let ours = try readAllAudio(MediaReader(path: path, options: options))
        let reference = try Fixtures.decodePCM(path)
        #expect(ours.count == 36000 * 2)
        #expect(Array(reference[(24000 * 2)..<(60000 * 2)]) == ours)
    }

    @Test func shortestTrackPolicyEndsWithTheVideo() throws {
        let path = try Fixtures.video(seconds: 1, hue: .red, withAudio: .aacMP4, audioSeconds: 1.4)
        var options = MediaReaderOptions()
        options.shortestTrack = true
        let shortest = try MediaReader(path: path, options: options)
        #expect(abs((shortest.duration ?? 0) - 1.0) < 0.001)
        let audio = try readAllAudio(shortest)
        #expect(audio.count == 48000 * 2)
        options.shortestTrack = false
        let longest = try MediaReader(path: path, options: options)
        #expect(abs((longest.duration ?? 0) - 1.4) < 0.03)
    }

    @Test func picturesCarryItemTimesAndAllFramesArrive() throws {
        let path = try Fixtures.video(seconds: 2, fps: 25, hue: .blue)
        let reader = try MediaReader(path: path)
        var times: [Double] = []
        while let frame = try reader.readVideo() {
            times.append(frame.pts)
            #expect(frame.width == 320 && frame.height == 240)
        }
        #expect(times.count == 50)
        #expect(times.first == 0)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.04) < 0.001 })
        #expect(abs((reader.videoEnd ?? 0) - 2.0) < 0.001)
    }

    @Test func stillImageIsOnePictureShownForItsDuration() throws {
        for format in [StillImageFormat.png, .jpeg] {
            let path = try Fixtures.still(hue: .green, format: format)
            var options = MediaReaderOptions()
            options.stillDuration = 3
            let reader = try MediaReader(path: path, options: options)
            #expect(reader.isStill && reader.hasVideo && !reader.hasAudio)
            #expect(reader.duration == 3)
            #expect(try reader.readVideo() != nil)
            #expect(try reader.readVideo() == nil)
        }
    }

    @Test(arguments: BrokenInput.allCases)
    func brokenInputFailsWithAClearMessage(_ input: BrokenInput) throws {
        let path = try input.make()
        do throws(MediaError) {
            let reader = try MediaReader(path: path)
            // Truncated files open (their index survives) and fail, or end, while reading.
            var more = true
            while more {
                let audio = try reader.readAudio()
                let video = try reader.readVideo()
                more = audio != nil || video != nil
            }
            Issue.record("\(input): no error for \(path)")
        } catch {
            #expect(error.description.contains(path), "message names the file: \(error)")
            #expect(!error.message.isEmpty)
        }
    }
}

@Suite struct MatroskaDurationTagTests {
    @Test func readsTheTagsAsFFmpegAndMkvmergeWriteThem() {
        #expect(MatroskaDurationTag.seconds("00:00:02.300000000") == 2.3)
        #expect(MatroskaDurationTag.seconds("01:02:03.500000000") == 3723.5)
        #expect(MatroskaDurationTag.seconds("00:00:01.007000000") == 1.007)
    }

    @Test func refusesWhatIsNotADuration() {
        for text in ["", "2.3", "00:00", "00:61:00.0", "00:00:61.0", "-1:00:00.0", "00:00:00.000000000", "a:b:c",
            "99999999999999999999:00:00.0", "00:00:1e3"]
        {
            #expect(MatroskaDurationTag.seconds(text) == nil, "\(text)")
        }
    }
}

@Suite struct ItemTimingTests {
    @Test func shortestEndsAtTheEarliestDeclaredEndAndLongestOnlyWhenEveryEndIsKnown() {
        let both = ItemTiming(
            audioEnd: 2.3, audioEndIsExact: false, videoEnd: 2.0, windowEnd: nil, hasAudio: true, hasVideo: true,
            shortestTrack: true)
        #expect(both.end == 2.0 && both.audioCut == 2.0)
        var longest = both
        longest.shortestTrack = false
        #expect(longest.end == 2.3)
        #expect(longest.audioCut == nil, "a coarse end of the last track is not trusted to the sample")
        let undeclaredSound = ItemTiming(
            audioEnd: nil, videoEnd: 2.0, windowEnd: nil, hasAudio: true, hasVideo: true, shortestTrack: false)
        #expect(undeclaredSound.end == nil, "longest: unknown until the sound is read through")
        let windowed = ItemTiming(
            audioEnd: 2.3, videoEnd: 2.0, windowEnd: 1.5, hasAudio: true, hasVideo: true, shortestTrack: false)
        #expect(windowed.end == 1.5 && windowed.audioCut == 1.5)
    }
}

@Suite struct LookAheadTests {
    /// Under shortest track, an empty sound track beside a picture declares nothing and has no packet:
    /// reading ahead finds the file's end and the picture alone decides (it is not cut at 0).
    @Test func anEmptyTrackIsNoEndUnderShortest() throws {
        let path = try Fixtures.make(
            "video-with-empty-audio.mkv",
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo",
                "-map", "0:v", "-map", "1:a", "-frames:a", "0", "-c:v", "libx264", "-c:a", "flac", "-t", "1",
            ])
        var options = MediaReaderOptions()
        options.shortestTrack = true
        let reader = try MediaReader(path: path, options: options)
        var pictures = 0
        while try reader.readVideo() != nil { pictures += 1 }
        #expect(pictures == 25)
    }

    /// A file written live (no durations anywhere) whose picture is shorter: under shortest track the
    /// sound stops at the picture's end even when it is read first, all of it before any picture.
    @Test func theSoundStopsAtThePicturesEndEvenReadFirst() throws {
        let clip = try Fixtures.shapedClip(.liveMKV, .soundLonger, hue: .green)
        var options = MediaReaderOptions()
        options.shortestTrack = true
        let reader = try MediaReader(path: clip, options: options)
        #expect(reader.timing.audioEnd == nil && reader.timing.videoEnd == nil)
        var frames = 0
        while let chunk = try reader.readAudio() { frames += chunk.count / 2 }
        #expect(frames == 48_000, "the sound cut at the picture's 1.0 s: \(frames) frames")
    }
}
