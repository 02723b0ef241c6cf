// The console's one link to the fleet: the broker (the operator's credentials). It reads every screen's
// retained status and reported documents and the desired documents of players and groups (QoS 0: retained,
// they come back whole on every reconnect, so none waits in our session), and the proof-of-play records
// (QoS 1, on a session the broker keeps for an hour while the console is away, so a restart loses none as
// long as the broker's `max_queued_messages` holds them); it publishes desired documents and JSON-RPC
// requests, each answered on a response topic of the console's own under the player's `rpc/res` (what the
// bridge requires), matched by random correlation data and by the player the topic names — so one screen
// cannot answer for another. Payloads are parsed before the lock; their sizes are capped per kind.
// Threads: MQTT messages arrive on the client's network thread; the roster is guarded by `lock` (decisions
// only, no I/O under it); records go to the store's writer queue in batches; callers of `call` wait on a
// continuation resumed by the network thread.

import Dispatch
import Fleet
import FleetStore
import Foundation
import JSONText
import Logging
import MQTT
import SystemClock
import SystemSupport

public final class FleetLink: @unchecked Sendable {
    public let prefix: String
    private let store: FleetStore
    private let logger: Logger
    private var client: MosquittoClient!
    /// The console's own reply space: `<prefix><player>/rpc/res/<token>`.
    private let replyToken: String
    private let lock = ThreadLock()
    // Guarded by `lock`.
    private var roster: FleetRoster
    /// Guarded by `lock`: the fleet's alerts the broker holds (retained), as published.
    private var alerts: [AlertKey: JSONValue] = [:]
    private var pendingCalls: [String: (player: String, waiter: CheckedContinuation<JSONValue, Never>)] = [:]
    private var nextCall: Int64 = 0
    private var connected = false
    /// Whether the retained documents have had time to arrive since the first connection (pushes wait).
    private var synced = false
    private var unstored: [FleetStore.Play] = []
    /// A batch the store refused (busy, disk full): kept and tried again first, never dropped.
    private var failedBatch: [FleetStore.Play] = []
    /// The broker's verdicts on our QoS 1 publishes, by message id, until their publisher reads them.
    private var verdicts: [Int32: (reason: MQTTReasonCode, at: Double)] = [:]
    private let verdictArrived = ThreadCondition()
    /// Screenshots by player: the newest few JPEGs, with when they were taken.
    private var thumbnails: [String: [(at: Double, jpeg: [UInt8])]] = [:]
    /// Records stored since start, and repeats the store already had (de-duplicated).
    private var stored = 0
    private var repeats = 0
    private let writer = DispatchQueue(label: "queued-fleet.store")
    /// Calls' timeouts, apart from the store's work.
    private let timers = DispatchQueue(label: "queued-fleet.timers")
    private var flushScheduled = false
    /// Records held in memory at most while the store refuses them.
    static let maxUnstored = 1_000_000
    /// How many screenshots are kept per screen, and how big one may be.
    public static let thumbnailHistory = 5
    public static let thumbnailBytes = 2 << 20

    public init(configuration: MQTTConfiguration, prefix: String, store: FleetStore, logger: Logger) throws {
        self.prefix = prefix
        self.store = store
        self.logger = logger
        roster = FleetRoster(prefix: prefix)
        // Stable across restarts (the kept session's subscription stays the same one).
        replyToken = "console-" + String(configuration.clientID.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }, radix: 16)
        var configuration = configuration
        // A session the broker keeps while we are away: the records sent meanwhile wait for us.
        configuration.cleanStart = false
        configuration.sessionExpiry = 3600
        configuration.maximumPacketSize = 16 << 20
        client = try MosquittoClient(configuration: configuration) { [weak self] event in self?.take(event) }
        for pattern in ["+/status", "+/reported", "+/desired", "group/+/desired", "+/alert/+", "group/+/alert/+"] {
            try client.subscribe(prefix + pattern, qos: .atMostOnce)
        }
        try client.subscribe(prefix + "+/events", qos: .atLeastOnce)
        try client.subscribe(prefix + "+/rpc/res/" + replyToken, qos: .atLeastOnce)
    }

    public func start() { client.start() }

    public func stop() {
        client.stop()
        writer.sync { self.flush() }
    }

    // MARK: what the screens say (network thread)

    private func take(_ event: MQTTEvent) {
        switch event {
        case .connected(let sessionPresent):
            lock.withLock { connected = true }
            if sessionPresent {
                logger.info("broker connected (our session was kept: records sent meanwhile follow)")
            } else {
                logger.notice("broker connected with a new session: records sent while we were away were not kept for us")
            }
            // Retained documents arrive right after the subscriptions; pushes wait that long once.
            timers.asyncAfter(deadline: .now() + 2) { self.lock.withLock { self.synced = true } }
        case .disconnected(let error, _):
            lock.withLock { connected = false }
            logger.warning("broker connection lost: \(error.map { "\($0)" } ?? "closed")")
        case .connectFailed(let error, _):
            logger.warning("broker connection failed: \(error)")
        case .message(let message):
            take(message)
        case .published(let id, let reason):
            let now = Monotonic.now()
            verdictArrived.withLock {
                // Only the few publishes waited on matter (for 10 s at most): older verdicts go, never a fresh one.
                if verdicts.count > 1024 { verdicts = verdicts.filter { now - $0.value.at < 30 } }
                verdicts[id] = (reason, now)
            }
            verdictArrived.broadcast()
        default:
            break
        }
    }

    /// The largest payload read per kind: a status, a reported document, a record, a desired document.
    static func payloadLimit(_ topic: String) -> Int {
        if topic.hasSuffix("/status") { return 8 << 10 }
        if topic.hasSuffix("/events") { return 64 << 10 }
        if topic.hasSuffix("/rpc/res/") { return 8 << 20 }
        if topic.contains("/alert/") { return FleetAlert.maximumBytes }
        return 1 << 20
    }

    private func take(_ message: MQTTMessage) {
        if message.topic.hasSuffix("/rpc/res/" + replyToken) {
            // Only the player the call went to may answer it.
            let player = message.topic.dropFirst(prefix.count).split(separator: "/").first.map(String.init) ?? ""
            let key = message.correlationData.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let waiter: CheckedContinuation<JSONValue, Never>? = lock.withLock {
                guard let pending = pendingCalls[key], pending.player == player else { return nil }
                pendingCalls[key] = nil
                return pending.waiter
            }
            guard let waiter else { return }
            let answer = message.payload.count <= Self.payloadLimit("/rpc/res/") ? try? JSON.parse(message.payload) : nil
            waiter.resume(returning: answer ?? ["error": ["code": -32700, "message": "the answer is not JSON"]])
            return
        }
        guard message.payload.count <= Self.payloadLimit(message.topic) else { return }
        if let key = alertKey(message.topic) {
            let value = message.payload.isEmpty ? nil : try? JSON.parse(message.payload)
            lock.withLock {
                if let value, alerts[key] != nil || alerts.count < Self.maxAlerts { alerts[key] = value } else if value == nil { alerts[key] = nil }
            }
            return
        }
        // Parsed here, outside the lock: the page's requests never wait on a big document's parse.
        let value: JSONValue? = message.payload.isEmpty ? nil : try? JSON.parse(message.payload)
        let now = Date().timeIntervalSince1970
        let change = lock.withLock { roster.take(topic: message.topic, value: value, isEmpty: message.payload.isEmpty, now: now) }
        guard case .play(let player, let record) = change, let seq = record["seq"]?.intValue else { return }
        let schedule = lock.withLock {
            unstored.append(FleetStore.Play(player: player, seq: seq, record: record))
            defer { flushScheduled = true }
            return !flushScheduled
        }
        // Batched: one transaction per 50 ms of records, not one per record.
        if schedule { writer.asyncAfter(deadline: .now() + 0.05) { self.flush() } }
    }

    /// Writer queue.
    private func flush() {
        let batch = lock.withLock {
            flushScheduled = false
            defer {
                unstored = []
                failedBatch = []
            }
            return failedBatch + unstored
        }
        guard !batch.isEmpty else { return }
        do {
            let added = try store.add(batch)
            lock.withLock {
                stored += added
                repeats += batch.count - added
            }
        } catch {
            // Kept and tried again in a second: the broker has forgotten these records already.
            logger.error("proof of play: \(batch.count) records not stored yet (tried again in 1 s): \(error)")
            let schedule = lock.withLock {
                failedBatch = batch + failedBatch
                // Bounded: a store that never recovers (a full disk) must not take the memory too.
                if failedBatch.count > Self.maxUnstored {
                    logger.error("proof of play: \(failedBatch.count - Self.maxUnstored) records dropped, the store refuses them")
                    failedBatch.removeFirst(failedBatch.count - Self.maxUnstored)
                }
                defer { flushScheduled = true }
                return !flushScheduled
            }
            if schedule { writer.asyncAfter(deadline: .now() + 1) { self.flush() } }
        }
    }

    /// Waits until every record received so far is in the store (tests, a report asked for "now").
    public func flushRecords() {
        writer.sync { self.flush() }
    }

    /// The most retained alerts followed.
    static let maxAlerts = 10_000

    /// `<player>/alert/<name>` or `group/<g>/alert/<name>` under the prefix: its target and name.
    private func alertKey(_ topic: String) -> AlertKey? {
        guard topic.hasPrefix(prefix) else { return nil }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if levels.count == 3, levels[1] == "alert", levels[0] != "group", !levels[0].isEmpty, !levels[2].isEmpty {
            return AlertKey(target: levels[0], name: levels[2])
        }
        if levels.count == 4, levels[0] == "group", levels[2] == "alert", !levels[1].isEmpty, !levels[3].isEmpty {
            return AlertKey(target: "group/" + levels[1], name: levels[3])
        }
        return nil
    }

    // MARK: reading

    public func withRoster<T>(_ body: (FleetRoster) -> T) -> T { lock.withLock { body(roster) } }

    public var isConnected: Bool { lock.withLock { connected } }

    /// Connected, and the retained documents had time to arrive (a rev worked out before would be too low).
    public var isSynced: Bool { lock.withLock { connected && synced } }

    public var counters: (stored: Int, repeats: Int) { lock.withLock { (stored, repeats) } }

    // MARK: writing

    /// Publishes `document` (retained) as the desired state of `target` (`group/NAME` or a player id) and
    /// waits up to `timeout` seconds for the broker's PUBACK: throws when it refused it (its ACL) or said
    /// nothing. Blocks: called on the I/O pool.
    public func publishDesired(_ document: JSONValue, target: String, timeout: Double = 10) throws {
        let topic = target.hasPrefix("group/") ? Topics.groupDesired(prefix: prefix, String(target.dropFirst(6)))
            : Topics(prefix: prefix, player: target).desired
        try publishRetained(topic: topic, payload: JSON.serialize(document), timeout: timeout)
    }

    /// Publishes alert `name` (retained) on `target` (`group/NAME` or a player id), or withdraws it (nil: an
    /// empty retained message), and waits for the broker's verdict as publishDesired does.
    public func publishAlert(_ alert: JSONValue?, name: String, target: String, timeout: Double = 10) throws {
        try publishRetained(topic: prefix + target + "/alert/" + name, payload: alert.map(JSON.serialize) ?? [], timeout: timeout)
    }

    /// The fleet's alerts the broker holds (retained), by target and name.
    public var fleetAlerts: [(target: String, name: String, alert: JSONValue)] {
        lock.withLock { alerts.map { (target: $0.key.target, name: $0.key.name, alert: $0.value) } }
            .sorted { ($0.target, $0.name) < ($1.target, $1.name) }
    }

    private func publishRetained(topic: String, payload: [UInt8], timeout: Double) throws {
        let id = try client.publish(topic: topic, payload: payload, qos: .atLeastOnce, retain: true)
        let deadline = Monotonic.now() + timeout
        let verdict: MQTTReasonCode? = verdictArrived.withLock {
            while verdicts[id] == nil {
                let left = deadline - Monotonic.now()
                if left <= 0 { break }
                _ = verdictArrived.wait(seconds: left)
            }
            return verdicts.removeValue(forKey: id)?.reason
        }
        guard let verdict else { throw ConsoleError("the broker did not acknowledge the document in \(Int(timeout)) s") }
        if verdict.isFailure { throw ConsoleError("the broker refused the document: \(verdict)") }
    }

    /// One JSON-RPC call to `player` through the broker: its answer (`result` or `error`), or an error object
    /// saying it did not come within `timeout` seconds (the request expires then, so a screen that comes back
    /// later never runs it).
    public func call(player: String, method: String, params: JSONValue?, timeout: Double = 10) async -> JSONValue {
        // Random: nobody who saw one request can guess another's.
        let key = UUID().uuidString
        let id: Int64 = lock.withLock {
            nextCall += 1
            return nextCall
        }
        var request: JSONObject = [
            "jsonrpc": "2.0", "id": .int(id), "method": .string(method),
            "expires": .double(Date().timeIntervalSince1970 + timeout),
        ]
        if let params { request["params"] = params }
        let topics = Topics(prefix: prefix, player: player)
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue, Never>) in
            lock.withLock { pendingCalls[key] = (player, continuation) }
            do {
                try client.publish(
                    topic: topics.rpcRequest, payload: JSON.serialize(.object(request)), qos: .atLeastOnce,
                    responseTopic: topics.rpcResponse + "/" + replyToken, correlationData: Array(key.utf8),
                    messageExpiryInterval: UInt32(max(1, timeout.rounded(.up))))
            } catch {
                if let pending = lock.withLock({ pendingCalls.removeValue(forKey: key) }) {
                    pending.waiter.resume(returning: ["error": ["code": -32000, "message": .string("not sent: \(error)")]])
                }
                return
            }
            timers.asyncAfter(deadline: .now() + timeout) {
                if let pending = self.lock.withLock({ self.pendingCalls.removeValue(forKey: key) }) {
                    pending.waiter.resume(
                        returning: ["error": ["code": -32000, "message": .string("no answer in \(Int(timeout)) s")]])
                }
            }
        }
        return answer
    }

    // MARK: thumbnails

    /// Asks `player` for a screenshot and keeps it; the JPEG, or the reason there is none.
    public func takeThumbnail(player: String, maxWidth: Int = 320) async -> Result<[UInt8], ConsoleError> {
        guard lock.withLock({ roster.screens[player] != nil }) else { return .failure(ConsoleError("no screen \(player)")) }
        let answer = await call(player: player, method: "player.screenshot", params: ["format": "jpeg", "maxWidth": .int(Int64(maxWidth))])
        guard let text = answer["result"]?["jpeg"]?.stringValue, let data = Data(base64Encoded: text) else {
            return .failure(ConsoleError(answer["error"]?["message"]?.stringValue ?? "no picture"))
        }
        let jpeg = [UInt8](data)
        guard jpeg.count <= Self.thumbnailBytes, jpeg.starts(with: [0xFF, 0xD8]) else {
            return .failure(ConsoleError("the screenshot is not a JPEG of at most \(Self.thumbnailBytes >> 20) MiB"))
        }
        let now = Date().timeIntervalSince1970
        lock.withLock {
            var kept = thumbnails[player] ?? []
            kept.append((now, jpeg))
            thumbnails[player] = Array(kept.suffix(Self.thumbnailHistory))
        }
        return .success(jpeg)
    }

    /// The kept screenshots of `player`, oldest first (none once the screen is gone from the roster).
    public func thumbnails(of player: String) -> [(at: Double, jpeg: [UInt8])] {
        lock.withLock {
            if roster.screens[player] == nil { thumbnails[player] = nil }
            return thumbnails[player] ?? []
        }
    }
}

public struct ConsoleError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A fleet alert's place: its target (`group/NAME` or a player id) and its name.
struct AlertKey: Hashable {
    var target: String
    var name: String
}
