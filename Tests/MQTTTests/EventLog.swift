// Records a client's events (they arrive on its network thread) and lets a test wait for one, with a deadline.

import Foundation
import MQTT

final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by condition.
    private var events: [MQTTEvent] = []

    /// The handler to give MosquittoClient.
    var handler: MosquittoClient.EventHandler {
        { [self] event in
            condition.withLock {
                events.append(event)
                condition.broadcast()
            }
        }
    }

    var all: [MQTTEvent] { condition.withLock { events } }

    /// Waits until `predicate` holds for the events so far (it runs with the log locked: use the array, not
    /// the log); false after `timeout` seconds.
    @discardableResult
    func wait(_ timeout: Double, until predicate: ([MQTTEvent]) -> Bool) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if !condition.wait(until: limit) { return predicate(events) }
        }
        return true
    }

    /// Waits for the first message on `topic` (nil after `timeout` seconds).
    func message(on topic: String, timeout: Double = 5) -> MQTTMessage? {
        wait(timeout) { $0.messages.contains { $0.topic == topic } }
        return all.messages.first { $0.topic == topic }
    }

    /// Waits for the broker's verdict on a publish (nil after `timeout` seconds).
    func ack(_ messageID: Int32, timeout: Double = 5) -> MQTTReasonCode? {
        wait(timeout) { $0.ack(messageID) != nil }
        return all.ack(messageID)
    }
}

extension Array where Element == MQTTEvent {
    var messages: [MQTTMessage] {
        compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    var connectedCount: Int { filter { if case .connected = $0 { true } else { false } }.count }
    var subscribedCount: Int { filter { if case .subscribed = $0 { true } else { false } }.count }
    var disconnectedCount: Int { filter { if case .disconnected = $0 { true } else { false } }.count }

    var connectFailures: [(error: MQTTError, retryIn: Duration)] {
        compactMap { if case .connectFailed(let error, let delay) = $0 { (error, delay) } else { nil } }
    }

    func ack(_ messageID: Int32) -> MQTTReasonCode? {
        for event in self {
            if case .published(let id, let reason) = event, id == messageID { return reason }
        }
        return nil
    }
}
