// Alerts through the fleet (Fleet's FleetAlert): a retained message on this player's or one of its groups'
// alert topics is raised on the daemon as `fleet/<scope>/<name>` (the daemon keeps it durably, so it stays
// on screen through a broker outage or a restart of either program), an empty one withdraws it. After each
// connection to the broker the retained alerts arrive again: once they have (5 s), fleet alerts the daemon
// still holds that the broker no longer does were withdrawn meanwhile, and are cleared.

import Dispatch
import Fleet
import JSONText
import MQTT
import QueueClient
import QueueRPC

extension Bridge {
    /// How long after connecting the broker's retained alerts are taken to have all arrived.
    static let alertSettling: Double = 5

    /// Work queue: an alert message (the newest of its topic).
    func alertArrived(_ message: MQTTMessage, scope: String, name: String) {
        switch FleetAlert.action(scope: scope, name: name, payload: message.payload) {
        case .failure(let refusal):
            log.warning("alert \(name) for \(scope) refused: \(refusal)")
        case .success(let action):
            switch action {
            case .raise(let id, _): alerts.seen.insert(id)
            case .clear(let id): alerts.seen.remove(id)
            }
            alerts.waiting[action.id] = action
            carryOutAlerts()
        }
    }

    /// Work queue: the daemon was found (again): a settling it missed, then what waits for it.
    func daemonFoundForAlerts() {
        if alerts.settlePending { settleAlerts(generation: alerts.generation) }
        carryOutAlerts()
    }

    /// Work queue: the alerts not yet carried out, to the daemon (again after it comes back).
    func carryOutAlerts() {
        guard !alerts.waiting.isEmpty else { return }
        let standing: [API.AlertListing.Entry]
        do {
            standing = try daemonCall(API.AlertList.self, NoParams()).alerts
        } catch {
            log.warning("alerts wait for the daemon: \(error)")
            return
        }
        for (id, action) in alerts.waiting.sorted(by: { $0.key < $1.key }) {
            alerts.waiting[id] = nil
            switch action {
            case .clear(let id):
                guard standing.contains(where: { $0.id == id }) else { continue }
                do {
                    _ = try daemonCall(API.AlertClear.self, .init(id: id))
                    log.info("alert \(id) withdrawn")
                } catch {
                    if case .rpc = error as? ClientError {} else { alerts.waiting[id] = action }
                    log.warning("alert \(id) could not be withdrawn: \(error)")
                }
            case .raise(let id, let object):
                if let refusal = policy.refusal(references: FleetAlert.references(object)) {
                    log.warning("alert \(id) refused: \(refusal)")
                    continue
                }
                let params: API.AlertRaise.Params
                do {
                    params = try API.AlertRaise.Params(reading: ParamReader(.byName(object), order: API.AlertRaise.Params.order))
                } catch {
                    log.warning("alert \(id) refused: \(error.message)")
                    continue
                }
                // The same alert again (the broker resends retained messages on every connection): left as it is.
                if let kept = standing.first(where: { $0.id == id }), kept.items == params.items.map(\.json),
                    kept.text == params.text, kept.priority == params.priority,
                    kept.expires.flatMap(AlertTime.seconds) == params.expires.flatMap(AlertTime.seconds)
                {
                    continue
                }
                do {
                    _ = try daemonCall(API.AlertRaise.self, params)
                    log.info("alert \(id) raised")
                } catch {
                    if case .rpc(let rpc) = error as? ClientError {
                        log.warning("alert \(id) refused by the daemon: \(rpc.message)")
                    } else {
                        alerts.waiting[id] = action
                        log.warning("alert \(id) waits for the daemon: \(error)")
                    }
                }
            }
        }
    }

    /// Work queue, `alertSettling` after connection `generation`: clears the fleet alerts the broker no longer has.
    func settleAlerts(generation: Int) {
        guard generation == alerts.generation else { return }
        guard let standing = try? daemonCall(API.AlertList.self, NoParams()).alerts else {
            // The daemon is away (the broker came up first): settled once it is found.
            alerts.settlePending = true
            return
        }
        alerts.settlePending = false
        for entry in standing where entry.id.hasPrefix(FleetAlert.idPrefix) && !alerts.seen.contains(entry.id) {
            alerts.waiting[entry.id] = .clear(id: entry.id)
            log.info("alert \(entry.id) is no longer on the broker")
        }
        carryOutAlerts()
    }

    /// Work queue: the broker connected; its retained alerts come again.
    func alertsConnected() {
        alerts.generation += 1
        alerts.seen = []
        let generation = alerts.generation
        work.asyncAfter(deadline: .now() + Self.alertSettling) { [weak self] in self?.settleAlerts(generation: generation) }
    }
}

/// What the bridge knows of fleet alerts. Work queue only.
struct AlertForwarding {
    /// The daemon ids of the alerts the broker holds for us, as read since the last connection.
    var seen: Set<String> = []
    /// Actions not yet carried out (the daemon was away), by daemon id.
    var waiting: [String: FleetAlert.Action] = [:]
    /// Counts connections to the broker: a settling scheduled for an older one does nothing.
    var generation = 0
    /// The settling came while the daemon was away: done when it is found.
    var settlePending = false
}

extension FleetAlert.Action {
    var id: String {
        switch self {
        case .raise(let id, _), .clear(let id): id
        }
    }
}
