// The daemon's side of the bridge: one connection follows its events (status, queue changes, plays) and is
// reconnected when the daemon restarts (QueueClient's DaemonEventFollower); the work queue's own connection carries its short commands — the
// status and the applied rev, plays to forward and acknowledge, the figures of `reported`. Applying a
// document is not among them: that is an ApplyJob's, on a connection of its own (Bridge+Apply).

import Dispatch
import Fleet
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import QueueClient
import QueueRPC

extension Bridge {
    /// The daemon's events (QueueClient's reconnecting follower, on its own thread), handed to the work queue.
    func followDaemonEvents() -> DaemonEventFollower {
        let follower = DaemonEventFollower(
            socketPath: socketPath, events: [.status, .queueChanged, .played, .itemStarted, .outputMessage], label: "queued-mqtt.events"
        ) { [weak self] happening in
            guard let self else { return }
            switch happening {
            case .connected: work.async { self.daemonConnected() }
            case .event(let method, let params): work.async { self.daemonEvent(method, params) }
            case .disconnected(let reason): work.async { self.daemonLost(reason) }
            }
        }
        follower.start()
        return follower
    }

    /// Work queue: the command connection, opened on demand.
    func daemonCall<Method: RPCMethodDefinition>(_ method: Method.Type, _ params: Method.Params) throws -> Method.Result {
        if daemon == nil { daemon = try QueueClient(socketPath: socketPath, timeout: 30) }
        do throws(ClientError) {
            return try daemon!.call(method, params)
        } catch {
            if case .rpc = error {} else { daemon = nil }
            throw error
        }
    }

    private func daemonConnected() {
        log.info("daemon connected at \(socketPath)")
        daemon = nil
        replacedVersion = nil
        refreshStatus()
        resendUnacknowledgedPlays(brokerReconnected: false)
        daemonFoundForAlerts()
    }

    private func daemonLost(_ reason: String) {
        if daemon != nil || lastStatus != nil { log.warning("daemon connection lost: \(reason)") }
        daemon = nil
        lastStatus = nil
        replacedVersion = nil
        reporting.changed = true
    }

    private func daemonEvent(_ method: String, _ params: JSONValue?) {
        switch method {
        case Events.Played.name.method:
            if let record = params { forwardPlay(record) }
        case Events.OutputMessage.name.method:
            if let message = params.flatMap(Events.OutputMessage.Params.init(json:)) { publishOutput(message) }
        case Events.Status.name.method:
            if let status = params.flatMap(RPCStatus.init(json:)) { statusChanged(status) }
        default:
            reporting.changed = true
        }
    }

    private func refreshStatus() {
        guard let status = try? daemonCall(API.PlayerStatus.self, NoParams()) else { return }
        statusChanged(status)
    }

    private func statusChanged(_ status: RPCStatus) {
        lastStatus = status
        reporting.changed = true
        // Sent before our swap (events queue up while the work queue waits for the replace's answer): its
        // appliedRev is the one before, and taking it would apply the same document again.
        if let replacedVersion, status.queueVersion < replacedVersion { return }
        carryOut(desired.daemonApplied(status.appliedRev))
    }
}
