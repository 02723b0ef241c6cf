// Messages through a real broker (Debian's mosquitto on loopback): QoS 1 round trip with its acknowledgement,
// retained messages, the MQTT 5 request/response properties, message expiry, and stop() flushing QoS 1.

import Foundation
import MQTT
import TestSupport
import Testing

@Suite struct MessageFlowTests {
    @Test func qos1RoundTripIsAcknowledged() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let receiver = try ClientFixture(url: broker.url, id: "receiver", user: "screen", password: "pw")
        try receiver.client.subscribe("queued/screen/#", qos: .atLeastOnce)
        #expect(receiver.waitConnected(subscriptions: 1))
        let sender = try ClientFixture(url: broker.url, id: "sender", user: "screen", password: "pw")
        #expect(sender.waitConnected())

        let payload: [UInt8] = [0, 1, 2, 0xFF, 0x7B, 0]
        let id = try sender.client.publish(topic: "queued/screen/pop", payload: payload, qos: .atLeastOnce)
        let ack = try #require(sender.events.ack(id))
        #expect(!ack.isFailure)
        #expect(sender.client.pendingAcknowledgements == 0)

        let message = try #require(receiver.events.message(on: "queued/screen/pop"))
        #expect(message.payload == payload)
        #expect(message.qos == .atLeastOnce)
        #expect(!message.retain)
        #expect(message.responseTopic == nil && message.correlationData == nil && message.messageExpiryInterval == nil)
        #expect(Self.threadNames().filter { $0 == "mqtt.network" }.count >= 2, "\(Self.threadNames())")
    }

    @Test func publishesFromManyThreadsAreEachAcknowledgedOnce() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let receiver = try ClientFixture(url: broker.url, id: "receiver", user: "screen", password: "pw")
        try receiver.client.subscribe("queued/screen/pop")
        #expect(receiver.waitConnected(subscriptions: 1))
        let sender = try ClientFixture(url: broker.url, id: "sender", user: "screen", password: "pw")
        #expect(sender.waitConnected())

        let threads = 4
        let each = 100
        let ids = NSLock()
        nonisolated(unsafe) var published: [Int32] = []
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<each {
                if let id = try? sender.client.publish(topic: "queued/screen/pop", payload: bytes("\(thread)/\(index)"))
                {
                    ids.withLock { published.append(id) }
                }
            }
        }
        let all = ids.withLock { published }
        #expect(all.count == threads * each)
        #expect(Set(all).count == all.count)
        #expect(sender.events.wait(10) { events in all.allSatisfy { events.ack($0) != nil } })
        #expect(sender.client.pendingAcknowledgements == 0)
        #expect(receiver.events.wait(10) { $0.messages.count == threads * each })
        #expect(Set(receiver.events.all.messages.map(\.text)).count == threads * each)
    }

    /// The names of this process's threads (/proc/self/task/*/comm).
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func retainedMessageArrivesWithTheRetainFlag() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let sender = try ClientFixture(url: broker.url, id: "sender", user: "screen", password: "pw")
        #expect(sender.waitConnected())
        let id = try sender.client.publish(
            topic: "queued/screen/desired", payload: bytes(#"{"volume":40}"#), qos: .atLeastOnce, retain: true)
        #expect(sender.events.ack(id).map { !$0.isFailure } == true)

        // A subscriber that comes later gets the retained document, flagged as retained…
        let late = try ClientFixture(url: broker.url, id: "late", user: "screen", password: "pw")
        try late.client.subscribe("queued/screen/desired")
        let retained = try #require(late.events.message(on: "queued/screen/desired"))
        #expect(retained.retain)
        #expect(retained.text == #"{"volume":40}"#)

        // …while live traffic to an existing subscription arrives without the flag.
        let live = try sender.client.publish(topic: "queued/screen/desired", payload: bytes("live"), retain: true)
        #expect(sender.events.ack(live) != nil)
        #expect(late.events.wait(5) { $0.messages.count == 2 })
        #expect(late.events.all.messages.last?.retain == false)
        #expect(late.events.all.messages.last?.text == "live")
    }

    @Test func responseTopicAndCorrelationDataArriveIntact() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let server = try ClientFixture(url: broker.url, id: "server", user: "screen", password: "pw")
        try server.client.subscribe("queued/screen/rpc/req")
        #expect(server.waitConnected(subscriptions: 1))
        let caller = try ClientFixture(url: broker.url, id: "caller", user: "screen", password: "pw")
        #expect(caller.waitConnected())

        let correlation: [UInt8] = [0x00, 0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01]
        try caller.client.publish(
            topic: "queued/screen/rpc/req", payload: bytes(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#),
            responseTopic: "queued/screen/rpc/res/caller-1", correlationData: correlation)
        let request = try #require(server.events.message(on: "queued/screen/rpc/req"))
        #expect(request.responseTopic == "queued/screen/rpc/res/caller-1")
        #expect(request.correlationData == correlation)
        #expect(!request.retain)
        #expect(request.messageExpiryInterval == nil)
    }

    @Test func messageExpiryIntervalIsReadable() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let receiver = try ClientFixture(url: broker.url, id: "receiver", user: "screen", password: "pw")
        try receiver.client.subscribe("queued/screen/rpc/req")
        #expect(receiver.waitConnected(subscriptions: 1))
        let sender = try ClientFixture(url: broker.url, id: "sender", user: "screen", password: "pw")
        #expect(sender.waitConnected())

        try sender.client.publish(
            topic: "queued/screen/rpc/req", payload: bytes("soon stale"), messageExpiryInterval: 30)
        let message = try #require(receiver.events.message(on: "queued/screen/rpc/req"))
        // The broker forwards what is left of the lifetime.
        let left = try #require(message.messageExpiryInterval)
        #expect((28...30).contains(left))
    }

    @Test func stopFlushesQueuedQoS1PublishesBeforeDisconnecting() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let watcher = try ClientFixture(url: broker.url, id: "watcher", user: "screen", password: "pw")
        try watcher.client.subscribe("queued/screen/#")
        #expect(watcher.waitConnected(subscriptions: 1))
        let will = MQTTConfiguration.LastWill(topic: "queued/screen/status", payload: bytes("offline (will)"))
        let screen = try ClientFixture(url: broker.url, id: "screen", user: "screen", password: "pw", will: will)
        #expect(screen.waitConnected())

        for index in 0..<20 {
            try screen.client.publish(topic: "queued/screen/pop", payload: bytes("record \(index)"))
        }
        try screen.client.publish(topic: "queued/screen/status", payload: bytes("offline"), retain: true)
        // stop() waits for the 21 acknowledgements (up to stopTimeout): none left pending proves it flushed, with
        // no clock to read on a busy machine.
        screen.client.stop()
        #expect(screen.client.pendingAcknowledgements == 0)
        #expect(screen.events.all.filter { if case .published = $0 { true } else { false } }.count == 21)
        #expect(screen.events.all.contains { if case .disconnected(nil, nil) = $0 { true } else { false } })
        #expect(watcher.events.wait(5) { $0.messages.count == 21 })
        // A clean stop sends DISCONNECT: the broker does not publish the Last Will.
        #expect(!watcher.events.wait(0.5) { $0.messages.contains { $0.text == "offline (will)" } })
        #expect(throws: MQTTError.stopped) { try screen.client.publish(topic: "queued/screen/pop", payload: []) }
    }
}
