// The connection's bad days against a real broker: refused credentials (with backoff, not a tight loop), a
// broker that is down at start, TLS with the right and a wrong CA, a broker killed and restarted on the same
// port, a connection that dies without DISCONNECT (the Last Will), and the ACL keeping users apart.

import Foundation
import Glibc
import TestSupport
import Testing

@testable import MQTT

@Suite struct ConnectionFailureTests {
    @Test func wrongPasswordIsRefusedAndRetriedWithBackoff() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let screen = try ClientFixture(url: broker.url, id: "screen", user: "screen", password: "wrong")
        #expect(screen.events.wait(5) { $0.connectFailures.count >= 1 })
        let first = try #require(screen.events.all.connectFailures.first)
        #expect(first.error.isCredentialsRefusal, "\(first.error)")
        #expect(first.error.description.contains("authori"), "\(first.error)")

        // Over a 4 s window: attempts at 0, then after [0.5, 1] s, [1, 2] s, [2, 4] s: 2 to 4, never a loop.
        Thread.sleep(forTimeInterval: 4)  // the observation window itself, not a synchronisation
        let failures = screen.events.all.connectFailures
        #expect((2...4).contains(failures.count), "\(failures.count) attempts in 4 s")
        #expect(screen.events.all.connectedCount == 0)
        for (index, failure) in failures.enumerated() {
            let step = Duration.seconds(1 << index)
            #expect(failure.retryIn >= step / 2 && failure.retryIn <= step, "retry \(index): \(failure.retryIn)")
            #expect(failure.error.isCredentialsRefusal)
        }
        // stop() ends the wait between attempts and makes no further attempt. Its documented bound (stopTimeout
        // + loopTimeout + 2 s) is a hang guard, not a speed: how fast it returns on a busy machine is no property.
        let started = ContinuousClock.now
        screen.client.stop()
        let configuration = MQTTConfiguration(host: "127.0.0.1", clientID: "defaults")
        #expect(ContinuousClock.now - started < configuration.stopTimeout + configuration.loopTimeout + .seconds(2))
        let attemptsWhenStopped = screen.events.all.connectFailures.count
        #expect(!screen.events.wait(1.5) { $0.connectFailures.count > attemptsWhenStopped })
        #expect(screen.events.all.connectedCount == 0)
    }

    @Test func brokerDownAtStartIsRetriedUntilItComes() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        broker.kill()
        let screen = try ClientFixture(url: broker.url, id: "screen", user: "screen", password: "pw")
        #expect(screen.events.wait(5) { $0.connectFailures.count >= 1 })
        let failure = try #require(screen.events.all.connectFailures.first)
        #expect(failure.error.description.contains("Connection refused"), "\(failure.error)")
        try broker.start()
        #expect(screen.waitConnected(timeout: 10))
    }

    @Test func tlsWithTheRightCAConnects() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"], tls: true)
        let authority = try #require(broker.authority)
        let url = try #require(broker.tlsURL)
        let screen = try ClientFixture(
            url: url, id: "screen", user: "screen", password: "pw",
            tls: .init(caFile: authority.certificateFile))
        try screen.client.subscribe("queued/screen/#")
        #expect(screen.waitConnected(subscriptions: 1))
        try screen.client.publish(topic: "queued/screen/hello", payload: bytes("over TLS"))
        #expect(screen.events.message(on: "queued/screen/hello")?.text == "over TLS")
    }

    @Test func tlsWithAWrongCAIsRefused() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"], tls: true)
        let elsewhere = try TemporaryDirectory(prefix: "queued-other-ca")
        let otherAuthority = try TestCertificateAuthority(in: elsewhere.path, name: "other-ca")
        let url = try #require(broker.tlsURL)
        let screen = try ClientFixture(
            url: url, id: "screen", user: "screen", password: "pw",
            tls: .init(caFile: otherAuthority.certificateFile))
        #expect(screen.events.wait(5) { $0.connectFailures.count >= 1 })
        let failure = try #require(screen.events.all.connectFailures.first)
        #expect(failure.error.isTLSFailure, "\(failure.error)")
        #expect(screen.events.all.connectedCount == 0)
    }

    @Test func mutualTLSWithAClientCertificate() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"], tls: true, requireClientCertificate: true)
        let authority = try #require(broker.authority)
        let url = try #require(broker.tlsURL)
        let client = try authority.issue(name: "screen-client", commonName: "screen", server: false)
        let screen = try ClientFixture(
            url: url, id: "screen", user: "screen", password: "pw",
            tls: .init(caFile: authority.certificateFile, certFile: client.certificateFile, keyFile: client.keyFile))
        #expect(screen.waitConnected())
        let anonymous = try ClientFixture(
            url: url, id: "nocert", user: "screen", password: "pw", tls: .init(caFile: authority.certificateFile))
        #expect(anonymous.events.wait(5) { $0.connectFailures.count >= 1 })
        #expect(anonymous.events.all.connectedCount == 0)
    }

    @Test func reconnectsAndResubscribesAfterABrokerOutage() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let screen = try ClientFixture(url: broker.url, id: "screen", user: "screen", password: "pw")
        try screen.client.subscribe("queued/screen/desired")
        #expect(screen.waitConnected(subscriptions: 1))
        let fleet = try ClientFixture(url: broker.url, id: "fleet", user: "screen", password: "pw")
        #expect(fleet.waitConnected())

        broker.kill(signal: SIGKILL)
        #expect(screen.events.wait(5) { $0.disconnectedCount == 1 })
        guard
            case .disconnected(let error?, let retry?) = screen.events.all.last(where: {
                if case .disconnected = $0 { true } else { false }
            })
        else {
            Issue.record("no disconnected event with an error and a retry delay")
            return
        }
        #expect(retry <= .seconds(1), "\(error)")
        // QoS 1 while the broker is away: kept by the library, sent again after the reconnect.
        #expect(fleet.events.wait(5) { $0.disconnectedCount == 1 })
        let queued = try fleet.client.publish(topic: "queued/screen/pop", payload: bytes("during outage"))

        try broker.restart()
        #expect(screen.waitConnected(connections: 2, subscriptions: 2, timeout: 15))
        #expect(fleet.waitConnected(connections: 2, timeout: 15))
        #expect(fleet.events.ack(queued, timeout: 5).map { !$0.isFailure } == true)
        #expect(fleet.client.pendingAcknowledgements == 0)

        try fleet.client.publish(topic: "queued/screen/desired", payload: bytes("after outage"))
        #expect(screen.events.message(on: "queued/screen/desired")?.text == "after outage")
    }

    @Test func lastWillIsPublishedRetainedWhenTheConnectionDies() throws {
        let broker = try MosquittoBroker(users: ["screen": "pw"])
        let watcher = try ClientFixture(url: broker.url, id: "watcher", user: "screen", password: "pw")
        try watcher.client.subscribe("queued/screen/status")
        #expect(watcher.waitConnected(subscriptions: 1))
        let will = MQTTConfiguration.LastWill(
            topic: "queued/screen/status", payload: bytes("offline"), qos: .atLeastOnce, retain: true)
        let screen = try ClientFixture(url: broker.url, id: "screen", user: "screen", password: "pw", will: will)
        #expect(screen.waitConnected())
        try screen.client.publish(topic: "queued/screen/status", payload: bytes("online"), retain: true)
        #expect(watcher.events.wait(5) { $0.messages.contains { $0.text == "online" } })

        // The socket shut down with no DISCONNECT, as when the process dies: the broker's side sees the same
        // end of stream as after a kill -9, and publishes the will we gave in CONNECT.
        screen.client.dropConnectionWithoutDisconnect()
        #expect(watcher.events.wait(5) { $0.messages.contains { $0.text == "offline" } })
        #expect(broker.log.contains("closed its connection") || broker.log.contains("disconnected"))

        // Retained: a subscriber that comes later still reads "offline", flagged as retained. (The client
        // reconnects meanwhile, as after any loss; the will stays retained until someone publishes over it.)
        let later = try ClientFixture(url: broker.url, id: "later", user: "screen", password: "pw")
        try later.client.subscribe("queued/screen/status")
        let status = try #require(later.events.message(on: "queued/screen/status"))
        #expect(status.text == "offline")
        #expect(status.retain)
    }

    @Test func aclKeepsEachUserInsideItsOwnTopics() throws {
        let broker = try MosquittoBroker(users: ["a": "pa", "b": "pb"], acl: ["pattern readwrite queued/%u/#"])
        let a = try ClientFixture(url: broker.url, id: "a", user: "a", password: "pa")
        try a.client.subscribe("queued/a/#")
        #expect(a.waitConnected(subscriptions: 1))
        let b = try ClientFixture(url: broker.url, id: "b", user: "b", password: "pb")
        try b.client.subscribe("queued/b/#")
        #expect(b.waitConnected(subscriptions: 1))

        // A into B's topic: the broker drops it (QoS 1 tells A: PUBACK "not authorised")…
        let intrusion = try a.client.publish(topic: "queued/b/rpc/req", payload: bytes("from a"))
        #expect(a.events.ack(intrusion) == .notAuthorized)
        // …and B gets nothing: B's own marker, published after A's refusal was settled, arrives alone.
        let marker = try b.client.publish(topic: "queued/b/marker", payload: bytes("marker"))
        #expect(b.events.ack(marker).map { !$0.isFailure } == true)
        #expect(b.events.message(on: "queued/b/marker") != nil)
        #expect(!b.events.wait(0.5) { $0.messages.contains { $0.topic == "queued/b/rpc/req" } })

        // A's own topic works.
        let own = try a.client.publish(topic: "queued/a/status", payload: bytes("mine"))
        #expect(a.events.ack(own).map { !$0.isFailure } == true)
        #expect(a.events.message(on: "queued/a/status")?.text == "mine")
    }
}
