// How a decoded picture is to be seen, as its file says: turned (a phone held upright writes a display
// matrix; a phone's photo an EXIF orientation), possibly mirrored, and with pixels that may not be square
// (anamorphic PAL/NTSC). Pure: no FFmpeg. Made by Media per picture, applied by the video sink when it
// draws (no pixel is converted for it).

/// A mirror (left–right, applied first) then a clockwise quarter-turn: the eight ways a picture can lie.
public struct PictureOrientation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Clockwise quarter turns to apply, 0…3.
    public var quarterTurns: Int
    /// Mirror left–right before turning.
    public var mirrored: Bool

    public static let upright = PictureOrientation(quarterTurns: 0, mirrored: false)

    public init(quarterTurns: Int, mirrored: Bool = false) {
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.mirrored = mirrored
    }

    /// From an EXIF Orientation value (1…8, TIFF 6.0 / Exif 2.3 §4.6.4): where the stored rows and columns
    /// must go to be seen upright. nil for any other value.
    public init?(exif: Int) {
        switch exif {
        case 1: self.init(quarterTurns: 0)
        case 2: self.init(quarterTurns: 0, mirrored: true)
        case 3: self.init(quarterTurns: 2)
        case 4: self.init(quarterTurns: 2, mirrored: true)  // mirrored top to bottom
        case 5: self.init(quarterTurns: 3, mirrored: true)  // transposed
        case 6: self.init(quarterTurns: 1)
        case 7: self.init(quarterTurns: 1, mirrored: true)  // transversed
        case 8: self.init(quarterTurns: 3)
        default: return nil
        }
    }

    /// From a display matrix's rotation as FFmpeg reports it (`av_display_rotation_get`: degrees
    /// counter-clockwise, so a phone's portrait clip says -90) rounded to the nearest quarter turn, and
    /// whether the matrix mirrors.
    public init(counterClockwiseDegrees degrees: Double, mirrored: Bool) {
        guard degrees.isFinite else {
            self.init(quarterTurns: 0, mirrored: mirrored)
            return
        }
        self.init(quarterTurns: Int((-degrees / 90).rounded()), mirrored: mirrored)
    }

    /// The picture's width and height swap when it is seen.
    public var swapsSides: Bool { quarterTurns % 2 == 1 }

    /// Turned a further `quarterTurns` clockwise (a panel on its side adds its own turn).
    public func turned(by quarterTurns: Int) -> PictureOrientation {
        PictureOrientation(quarterTurns: self.quarterTurns + quarterTurns, mirrored: mirrored)
    }

    public var description: String { "\(quarterTurns * 90)°" + (mirrored ? " mirrored" : "") }

    /// The size a picture is seen at: its pixels stretched to their aspect (`sampleAspect` > 1 widens, < 1
    /// heightens, as other players do), then turned.
    public static func displayedSize(
        width: Int, height: Int, sampleAspect: Double, orientation: PictureOrientation
    ) -> (width: Int, height: Int) {
        var w = width
        var h = height
        if sampleAspect.isFinite, sampleAspect > 0, abs(sampleAspect - 1) > 1e-6 {
            if sampleAspect > 1 {
                w = max(1, Int((Double(width) * sampleAspect).rounded()))
            } else {
                h = max(1, Int((Double(height) / sampleAspect).rounded()))
            }
        }
        return orientation.swapsSides ? (h, w) : (w, h)
    }
}
