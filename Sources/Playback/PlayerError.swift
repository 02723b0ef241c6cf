// Errors of player commands (queue edits throw QueueModel's QueueError). The RPC layer maps each case to
// a JSON-RPC code in one place (QueueServer/ErrorMapping.swift).

import QueueModel

public enum PlayerError: Error, Equatable, Sendable, CustomStringConvertible {
    case queueEmpty
    case itemNotFound(ItemID)
    /// next, previous and seek need a current play.
    case nothingPlaying
    case rateOutOfRange(Double)
    /// A screenshot without a video output, or before anything was shown.
    case noVideoOutput
    case nothingOnScreen
    case overlayNotFound(Int)
    /// An edit guarded by `ifVersion` found the queue at another version (it changed meanwhile).
    case queueChanged(expected: UInt64, actual: UInt64)

    public var description: String {
        switch self {
        case .queueEmpty: return "the queue is empty"
        case .itemNotFound(let id): return "no item with id \(id) in the queue"
        case .nothingPlaying: return "nothing is playing"
        case .rateOutOfRange(let rate): return "rate must be between 0.5 and 2.0 (got \(rate))"
        case .noVideoOutput: return "no video output"
        case .nothingOnScreen: return "nothing is on screen"
        case .overlayNotFound(let id): return "no overlay with id \(id)"
        case .queueChanged(let expected, let actual):
            return "the queue changed meanwhile (version \(actual), not \(expected))"
        }
    }
}
