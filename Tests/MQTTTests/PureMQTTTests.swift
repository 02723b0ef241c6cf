// The parts without a broker: the reconnect backoff's arithmetic and the broker URL.

import MQTT
import TestSupport
import Testing

@Suite struct PureMQTTTests {
    @Test func backoffDoublesFromOneSecondToSixtyWithJitter() {
        var backoff = ReconnectBackoff()
        var generator = SeededGenerator(seed: 25)
        let steps: [Int64] = [1, 2, 4, 8, 16, 32, 60, 60, 60]
        var delays: [Duration] = []
        for step in steps {
            let delay = backoff.nextDelay(using: &generator)
            #expect(delay >= .seconds(step) / 2 && delay <= .seconds(step), "step \(step): \(delay)")
            delays.append(delay)
        }
        #expect(Set(delays.suffix(3)).count > 1, "jittered, not constant")
        backoff.reset()
        #expect(backoff.step == .seconds(1))
    }

    @Test func urlSchemesAndPorts() throws {
        let plain = try MQTTConfiguration(url: "mqtt://broker.example", clientID: "s")
        #expect(plain.host == "broker.example" && plain.port == 1883 && plain.tls == nil && plain.keepalive == 30)
        let secure = try MQTTConfiguration(url: "mqtts://broker.example:9883", clientID: "s")
        #expect(secure.port == 9883 && secure.tls == MQTTConfiguration.TLS())
        let ipv6 = try MQTTConfiguration(url: "mqtts://[::1]", clientID: "s")
        #expect(ipv6.host == "::1" && ipv6.port == 8883)
        #expect(throws: MQTTError.self) { try MQTTConfiguration(url: "http://127.0.0.1:1883", clientID: "s") }
        #expect(throws: MQTTError.self) { try MQTTConfiguration(url: "mqtt://broker:0", clientID: "s") }
        #expect(throws: MQTTError.self) { try MQTTConfiguration(url: "mqtt://user:pw@broker", clientID: "s") }
        #expect(throws: MQTTError.self) {
            try MQTTConfiguration(url: "mqtt://broker", clientID: "s", tls: .init(caFile: "/ca.pem"))
        }
    }

    @Test func publishAfterStopAndBadTopicsThrow() throws {
        let configuration = MQTTConfiguration(host: "127.0.0.1", port: 1, clientID: "never")
        let client = try MosquittoClient(configuration: configuration) { _ in }
        #expect(throws: MQTTError.self) { try client.subscribe("bad/#/pattern") }
        client.stop()
        #expect(throws: MQTTError.stopped) { try client.publish(topic: "t", payload: []) }
    }
}
