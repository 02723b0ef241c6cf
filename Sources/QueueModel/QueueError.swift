/// Everything the queue can refuse. An operation that throws leaves the queue exactly as it was.
/// (The mapping to JSON-RPC error codes lives in the server, in one file.)
public enum QueueError: Error, Equatable, Sendable, CustomStringConvertible {
    case itemNotFound(ItemID)
    case indexOutOfRange(index: Int, count: Int)
    /// A negative loop count (0 means forever).
    case invalidLoops(Int)
    /// start < 0, end <= start, duration <= 0, or a non-finite number; the message says which.
    case invalidWindow(String)
    /// A `sha256` that is not 64 hex digits.
    case invalidDigest(String)
    /// A fade or dip outside 0.1–5 s; the message says which.
    case invalidTransition(String)
    /// A motion frame outside the picture or too small; the message says which.
    case invalidMotion(String)

    public var description: String {
        switch self {
        case .itemNotFound(let id):
            "no item with id \(id) in the queue"
        case .indexOutOfRange(let index, let count):
            "index \(index) is out of range for a queue of \(count) item\(count == 1 ? "" : "s")"
        case .invalidLoops(let loops):
            "loops must be 0 (forever) or a positive count (got \(loops))"
        case .invalidWindow(let message):
            message
        case .invalidDigest(let text):
            "sha256 must be 64 hex digits (got \(text))"
        case .invalidTransition(let message), .invalidMotion(let message):
            message
        }
    }
}
