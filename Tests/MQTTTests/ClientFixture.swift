// A started client with its event log, stopped when the test ends; and the bytes helper the tests share.

import Foundation
import MQTT

final class ClientFixture: @unchecked Sendable {
    let client: MosquittoClient
    let events = EventLog()

    /// Makes and (unless `start` is false) starts a client for `url` (mqtt:// or mqtts://).
    init(
        url: String, id: String, user: String, password: String, tls: MQTTConfiguration.TLS? = nil,
        will: MQTTConfiguration.LastWill? = nil, start: Bool = true
    ) throws {
        let configuration = try MQTTConfiguration(
            url: url, clientID: id, username: user, password: password, tls: tls, will: will)
        client = try MosquittoClient(configuration: configuration, onEvent: events.handler)
        if start { client.start() }
    }

    deinit { client.stop() }

    /// Waits for `connections` CONNACK successes and `subscriptions` SUBACKs in all.
    @discardableResult
    func waitConnected(connections: Int = 1, subscriptions: Int = 0, timeout: Double = 10) -> Bool {
        events.wait(timeout) { $0.connectedCount >= connections && $0.subscribedCount >= subscriptions }
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
