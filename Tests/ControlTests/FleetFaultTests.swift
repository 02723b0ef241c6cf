// queued-mqtt when the fleet's side is wrong, against a real Mosquitto and nginx on loopback: credentials the
// broker refuses and a broker certificate from another CA are clear errors in the log, retried with a growing
// wait and never a crash (the screen plays on, never shown online); a desired document whose file never
// matches its sha256 is refused before the queue is touched; a method the operator did not allow is refused
// and never run; a bridge started while the broker is down connects when it comes; a retained request left
// on the broker is never run, across a bridge killed with -9 and a broker restart.

import Foundation
import JSONText
import MQTT
import QueueClient
import QueueRPC
import TestSupport
import Testing

extension FleetBridgeTests {
    private static func credentialsFile(_ directory: String, user: String, password: String) throws -> String {
        let path = directory + "/credentials-" + user + "-" + password
        try "username=\(user)\npassword=\(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// The waits the bridge announced ("trying again in N seconds"), in order.
    private static func retryWaits(_ log: String) -> [Double] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "trying again in ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
    }

    @Test func refusedCredentialsAndAnUntrustedBrokerAreClearErrorsRetriedWithBackoff() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-faults")
        let broker = try MosquittoBroker(users: ["p1": "p1-secret", "operator": "operator-secret"], tls: true)
        defer { broker.stop() }
        let tlsURL = try #require(broker.tlsURL)
        let stranger = try TestCertificateAuthority(in: scratch.path, name: "other-ca")
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--loops", "0"], logLevel: "warning")
        defer { daemon.stop() }
        _ = try daemon.client().call("queue.add", ["items": [.string(tone)]])
        _ = try daemon.client().call("player.play")
        let observed = Inbox()
        let observer = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: observed.take)
        try observer.subscribe("queued/#", qos: .atLeastOnce)
        observer.start()
        defer { observer.stop() }
        #expect(observed.waitConnected(10))

        let wrongPassword = try ChildProcess(
            BuiltProduct.path("queued-mqtt"),
            [
                "--no-config", "--broker", broker.url, "--player", "p1", "--socket", daemon.socket, "--credentials",
                try Self.credentialsFile(scratch.path, user: "p1", password: "guessed"),
            ], stderrPath: scratch.path + "/wrong-password.log")
        defer { _ = wrongPassword.terminate() }
        let untrusted = try ChildProcess(
            BuiltProduct.path("queued-mqtt"),
            [
                "--no-config", "--broker", tlsURL, "--player", "p1", "--socket", daemon.socket, "--ca",
                stranger.certificateFile, "--credentials",
                try Self.credentialsFile(scratch.path, user: "p1", password: "p1-secret"),
            ], stderrPath: scratch.path + "/untrusted.log")
        defer { _ = untrusted.terminate() }
        func log(_ name: String) -> String { (try? String(contentsOfFile: scratch.path + "/\(name).log", encoding: .utf8)) ?? "" }

        // Three refusals each: said plainly, with waits that grow (1 s doubling, jittered).
        let refusedThrice = waitUntil(timeout: 30, pollInterval: 0.1) {
            Self.retryWaits(log("wrong-password")).count >= 3 && Self.retryWaits(log("untrusted")).count >= 3
        }
        #expect(refusedThrice, "\(log("wrong-password"))\n\(log("untrusted"))")
        #expect(log("wrong-password").contains("refused this player's credentials"), "\(log("wrong-password"))")
        #expect(log("untrusted").contains("TLS to the broker failed"), "\(log("untrusted"))")
        for name in ["wrong-password", "untrusted"] {
            let waits = Self.retryWaits(log(name))
            #expect(waits.count >= 3 && waits[2] > waits[0], "\(name): the wait grows: \(waits)")
        }
        #expect(wrongPassword.isRunning && untrusted.isRunning, "no crash, no crash loop")
        #expect(!observed.all.contains { $0.topic == "queued/p1/status" }, "never online")
        #expect(try daemon.client().call("player.status")["state"]?.stringValue == "playing", "the screen plays on")
    }

    @Test func aDocumentWhoseFileNeverMatchesItsDigestIsRefusedBeforeTheSwap() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-digest")
        let site = try TemporaryDirectory(prefix: "queued-fleet-site")
        _ = try NetworkFaultTests.clip(in: site.path, named: "right.mp4", hue: 0, seconds: 1)
        _ = try NetworkFaultTests.clip(in: site.path, named: "wrong.mp4", hue: 120, seconds: 1)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let rightDigest = try NetworkIntegrityTests.sha256(of: site.path + "/right.mp4")
        let broker = try MosquittoBroker(users: ["p1": "p1-secret", "operator": "operator-secret"])
        defer { broker.stop() }
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false),
            ["--state-dir", scratch.path + "/state", "--cache-dir", scratch.path + "/cache"], logLevel: "warning")
        defer { daemon.stop() }
        let bridge = try ChildProcess(
            BuiltProduct.path("queued-mqtt"),
            [
                "--no-config", "--broker", broker.url, "--player", "p1", "--socket", daemon.socket, "--credentials",
                try Self.credentialsFile(scratch.path, user: "p1", password: "p1-secret"),
                "--rpc-allow", "player.*", "--rpc-deny", "player.stop",
            ], stderrPath: scratch.path + "/bridge.log")
        defer { _ = bridge.terminate() }
        let inbox = Inbox()
        let operatorClient = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        try operatorClient.subscribe("queued/#", qos: .atLeastOnce)
        operatorClient.start()
        defer { operatorClient.stop() }
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("online") } })
        func reported(_ predicate: @escaping (JSONValue) -> Bool) -> Bool {
            inbox.wait(30) { messages in
                messages.last { $0.topic == "queued/p1/reported" }.flatMap { try? JSON.parse($0.payload) }.map(predicate)
                    ?? false
            }
        }
        func queueURIs() throws -> [String] {
            try daemon.client().call("queue.list")["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        }
        let right = nginx.baseURL + "/right.mp4"
        let wrong = nginx.baseURL + "/wrong.mp4"

        _ = try operatorClient.publish(
            topic: "queued/p1/desired",
            payload: Array(#"{"rev": 1, "queue": [{"uri": "\#(right)", "sha256": "\#(rightDigest)"}], "loops": 0}"#.utf8),
            qos: .atLeastOnce, retain: true)
        #expect(reported { $0["appliedRev"]?.intValue == 1 }, "a file with its right digest is applied")
        #expect(try queueURIs() == [right])

        let claimed = String(repeating: "ab", count: 32)
        _ = try operatorClient.publish(
            topic: "queued/p1/desired",
            payload: Array(
                #"{"rev": 2, "queue": [{"uri": "\#(right)"}, {"uri": "\#(wrong)", "sha256": "\#(claimed)"}]}"#.utf8),
            qos: .atLeastOnce, retain: true)
        #expect(
            reported { ($0["error"]?.stringValue ?? "").contains("sha256 mismatch") },
            "\(String(describing: inbox.latest("queued/p1/reported")))")
        let last = inbox.latest("queued/p1/reported")
        #expect(last?["appliedRev"]?.intValue == 1 && (last?["error"]?.stringValue ?? "").contains(claimed))
        #expect(try queueURIs() == [right], "the queue was never swapped")
        let fetches = nginx.responses().filter { $0.uri == "/wrong.mp4" }.map(\.status)
        #expect(fetches.count >= 2, "fetched, found wrong, fetched again: \(fetches)")

        // The operator allowed player.* but not player.stop: refused and never run; an allowed one runs.
        func call(_ id: Int, _ method: String) -> JSONValue? {
            _ = try? operatorClient.publish(
                topic: "queued/p1/rpc/req", payload: Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#.utf8),
                qos: .atLeastOnce, retain: false)
            var answer: JSONValue?
            _ = inbox.wait(10) { messages in
                answer = messages.filter { $0.topic == "queued/p1/rpc/res" }.compactMap { try? JSON.parse($0.payload) }
                    .first { $0["id"]?.intValue == Int64(id) }
                return answer != nil
            }
            return answer
        }
        #expect(call(1, "player.stop")?["error"]?["message"]?.stringValue?.contains("may not be called") == true)
        #expect(call(2, "queue.clear")?["error"] != nil)
        #expect(try queueURIs() == [right], "queue.clear was not run")
        #expect(call(3, "player.status")?["result"]?["appliedRev"]?.intValue == 1)
        #expect(try daemon.client().call("player.status")["state"]?.stringValue == "playing")
    }

    @Test func aBridgeStartedBeforeItsBrokerConnectsAndARetainedRequestIsNeverRun() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-retained")
        let broker = try MosquittoBroker(users: ["p1": "p1-secret", "operator": "operator-secret"], persistent: true)
        defer { broker.stop() }
        let tone = try Fixtures.tone(frequency: 550, seconds: 0.5, format: .wav)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--loops", "0"], logLevel: "warning")
        defer { daemon.stop() }
        _ = try daemon.client().call("queue.add", ["items": [.string(tone)]])
        _ = try daemon.client().call("player.play")
        let credentials = try Self.credentialsFile(scratch.path, user: "p1", password: "p1-secret")
        func bridge(_ name: String) throws -> ChildProcess {
            try ChildProcess(
                BuiltProduct.path("queued-mqtt"),
                [
                    "--no-config", "--broker", broker.url, "--player", "p1", "--socket", daemon.socket, "--credentials",
                    credentials, "--keepalive", "5",
                ], stderrPath: scratch.path + "/\(name).log")
        }
        func log(_ name: String) -> String { (try? String(contentsOfFile: scratch.path + "/\(name).log", encoding: .utf8)) ?? "" }

        // The broker is down when the bridge starts: it retries, and connects once the broker is back.
        broker.kill()
        var running = try bridge("bridge-1")
        defer { _ = running.terminate() }
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { log("bridge-1").contains("trying again") }, "\(log("bridge-1"))")
        try broker.start()
        let inbox = Inbox()
        let operatorClient = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        try operatorClient.subscribe("queued/p1/#", qos: .atLeastOnce)
        operatorClient.start()
        defer { operatorClient.stop() }
        #expect(inbox.wait(30) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("online") } }, "online once the broker is up")

        // A request left retained on the broker: refused each time it is delivered, never run.
        func refusals(_ messages: [MQTTMessage]) -> Int {
            messages.filter { $0.topic == "queued/p1/rpc/res" && $0.text.contains("retained") }.count
        }
        _ = try operatorClient.publish(
            topic: "queued/p1/rpc/req", payload: Array(#"{"jsonrpc":"2.0","id":41,"method":"player.pause"}"#.utf8),
            qos: .atLeastOnce, retain: true)
        #expect(inbox.wait(15) { refusals($0) >= 1 })
        // The bridge killed with -9 and started again: the retained request comes again, and is refused again.
        kill(running.pid, SIGKILL)
        _ = running.wait()
        running = try bridge("bridge-2")
        #expect(inbox.wait(20) { refusals($0) >= 2 }, "\(log("bridge-2"))")
        // The broker restarted (its retained messages saved and read back): delivered again, refused again.
        broker.stop()
        try broker.start()
        // (Counted in the bridge's log: the answer may go out before the test's own client is back.)
        func refusedInLog() -> Int { log("bridge-2").components(separatedBy: "rpc request refused").count - 1 }
        #expect(waitUntil(timeout: 30, pollInterval: 0.05) { refusedInLog() >= 2 }, "\(log("bridge-2"))")
        #expect(try daemon.client().call("player.status")["state"]?.stringValue == "playing", "player.pause never ran")
        _ = try operatorClient.publish(topic: "queued/p1/rpc/req", payload: [], qos: .atLeastOnce, retain: true)
    }
}
