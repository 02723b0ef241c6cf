// Desired documents from the broker, coalesced per topic: only the newest message of a source matters, so a
// flood of documents (each up to the packet limit) holds at most one waiting per topic, however fast it comes.
// Fed on the MQTT network thread; drained by the work queue.

import MQTT
import SystemSupport

final class DocumentMailbox: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by lock: the newest message per topic not yet taken.
    private var waiting: [String: MQTTMessage] = [:]

    /// Network thread: keeps `message` in place of any older one of its topic; true when none was waiting
    /// (the caller then schedules one `take` for the topic).
    func put(_ message: MQTTMessage) -> Bool {
        lock.withLock { waiting.updateValue(message, forKey: message.topic) == nil }
    }

    /// Work queue: the newest message of `topic`, if one is waiting.
    func take(_ topic: String) -> MQTTMessage? {
        lock.withLock { waiting.removeValue(forKey: topic) }
    }
}
