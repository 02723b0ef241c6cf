// The `reported` document (retained): how far the desired state is applied and what the screen does, sent
// when something in it changed and at most once a second, so a fleet view always has a fresh copy without a
// busy screen flooding the broker. What moves all the time — the daemon's health counters, the position, the
// queue version a finished play bumps — is sent with the next real change, or once a minute: a looping 2 s
// clip made the bridge republish 39 times a minute (~1 KB a play) before.

import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import QueueRPC

/// Work queue only.
struct Reporting {
    var changed = true
    var lastSent = -Double.infinity
    var lastPayload: JSONValue?
    /// The last payload sent without the fields that move all the time.
    var lastSignificant: JSONValue?
    /// Only those fields moved since the last send.
    var moved = false
    /// Seconds between sends when only those fields moved.
    static let refreshInterval = 60.0

    /// `payload` without health, position and queue version.
    static func significant(_ payload: JSONValue) -> JSONValue {
        guard var object = payload.objectValue else { return payload }
        object["health"] = nil
        object["queueVersion"] = nil
        if var current = object["current"]?.objectValue {
            current["position"] = nil
            object["current"] = .object(current)
        }
        return .object(object)
    }
}

extension Bridge {
    func reportIfDue(force: Bool) {
        let now = Date().timeIntervalSince1970
        let refreshDue = reporting.moved && now - reporting.lastSent >= Reporting.refreshInterval
        guard force || refreshDue || (reporting.changed && now - reporting.lastSent >= 1) else { return }
        let payload = reportedDocument()
        reporting.changed = false
        let significant = Reporting.significant(payload)
        let send =
            force || significant != reporting.lastSignificant
            || (payload != reporting.lastPayload && now - reporting.lastSent >= Reporting.refreshInterval)
        guard send else {
            reporting.moved = payload != reporting.lastPayload
            return
        }
        guard publish(topics.reported, payload, retain: true) != nil else { return }
        reporting.lastPayload = payload
        reporting.lastSignificant = significant
        reporting.lastSent = now
        reporting.moved = false
    }

    private func reportedDocument() -> JSONValue {
        var object: JSONObject = [
            "appliedRev": desired.appliedRev.map(JSONValue.int) ?? .null,
            "pendingRev": desired.pendingRev.map(JSONValue.int) ?? .null,
            "error": desired.error.map(JSONValue.string) ?? .null,
        ]
        guard let status = lastStatus else {
            object["state"] = "unreachable"
            object["queueVersion"] = .null
            object["current"] = .null
            return .object(object)
        }
        object["state"] = .string(status.state)
        object["queueVersion"] = .int(status.queueVersion)
        object["current"] =
            status.currentId.map { id in
                [
                    "id": .int(id), "uri": status.uri.map(JSONValue.string) ?? .null,
                    "title": status.title.map(JSONValue.string) ?? .null, "position": .double(status.position),
                ]
            } ?? .null
        // The daemon's own figures (daemon.health: memory, descriptors, pictures shown and dropped, stalls…).
        if let health = try? daemonCall(API.DaemonHealth.self, NoParams()) { object["health"] = health.json }
        if let usage = try? daemonCall(API.CacheStatus.self, .init()) {
            let complete = usage.items.filter { $0.cache.state == "complete" }.count
            let partial = usage.items.filter { $0.cache.state == "partial" }.count
            object["cache"] = [
                "complete": .int(Int64(complete)), "partial": .int(Int64(partial)),
                "bytes": .int(usage.items.reduce(0) { $0 + $1.cache.bytes }),
            ]
        }
        return .object(object)
    }
}
