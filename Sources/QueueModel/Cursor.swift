/// One play of one item: which item, which play of it (1-based, within the pass) and which pass of the
/// queue (1-based).
///
/// A value rather than an index into the queue, so the engine can hold the cursor of what is playing and of
/// what it has prefetched while the user edits the queue underneath.
public struct Cursor: Sendable, Hashable, Codable, CustomStringConvertible {
    public var id: ItemID
    public var play: Int
    public var pass: Int

    public init(id: ItemID, play: Int, pass: Int) {
        self.id = id
        self.play = play
        self.pass = pass
    }

    public var description: String { "item \(id) play \(play) pass \(pass)" }
}
