// Pure functions on interleaved s16 audio for checking what a sink received: where a reference
// starts in a recording, whether the following frames match it, and where the silences are.
// Written for 30 s recordings (1.4 M frames) in debug builds: raw buffers, early exits.

public enum AudioAlignment {
    /// The first frame in which any channel's magnitude exceeds `threshold`; nil if all silent.
    public static func firstNonSilentFrame(_ samples: [Int16], channels: Int = 2, threshold: Int16 = 8) -> Int? {
        samples.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where abs(Int(buffer[index])) > Int(threshold) {
                return index / channels
            }
            return nil
        }
    }

    /// The last frame in which any channel's magnitude exceeds `threshold`; nil if all silent.
    public static func lastNonSilentFrame(_ samples: [Int16], channels: Int = 2, threshold: Int16 = 8) -> Int? {
        samples.withUnsafeBufferPointer { buffer in
            for index in stride(from: buffer.count - 1, through: 0, by: -1)
            where abs(Int(buffer[index])) > Int(threshold) {
                return index / channels
            }
            return nil
        }
    }

    /// Runs of at least `minimumFrames` silent frames (every channel within ±threshold), as frame
    /// ranges. A gap between two gapless tracks shows up here; so do leading/trailing silence.
    public static func silentRuns(
        _ samples: [Int16], channels: Int = 2, threshold: Int16 = 8,
        minimumFrames: Int = 1
    ) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        let frames = samples.count / channels
        samples.withUnsafeBufferPointer { buffer in
            for frame in 0..<frames {
                var silent = true
                for channel in 0..<channels where abs(Int(buffer[frame * channels + channel])) > Int(threshold) {
                    silent = false
                    break
                }
                if silent, start == nil { start = frame }
                if !silent, let begin = start {
                    if frame - begin >= minimumFrames { runs.append(begin..<frame) }
                    start = nil
                }
            }
        }
        if let begin = start, frames - begin >= minimumFrames { runs.append(begin..<frames) }
        return runs
    }

    /// The first frame offset ≥ `searchFrom` at which `needle` (e.g. the first 2048 frames of a
    /// reference) matches `haystack` with every sample within `tolerance`; nil if nowhere.
    /// Checks the needle's loudest sample first (a cheap filter that rejects silence and wrong
    /// phases), then the whole needle with an early exit.
    public static func locate<Needle: Collection>(
        _ needle: Needle, in haystack: [Int16], channels: Int = 2,
        tolerance: Int = 2, searchFrom: Int = 0
    ) -> Int?
    where Needle.Element == Int16 {
        let pattern = Array(needle)
        let needleFrames = pattern.count / channels
        let haystackFrames = haystack.count / channels
        guard needleFrames > 0, haystackFrames >= needleFrames else { return nil }
        var anchor = 0
        for index in 0..<needleFrames * channels where abs(Int(pattern[index])) > abs(Int(pattern[anchor])) {
            anchor = index
        }
        let anchorValue = Int(pattern[anchor])
        let sampleCount = needleFrames * channels
        return pattern.withUnsafeBufferPointer { p -> Int? in
            haystack.withUnsafeBufferPointer { h -> Int? in
                var frame = max(0, searchFrom)
                while frame + needleFrames <= haystackFrames {
                    let base = frame * channels
                    if abs(Int(h[base + anchor]) - anchorValue) <= tolerance {
                        var index = 0
                        while index < sampleCount, abs(Int(h[base + index]) - Int(p[index])) <= tolerance {
                            index += 1
                        }
                        if index == sampleCount { return frame }
                    }
                    frame += 1
                }
                return nil
            }
        }
    }

    /// Compares `expected` with `actual` starting at frame `offset` of `actual`, sample by sample.
    public static func compare(
        expected: [Int16], actual: [Int16], atFrame offset: Int, channels: Int = 2,
        tolerance: Int = 2
    ) -> AlignmentReport {
        let expectedFrames = expected.count / channels
        let actualFrames = actual.count / channels
        var compared = 0, matchedLeading = 0, mismatched = 0, missing = 0, maxDifference = 0
        var firstMismatch: Int?
        expected.withUnsafeBufferPointer { e in
            actual.withUnsafeBufferPointer { a in
                for frame in 0..<expectedFrames {
                    let target = offset + frame
                    guard target >= 0, target < actualFrames else {
                        missing += 1
                        if firstMismatch == nil { firstMismatch = frame }
                        continue
                    }
                    compared += 1
                    var frameDifference = 0
                    for channel in 0..<channels {
                        let difference = abs(Int(e[frame * channels + channel]) - Int(a[target * channels + channel]))
                        frameDifference = max(frameDifference, difference)
                    }
                    maxDifference = max(maxDifference, frameDifference)
                    if frameDifference > tolerance {
                        mismatched += 1
                        if firstMismatch == nil { firstMismatch = frame }
                    } else if firstMismatch == nil {
                        matchedLeading += 1
                    }
                }
            }
        }
        var context: [(expected: Int16, actual: Int16?)] = []
        if let first = firstMismatch {
            for channel in 0..<channels {
                let target = (offset + first) * channels + channel
                let actualSample: Int16? = target >= 0 && target < actual.count ? actual[target] : nil
                context.append((expected[first * channels + channel], actualSample))
            }
        }
        return AlignmentReport(
            expectedFrames: expectedFrames, offset: offset, comparedFrames: compared,
            matchedFrames: matchedLeading, mismatchedFrames: mismatched, missingFrames: missing,
            firstMismatchFrame: firstMismatch, maxDifference: maxDifference,
            tolerance: tolerance, mismatchSamples: context)
    }

    /// Largest sample magnitude (0 for empty input).
    public static func peak(_ samples: [Int16]) -> Int {
        samples.reduce(0) { max($0, abs(Int($1))) }
    }
}
