// Which edges of a GPIO line fire a rule. A button's contacts bounce: one press is an edge and then a few
// more within milliseconds, and the release bounces too. An edge counts only when the line was quiet (no
// edge of either kind) for the rule's debounce before it — the first contact fires at once (no waiting for
// the line to settle, so no latency is added), its bounces and the release's do not. Pure: the runner keeps
// one per rule and feeds it every edge of the rule's line, with the kernel's timestamps.

import GPIO

/// The edges a rule wants.
public enum GPIOEdges: String, Sendable, Equatable, Hashable {
    case falling, rising, both

    func includes(_ edge: GPIOEdge) -> Bool {
        switch self {
        case .both: true
        case .falling: edge == .falling
        case .rising: edge == .rising
        }
    }
}

public struct EdgeDebounce: Sendable, Equatable {
    /// When the line's last edge came (monotonic seconds), counted or not.
    private var lastEdge: Double?

    public init() {}

    /// Whether `edge` at `time` fires a rule wanting `edges` with `debounce` seconds of quiet before it.
    public mutating func admit(_ edge: GPIOEdge, at time: Double, edges: GPIOEdges, debounce: Double) -> Bool {
        defer { lastEdge = time }
        if let lastEdge, time - lastEdge < debounce { return false }
        return edges.includes(edge)
    }
}
