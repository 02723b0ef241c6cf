// The event rule for a queue played once through, checked from the event stream alone: for every item,
// exactly one itemStarted before exactly one itemEnded, or only itemEnded with reason `error` when it never
// showed a picture nor played a sample; and no event of an item before the previous item's itemEnded.

import Foundation
import QueueRPC

struct EventRuleChecker {
    enum Phase { case started, ended }
    struct Ended {
        let id: Int64
        let reason: String
        let error: String?
        /// Seconds since the previous item ended (or since the checker began): what this item took.
        let took: Double
    }

    /// The queue order of the items being checked.
    private let order: [Int64]
    private let position: [Int64: Int]
    private var phase: [Int64: Phase] = [:]
    private var nextToEnd = 0
    private var lastEnd = Date()
    private(set) var ended: [Ended] = []
    private(set) var violations: [String] = []

    init(order: [Int64]) {
        self.order = order
        position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    }

    var allEnded: Bool { nextToEnd == order.count }

    /// The first item that has not ended yet.
    var waitingFor: Int64? { nextToEnd < order.count ? order[nextToEnd] : nil }

    mutating func observe(_ method: String, _ params: JSONValue?) {
        guard method == "event.itemStarted" || method == "event.itemEnded", let id = params?["id"]?.intValue else {
            return
        }
        guard let index = position[id] else { return violations.append("\(method) for item \(id), not in this queue") }
        if index != nextToEnd {
            violations.append(
                "\(method) for item \(id) while item \(waitingFor.map(String.init) ?? "none") has not ended")
        }
        if method == "event.itemStarted" {
            if phase[id] != nil { violations.append("item \(id) started again") }
            phase[id] = .started
            return
        }
        let reason = params?["reason"]?.stringValue ?? "?"
        switch phase[id] {
        case .ended: violations.append("item \(id) ended twice")
        case nil where reason != "error": violations.append("item \(id) ended (\(reason)) without a start")
        default: break
        }
        phase[id] = .ended
        nextToEnd = max(nextToEnd, index + 1)
        let now = Date()
        ended.append(
            Ended(id: id, reason: reason, error: params?["error"]?.stringValue, took: now.timeIntervalSince(lastEnd)))
        lastEnd = now
    }
}
