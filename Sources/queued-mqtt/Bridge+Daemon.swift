// The daemon's side of the bridge: one connection follows its events (status, queue changes, plays) and is
// reconnected when the daemon restarts; the work queue's own connection carries commands — reading the
// applied rev, and applying a desired document: its http(s) files fetched into the cache first
// (`cache.fetch`, polled until complete, bounded), then the queue swapped in one step with the rev
// (`queue.replace`), then the settings and overlays.

import Fleet
import Dispatch
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

    /// Carries out what DesiredState decided.
    func carryOut(_ steps: [FleetStep]) {
        for step in steps {
            switch step {
            case .report: reporting.changed = true
            case .apply(let document, let source):
                log.info("applying rev \(document.rev) from \(source)")
                let failure = apply(document)
                if let failure { log.warning("rev \(document.rev) refused: \(failure)") } else { log.info("applied rev \(document.rev)") }
                carryOut(desired.applyFinished(failure: failure))
            }
        }
        reportIfDue(force: false)
    }

    /// Applies a document; returns why it could not be (nothing changed then), or nil.
    private func apply(_ document: DesiredDocument) -> String? {
        do {
            let uris = Array(Set(document.networkURIs)).sorted()
            if !uris.isEmpty, let failure = try fetch(uris, digests: document.networkDigests) { return failure }
            let items = try document.queue.enumerated().map { index, item throws(RPCError) in
                try RPCItemInput(json: item, name: "queue[\(index)]")
            }
            let replaced = try daemonCall(
                API.QueueReplace.self,
                .init(items: items, at: .itemEnd, loops: document.loops ?? 1, rev: document.rev))
            replacedVersion = replaced.version
            if document.volume != nil || document.fit != nil || document.rotate != nil {
                _ = try daemonCall(
                    API.PlayerSet.self,
                    .init(volume: document.volume, fit: document.fit.flatMap(RPCFit.init(rawValue:)), rotate: document.rotate))
            }
            if let overlays = document.overlays { try replaceOverlays(overlays) }
            if let status = lastStatus, status.state == "idle" || status.state == "stopped" {
                _ = try daemonCall(API.PlayerPlay.self, .init())
            }
            return nil
        } catch let error as ClientError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    /// Has the daemon download `uris` and waits (at most 30 min, polling twice a second) until each is
    /// complete — with the digest the document gives it, if any: a file whose digest never matches (the
    /// daemon fetches it twice) fails the document before anything is swapped; returns the first failure.
    private func fetch(_ uris: [String], digests: [String: String]) throws -> String? {
        let deadline = Date(timeIntervalSinceNow: 1800)
        while Date() < deadline {
            let result = try daemonCall(API.CacheFetch.self, .init(uris: uris, sha256: digests))
            if let failed = result.items.first(where: { $0.cache.state == "error" }) {
                return "\(failed.uri): \(failed.cache.error ?? "download failed")"
            }
            if result.items.allSatisfy({ $0.cache.state == "complete" }) { return nil }
            Threads.sleep(seconds: 0.5)
        }
        return "the files did not download within 30 minutes"
    }

    /// The document's overlays replace the daemon's.
    private func replaceOverlays(_ overlays: [JSONObject]) throws {
        let existing = try daemonCall(API.OverlayList.self, NoParams())
        if !existing.overlays.isEmpty {
            _ = try daemonCall(API.OverlayRemove.self, .init(ids: existing.overlays.compactMap(\.id)))
        }
        for overlay in overlays {
            guard let daemon else { throw ClientError.io("daemon connection lost") }
            _ = try daemon.call("overlay.add", .object(overlay))
        }
    }
}
