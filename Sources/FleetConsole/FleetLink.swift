// The console's one link to the fleet: the broker (the operator's credentials). It reads every screen's
// retained status and reported documents, the desired documents of players and groups, and the proof-of-play
// records (QoS 1, on a session the broker keeps for an hour while the console is away, so a restart loses
// none); it publishes desired documents and JSON-RPC requests, each request answered on a response topic of
// the console's own under the player's `rpc/res` (what the bridge requires) and matched by correlation data.
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
    private var pendingCalls: [String: CheckedContinuation<JSONValue, Never>] = [:]
    private var nextCall: Int64 = 0
    private var connected = false
    private var unstored: [FleetStore.Play] = []
    /// Screenshots by player: the newest few JPEGs, with when they were taken.
    private var thumbnails: [String: [(at: Double, jpeg: [UInt8])]] = [:]
    /// Records stored since start, and repeats the store already had (de-duplicated).
    private var stored = 0
    private var repeats = 0
    private let writer = DispatchQueue(label: "queued-fleet.store")
    private var flushScheduled = false
    /// How many screenshots are kept per screen.
    public static let thumbnailHistory = 5

    public init(configuration: MQTTConfiguration, prefix: String, store: FleetStore, logger: Logger) throws {
        self.prefix = prefix
        self.store = store
        self.logger = logger
        roster = FleetRoster(prefix: prefix)
        replyToken = "console-" + UUID().uuidString.lowercased().prefix(12)
        var configuration = configuration
        // A session the broker keeps while we are away: the records sent meanwhile wait for us.
        configuration.cleanStart = false
        configuration.sessionExpiry = 3600
        configuration.maximumPacketSize = 16 << 20
        client = try MosquittoClient(configuration: configuration) { [weak self] event in self?.take(event) }
        for pattern in ["+/status", "+/reported", "+/desired", "group/+/desired", "+/events"] {
            try client.subscribe(prefix + pattern, qos: .atLeastOnce)
        }
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
        case .connected:
            lock.withLock { connected = true }
            logger.info("broker connected")
        case .disconnected(let error, _):
            lock.withLock { connected = false }
            logger.warning("broker connection lost: \(error.map { "\($0)" } ?? "closed")")
        case .connectFailed(let error, _):
            logger.warning("broker connection failed: \(error)")
        case .message(let message):
            take(message)
        default:
            break
        }
    }

    private func take(_ message: MQTTMessage) {
        if message.topic.hasSuffix("/rpc/res/" + replyToken) {
            let answer = try? JSON.parse(message.payload)
            let key = message.correlationData.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let waiter = lock.withLock { pendingCalls.removeValue(forKey: key) }
            waiter?.resume(returning: answer ?? ["error": ["code": -32700, "message": "the answer is not JSON"]])
            return
        }
        let now = Date().timeIntervalSince1970
        let change = lock.withLock { roster.take(topic: message.topic, payload: message.payload, now: now) }
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
            defer { unstored = [] }
            return unstored
        }
        guard !batch.isEmpty else { return }
        do {
            let added = try store.add(batch)
            lock.withLock {
                stored += added
                repeats += batch.count - added
            }
        } catch {
            logger.error("proof of play: \(batch.count) records not stored: \(error)")
        }
    }

    /// Waits until every record received so far is in the store (tests, a report asked for "now").
    public func flushRecords() {
        writer.sync { self.flush() }
    }

    // MARK: reading

    public func withRoster<T>(_ body: (FleetRoster) -> T) -> T { lock.withLock { body(roster) } }

    public var isConnected: Bool { lock.withLock { connected } }

    public var counters: (stored: Int, repeats: Int) { lock.withLock { (stored, repeats) } }

    // MARK: writing

    /// Publishes `document` (retained) as the desired state of `target` (`group/NAME` or a player id).
    public func publishDesired(_ document: JSONValue, target: String) throws {
        let topic = target.hasPrefix("group/") ? Topics.groupDesired(prefix: prefix, String(target.dropFirst(6)))
            : Topics(prefix: prefix, player: target).desired
        try client.publish(topic: topic, payload: JSON.serialize(document), qos: .atLeastOnce, retain: true)
    }

    /// One JSON-RPC call to `player` through the broker: its answer (`result` or `error`), or an error object
    /// saying it did not come within `timeout` seconds (the request expires then, so a screen that comes back
    /// later never runs it).
    public func call(player: String, method: String, params: JSONValue?, timeout: Double = 10) async -> JSONValue {
        let key: String = lock.withLock {
            nextCall += 1
            return "\(nextCall)"
        }
        var request: JSONObject = [
            "jsonrpc": "2.0", "id": .int(Int64(key) ?? 0), "method": .string(method),
            "expires": .double(Date().timeIntervalSince1970 + timeout),
        ]
        if let params { request["params"] = params }
        let topics = Topics(prefix: prefix, player: player)
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue, Never>) in
            lock.withLock { pendingCalls[key] = continuation }
            do {
                try client.publish(
                    topic: topics.rpcRequest, payload: JSON.serialize(.object(request)), qos: .atLeastOnce,
                    responseTopic: topics.rpcResponse + "/" + replyToken, correlationData: Array(key.utf8),
                    messageExpiryInterval: UInt32(max(1, timeout.rounded(.up))))
            } catch {
                if let waiter = lock.withLock({ pendingCalls.removeValue(forKey: key) }) {
                    waiter.resume(returning: ["error": ["code": -32000, "message": .string("not sent: \(error)")]])
                }
                return
            }
            writer.asyncAfter(deadline: .now() + timeout) {
                if let waiter = self.lock.withLock({ self.pendingCalls.removeValue(forKey: key) }) {
                    waiter.resume(
                        returning: ["error": ["code": -32000, "message": .string("no answer in \(Int(timeout)) s")]])
                }
            }
        }
        return answer
    }

    // MARK: thumbnails

    /// Asks `player` for a screenshot and keeps it; the JPEG, or the reason there is none.
    public func takeThumbnail(player: String, maxWidth: Int = 320) async -> Result<[UInt8], ConsoleError> {
        let answer = await call(player: player, method: "player.screenshot", params: ["format": "jpeg", "maxWidth": .int(Int64(maxWidth))])
        guard let text = answer["result"]?["jpeg"]?.stringValue, let data = Data(base64Encoded: text) else {
            return .failure(ConsoleError(answer["error"]?["message"]?.stringValue ?? "no picture"))
        }
        let jpeg = [UInt8](data)
        let now = Date().timeIntervalSince1970
        lock.withLock {
            var kept = thumbnails[player] ?? []
            kept.append((now, jpeg))
            thumbnails[player] = Array(kept.suffix(Self.thumbnailHistory))
        }
        return .success(jpeg)
    }

    /// The kept screenshots of `player`, oldest first.
    public func thumbnails(of player: String) -> [(at: Double, jpeg: [UInt8])] {
        lock.withLock { thumbnails[player] ?? [] }
    }
}

public struct ConsoleError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
