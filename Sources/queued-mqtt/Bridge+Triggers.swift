// Triggers through the fleet (Fleet's FleetTrigger): a message on this player's or a group's trigger topic
// fires the daemon's `mqtt=<name>` rules through triggers.fire. A retained message is ignored (it would
// fire again at every connection); more than 20 a second are dropped, so a flood cannot queue up work.

import Fleet
import MQTT
import QueueRPC
import SystemClock

extension Bridge {
    /// The most trigger messages carried out per second.
    static let triggersPerSecond = 20

    /// Work queue: one trigger message.
    func triggerArrived(_ message: MQTTMessage, name: String) {
        guard !message.retain else {
            log.warning("trigger \(name): a retained trigger message is ignored (clear it with an empty retained message)")
            return
        }
        let now = Monotonic.now()
        triggerTimes.removeAll { now - $0 > 1 }
        guard triggerTimes.count < Self.triggersPerSecond else {
            log.warning("trigger \(name) dropped: more than \(Self.triggersPerSecond) a second")
            return
        }
        triggerTimes.append(now)
        do {
            let fired = try daemonCall(API.TriggersFire.self, .init(name: name, via: .mqtt)).fired
            log.info("trigger \(name): \(fired) rules fired")
        } catch {
            log.warning("trigger \(name) not fired: \(error)")
        }
    }
}
