/// Where an item stands in the current queue pass.
public enum ItemState: Sendable, Equatable, Codable {
    case queued
    case playing
    case played
    /// The last attempt failed; the message is the engine's, for the user.
    case failed(message: String)
}

/// One item in the queue: the request plus what playback has learned about it.
public struct QueueEntry: Sendable, Equatable, Codable, Identifiable {
    public let id: ItemID
    public var item: MediaItem
    /// Plays finished (any reason except error) in the current queue pass; reset when a new pass begins.
    public var playsDone: Int
    public var state: ItemState
    /// Seconds, once the engine has probed the file.
    public var knownDuration: Double?
    /// The picture's size as seen, once the engine has opened (or shown) it; nil for sound only.
    public var knownSize: PictureSize?

    public init(
        id: ItemID, item: MediaItem, playsDone: Int = 0, state: ItemState = .queued, knownDuration: Double? = nil
    ) {
        self.id = id
        self.item = item
        self.playsDone = playsDone
        self.state = state
        self.knownDuration = knownDuration
    }
}
