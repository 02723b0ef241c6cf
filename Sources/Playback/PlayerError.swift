// Errors of player commands (queue edits throw QueueModel's QueueError).
import QueueModel

public enum PlayerError: Error, Equatable, Sendable, CustomStringConvertible {
    case queueEmpty
    case itemNotFound(ItemID)
    case badState(String)

    public var description: String {
        switch self {
        case .queueEmpty: return "the queue is empty"
        case .itemNotFound(let id): return "no item with id \(id) in the queue"
        case .badState(let message): return message
        }
    }
}
