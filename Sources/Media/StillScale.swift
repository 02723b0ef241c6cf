// How small a still may be decoded: a camera's 48-MP photo shown on a 1080p panel needs ~2 MP of it. The
// rule keeps the picture's shorter side at least the output's longer side, so that it fills the output
// without being enlarged whatever the file's turn, the panel's rotation or the fit (cover crops the most).
// Pure arithmetic, no FFmpeg: the reader asks the JPEG decoder for its cheap reduced decode (lowres, the
// IDCT at 1/2, 1/4 or 1/8) and scales the rest of the way in the converter.

/// A size in pixels.
public struct PixelSize: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

enum StillScale {
    /// The smallest length the still's shorter side may be brought down to for `output`.
    static func neededSide(_ output: PixelSize) -> Int { max(output.width, output.height, 1) }

    /// The size to hand a still of `picture` out at for `output`: nil when it is small enough already.
    /// Both sides shrink by the same factor (the pixels' aspect is kept) and stay even (chroma halves).
    static func size(of picture: PixelSize, for output: PixelSize) -> PixelSize? {
        let shorter = min(picture.width, picture.height)
        let needed = neededSide(output)
        guard shorter > needed, shorter > 0 else { return nil }
        let factor = Double(needed) / Double(shorter)
        func scaled(_ side: Int) -> Int { max(2, Int((Double(side) * factor / 2).rounded(.up)) * 2) }
        return PixelSize(width: scaled(picture.width), height: scaled(picture.height))
    }

    /// How many halvings (up to `maxSteps`, the decoder's `max_lowres`) the decoder may make of `picture`
    /// and still leave it at least the needed size for `output`.
    static func decoderSteps(for picture: PixelSize, output: PixelSize, maxSteps: Int) -> Int {
        let shorter = min(picture.width, picture.height)
        let needed = neededSide(output)
        var steps = 0
        // FFmpeg rounds a reduced side up: (side + 2^k - 1) >> k.
        while steps < maxSteps, (shorter + (1 << (steps + 1)) - 1) >> (steps + 1) >= needed { steps += 1 }
        return steps
    }
}
