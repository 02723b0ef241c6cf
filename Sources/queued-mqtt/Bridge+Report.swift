// The `reported` document (retained): how far the desired state is applied and what the screen does, sent
// when something in it changed and at most once a second, so a fleet view always has a fresh copy without a
// busy screen flooding the broker.

import Foundation
import JSONText
import QueueRPC

/// Work queue only.
struct Reporting {
    var changed = true
    var lastSent = -Double.infinity
    var lastPayload: JSONValue?
}

extension Bridge {
    func reportIfDue(force: Bool) {
        let now = Date().timeIntervalSince1970
        guard force || (reporting.changed && now - reporting.lastSent >= 1) else { return }
        let payload = reportedDocument()
        reporting.changed = false
        guard force || payload != reporting.lastPayload else { return }
        guard publish(topics.reported, payload, retain: true) != nil else { return }
        reporting.lastPayload = payload
        reporting.lastSent = now
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
