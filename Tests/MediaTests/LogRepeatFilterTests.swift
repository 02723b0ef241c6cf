// FFmpeg's repeated lines (a stream joined between keyframes, a damaged stream) pass a few times per window,
// and the next line after the window says how many were dropped; other texts are not held back.

import Media
import Testing

struct LogRepeatFilterTests {
    @Test func aTextRepeatedPassesItsBurstThenIsCountedAndToldAfterTheWindow() {
        var filter = LogRepeatFilter(burst: 3, window: 10)
        let passed = (0..<40).compactMap { filter.admit("non-existing PPS 0 referenced", now: Double($0) * 0.04) }
        #expect(passed.count == 3, "\(passed)")
        #expect(filter.admit("decode_slice_header error", now: 1.7) == "decode_slice_header error", "another text passes")
        #expect(filter.admit("non-existing PPS 0 referenced", now: 9.9) == nil, "still inside the window")
        #expect(
            filter.admit("non-existing PPS 0 referenced", now: 10.1)
                == "non-existing PPS 0 referenced (and 38 more like it)")
        #expect(filter.admit("non-existing PPS 0 referenced", now: 10.2) == "non-existing PPS 0 referenced")
    }

    @Test func manyDistinctTextsForgetTheStalestAndEveryNewTextPasses() {
        var filter = LogRepeatFilter(burst: 1, window: 100, capacity: 8)
        for index in 0..<50 {
            #expect(filter.admit("line \(index)", now: Double(index)) == "line \(index)")
        }
        #expect(filter.admit("line 49", now: 50) == nil, "a recent text is remembered")
    }
}
