// Loop-count arguments: `loop N|forever|off` (passes through the queue) and `loops ID N|forever` (plays
// of one item). Protocol/README.md counts both the same way: 0 = forever, 1 = once; "off" is the same as 1.

import ArgumentParser

struct LoopCount: ExpressibleByArgument, Equatable {
    /// The API's count: 0 forever, N ≥ 1 that many.
    let count: Int64

    init(count: Int64) { self.count = count }

    init?(argument: String) {
        switch argument.lowercased() {
        case "forever", "inf", "infinite", "∞": count = 0
        case "off", "once": count = 1
        default:
            guard let value = Int64(argument), value >= 0 else { return nil }
            count = value
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["forever", "off", "1", "2", "3"]) }
}
