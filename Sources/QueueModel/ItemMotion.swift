// A still that moves ("Ken Burns"): over the time it is shown, the view glides from one frame of the
// picture to another, each given as fractions of the picture as seen (0–1, after its file's turn). The
// picture is zoomed uniformly so that the frame fits the space the picture has on screen, centred on the
// frame's centre and never so far that the space shows an empty edge. `auto` is a slow push in from the
// whole picture to its middle 84 %. Pure data; the wire form is QueueRPC's RPCMotion.

public struct ItemMotion: Sendable, Hashable, Codable {
    public var from: MotionFrame
    public var to: MotionFrame

    public init(from: MotionFrame, to: MotionFrame) {
        self.from = from
        self.to = to
    }

    public static let auto = ItemMotion(from: .whole, to: MotionFrame(x: 0.08, y: 0.08, width: 0.84, height: 0.84))

    /// The frame `progress` (0…1) of the way from `from` to `to`, eased in and out so the glide starts and
    /// stops gently.
    public func frame(at progress: Double) -> MotionFrame {
        let t = max(0, min(1, progress))
        let eased = t * t * (3 - 2 * t)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * eased }
        return MotionFrame(
            x: mix(from.x, to.x), y: mix(from.y, to.y), width: mix(from.width, to.width),
            height: mix(from.height, to.height))
    }

    /// Throws unless both frames lie inside the picture and are at least 5 % of it each way.
    public func validate() throws(QueueError) {
        for (name, frame) in [("from", from), ("to", to)] where !frame.isInsidePicture {
            throw .invalidMotion(
                "motion.\(name) must lie inside the picture: x, y >= 0, width and height 0.05-1, x + width and y + height <= 1")
        }
    }
}

/// A part of a picture, in fractions of its width and height as seen (0–1).
public struct MotionFrame: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let whole = MotionFrame(x: 0, y: 0, width: 1, height: 1)

    var isInsidePicture: Bool {
        let values = [x, y, width, height]
        return values.allSatisfy(\.isFinite) && x >= 0 && y >= 0 && width >= 0.05 && height >= 0.05
            && x + width <= 1.000_001 && y + height <= 1.000_001
    }
}
