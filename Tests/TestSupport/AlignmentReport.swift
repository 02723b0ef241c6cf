// The result of comparing expected audio with what was actually played (AudioAlignment.compare),
// with a description written to be read in a test failure message.

import Foundation

public struct AlignmentReport: Sendable, CustomStringConvertible {
    /// Frames of `expected`.
    public let expectedFrames: Int
    /// Frame in `actual` where `expected` frame 0 was placed.
    public let offset: Int
    /// Expected frames that had a counterpart in `actual` and were compared.
    public let comparedFrames: Int
    /// Leading expected frames that matched within tolerance, up to the first mismatch.
    public let matchedFrames: Int
    /// Compared frames that differed by more than the tolerance (anywhere, not just leading).
    public let mismatchedFrames: Int
    /// Expected frames with no counterpart in `actual` (it ended early / the offset was negative).
    public let missingFrames: Int
    /// Expected-frame index of the first frame that differed or was missing; nil = all matched.
    public let firstMismatchFrame: Int?
    /// Largest |expected − actual| over all compared samples.
    public let maxDifference: Int
    public let tolerance: Int
    /// Context for the first mismatch: (expected, actual) samples of that frame.
    public let mismatchSamples: [(expected: Int16, actual: Int16?)]

    /// True when every expected frame was present and matched within tolerance.
    public var matches: Bool { firstMismatchFrame == nil }

    public var description: String {
        var text =
            "alignment at frame \(offset): \(matchedFrames)/\(expectedFrames) leading frames match "
            + "(tolerance \(tolerance)), \(mismatchedFrames) mismatched, \(missingFrames) missing, "
            + "max difference \(maxDifference)"
        if let first = firstMismatchFrame {
            let pairs = mismatchSamples.map { "\($0.expected)→\($0.actual.map(String.init) ?? "none")" }
            text +=
                "; first mismatch at expected frame \(first) (actual frame \(offset + first), "
                + String(format: "%.4f", Double(first) / 48000) + " s at 48 kHz): "
                + pairs.joined(separator: ", ")
        }
        return text
    }
}
