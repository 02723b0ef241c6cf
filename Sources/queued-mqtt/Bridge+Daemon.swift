// The daemon's side of the bridge: one connection follows its events (status, queue changes, plays) and is
// reconnected when the daemon restarts; the work queue's own connection carries its short commands — the
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
    /// Events thread: subscribes and reads events for as long as the daemon runs; reconnects (every second,
    /// bounded backoff) when it does not.
    func followDaemonEvents() {
        var wait = 0.5
        while true {
            if followOneConnection() { wait = 0.5 }
            Threads.sleep(seconds: wait)
            wait = min(5, wait * 2)
        }
    }

    /// One connection's events, until it ends; true if it was made (subscribed). A function of its own, never
    /// inlined: Swift 6.3's loop-invariant code motion never finished on all of it inside the endless loop
    /// above, and a release build of queued-mqtt hung there.
    @inline(never)
    private func followOneConnection() -> Bool {
        var subscribed = false
        do {
            let events = try QueueClient(socketPath: socketPath, timeout: 10)
            _ = try events.call(
                API.EventsSubscribe.self, .init(events: [.status, .queueChanged, .played, .itemStarted]))
            subscribed = true
            work.async { self.daemonConnected() }
            while let note = try events.nextNotification(timeout: nil) {
                work.async { self.daemonEvent(note.method, note.params) }
            }
        } catch {
            work.async { self.daemonLost("\(error)") }
        }
        return subscribed
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
