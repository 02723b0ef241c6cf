/// Why one play of an item stopped: the single answer the engine reports to `PlayQueue.finish`
/// (after mpv's `enum stop_play_reason`). The raw values are the wire names.
public enum EndReason: String, Sendable, Codable, CaseIterable {
    /// It played to its end (or to its `end` / `duration`).
    case eof
    /// The user moved on (`next`, `previous`, a jump).
    case skipped
    /// The user removed it from the queue while it played.
    case removed
    /// Playback was stopped.
    case stopped
    /// It could not be opened or decoded.
    case error
}
