// Triggers through the fleet (Fleet's FleetTrigger): a message on this player's or a group's trigger topic
// fires the daemon's `mqtt=<name>` rules through triggers.fire. A retained message is ignored (it would
// fire again at every connection); more than 20 a second are dropped, so a flood cannot queue up work. And
// the way back: the daemon's output rules `-> mqtt TOPIC PAYLOAD`, published under this player's `output/`.

import Fleet
import MQTT
import QueueRPC
import SystemClock
import SystemSupport

extension Bridge {
    /// The most trigger messages carried out per second.
    static let triggersPerSecond = 20

    /// Work queue: one trigger message (already counted against the rate on the network thread).
    func triggerArrived(_ message: MQTTMessage, name: String) {
        guard !message.retain else {
            log.warning("trigger \(name): a retained trigger message is ignored (clear it with an empty retained message)")
            return
        }
        do {
            let fired = try daemonCall(API.TriggersFire.self, .init(name: name, via: .mqtt)).fired
            log.info("trigger \(name): \(fired) rules fired")
        } catch {
            log.warning("trigger \(name) not fired: \(error)")
        }
    }
}

extension Bridge {
    /// Work queue: an output rule's message, published as its bytes (QoS 1, not retained). The daemon checked
    /// the topic's levels; they are checked again here, since the event could come from an older daemon.
    func publishOutput(_ message: Events.OutputMessage.Params) {
        let levels = message.topic.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...8).contains(levels.count), levels.allSatisfy({ !$0.isEmpty && !$0.contains("+") && !$0.contains("#") }) else {
            log.warning("output topic \(message.topic) refused")
            return
        }
        let topic = topics.output(message.topic)
        do {
            try publish(topic, bytes: Array(message.payload.utf8))
            log.info("output published on \(topic)")
        } catch {
            log.warning("output on \(topic) not published: \(error)")
        }
    }
}

/// How many trigger messages came in the last second, counted where they arrive (the MQTT network thread), so
/// a flood is dropped before it queues any work.
final class TriggerRate: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by `lock`.
    private var times: [Double] = []
    private var dropped = 0

    /// Whether one more may be carried out now; every 100th drop is returned to be said.
    func admit(limit: Int) -> (admitted: Bool, dropped: Int?) {
        let now = Monotonic.now()
        return lock.withLock {
            times.removeAll { now - $0 > 1 }
            guard times.count < limit else {
                dropped += 1
                return (false, dropped % 100 == 1 ? dropped : nil)
            }
            times.append(now)
            return (true, nil)
        }
    }
}
