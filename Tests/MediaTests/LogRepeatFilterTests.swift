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
        // Distinct in their words (texts that differ only in numbers count as one).
        let texts = (0..<50).map { "line " + String(repeating: "x", count: $0) }
        for (index, text) in texts.enumerated() {
            #expect(filter.admit(text, now: Double(index)) == text)
        }
        #expect(filter.admit(texts[49], now: 50) == nil, "a recent text is remembered")
    }

    @Test func linesThatDifferOnlyInTheirNumbersCountAsOneAndATinyTableStillForgets() {
        var filter = LogRepeatFilter(burst: 2, window: 10)
        let lines = (0..<6).map { "[h264 @ 0x7f\($0)a0] error while decoding MB \($0) \(40 + $0)" }
        let passed = lines.compactMap { filter.admit($0, now: 1) }
        #expect(passed == Array(lines.prefix(2)), "\(passed)")
        #expect(LogRepeatFilter.shape(of: lines[0]) == "[h# @ #] error while decoding MB # #")
        var tiny = LogRepeatFilter(burst: 1, window: 100, capacity: 2)
        for index in 0..<20 { _ = tiny.admit("text \(String(UnicodeScalar(97 + index)!))", now: Double(index)) }
        #expect(tiny.admit("text t", now: 21) == nil, "the newest is remembered")
        #expect(tiny.admit("text a", now: 22) == "text a", "the oldest was forgotten: the table stays small")
    }
}
