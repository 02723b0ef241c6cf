// The size a play's picture is seen at: after its file's turn (a phone's portrait clip is taller than wide)
// and its pixels' aspect (anamorphic video), before any fit to the screen or the panel's own rotation.
public struct PictureSize: Sendable, Equatable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
