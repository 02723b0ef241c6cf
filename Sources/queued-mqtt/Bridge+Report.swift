// The `reported` document (retained; Fleet's ReportedDocument): how far the desired state is applied — the
// applied rev, the one pending and how far its job has got, why the last one was refused or is not applied
// yet, what the broker refused us — and what the screen does. Sent when something in it changed and at most
// once a second, so a fleet view always has a fresh copy without a busy screen flooding the broker. What
// moves all the time — the daemon's health counters, the position, the queue version a finished play bumps —
// is sent with the next real change, or once a minute: a looping 2 s clip made the bridge republish 39 times
// a minute (~1 KB a play) before.

import Fleet
import MediaPaths
import FoundationEssentials
import Glibc
import JSONText
import QueueRPC
import SystemSupport

/// Work queue only.
struct Reporting {
    var changed = true
    var lastSent = -Double.infinity
    var lastPayload: ReportedDocument?
    /// The last payload sent without the fields that move all the time.
    var lastSignificant: ReportedDocument?
    /// Only those fields moved since the last send.
    var moved = false
    /// Seconds between sends when only those fields moved.
    static let refreshInterval = 60.0
}

extension Bridge {
    /// Work queue.
    func reportIfDue(force: Bool) {
        let now = Date().timeIntervalSince1970
        let refreshDue = reporting.moved && now - reporting.lastSent >= Reporting.refreshInterval
        guard force || refreshDue || (reporting.changed && now - reporting.lastSent >= 1) else { return }
        let document = reportedDocument()
        reporting.changed = false
        let significant = document.significant
        let send =
            force || significant != reporting.lastSignificant
            || (document != reporting.lastPayload && now - reporting.lastSent >= Reporting.refreshInterval)
        guard send else {
            reporting.moved = document != reporting.lastPayload
            return
        }
        guard publish(topics.reported, document.json, retain: true) != nil else { return }
        reporting.lastPayload = document
        reporting.lastSignificant = significant
        reporting.lastSent = now
        reporting.moved = false
    }

    /// Work queue.
    private func reportedDocument() -> ReportedDocument {
        var document = ReportedDocument(
            appliedRev: desired.appliedRev, pendingRev: desired.pendingRev, error: desired.error,
            brokerRefusals: brokerRefusals)
        if let rev = (desired.applying ?? desired.waiting)?.document.rev, let progress = desired.progress {
            document.applying = .init(rev: rev, progress: progress)
        }
        document.host = HostFigures.read(diskPath: diskPath)
        guard let status = lastStatus else { return document }
        document.state = ReportedDocument.State(rawValue: status.state) ?? .unreachable
        document.queueVersion = status.queueVersion
        document.current = status.currentId.map {
            // A camera's password or a stream's passphrase never goes to the broker.
            .init(id: $0, uri: status.uri.map(StreamKind.redacted), title: status.title, position: status.position)
        }
        // The daemon's own figures (daemon.health: memory, descriptors, pictures shown and dropped, stalls…).
        if let health = try? daemonCall(API.DaemonHealth.self, NoParams()) { document.health = health.json }
        if let usage = try? daemonCall(API.CacheStatus.self, .init()) {
            let complete = usage.items.filter { $0.cache.state == "complete" }.count
            let partial = usage.items.filter { $0.cache.state == "partial" }.count
            document.cache = (Int64(complete), Int64(partial), usage.items.reduce(0) { $0 + $1.cache.bytes })
        }
        return document
    }
}
