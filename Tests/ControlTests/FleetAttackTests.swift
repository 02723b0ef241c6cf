// The fleet's door tried from outside, as an attacker on a shop's network who holds an operator's or a
// screen's broker credentials would: the real `queued` and `queued-mqtt` against a real Mosquitto (the ACL
// and the settings shipped in contrib/mosquitto) and nginx on loopback. What must hold is asserted on the
// daemon itself, through its socket: its queue, its overlays, its settings, its applied rev. Local files in
// every spelling of every method that names one; documents that fail on any field change nothing; a media
// server down then up is applied later without a restart; hanging downloads do not freeze the bridge and a
// newer rev supersedes them; a flood of requests is bounded; a response topic outside rpc/res is refused;
// a refused publish is reported; one screen's credentials cannot take over another's client id.

import Foundation
import JSONText
import MQTT
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// A broker with contrib/mosquitto's ACL and settings, one screen (daemon + bridge "p1") and the operator.
private final class AttackScene {
    static let contrib = FleetBridgeTests.contrib + "/mosquitto"
    let scratch: TemporaryDirectory
    let broker: MosquittoBroker
    let daemon: RunningDaemon
    var bridge: ChildProcess?
    let inbox = Inbox()
    let operatorClient: MosquittoClient

    /// `aclWithout`: shipped ACL lines left out (to make the broker refuse the bridge something).
    init(aclWithout: [String] = [], brokerSettings: Bool = true, users extra: [String: String] = [:]) throws {
        scratch = try TemporaryDirectory(prefix: "queued-fleet-attack")
        chmod(scratch.path, 0o755)
        let shipped = try String(contentsOfFile: Self.contrib + "/acl", encoding: .utf8)
        let patterns = shipped.split(separator: "\n").filter { $0.hasPrefix("pattern ") }.map(String.init)
            .filter { !aclWithout.contains($0) }
        broker = try MosquittoBroker(
            users: ["p1": "p1-secret", "p2": "p2-secret", "operator": "operator-secret"].merging(extra) { $1 },
            acl: patterns + ["user operator", "topic readwrite queued/#"])
        if brokerSettings { try Self.applyShippedSettings(broker) }
        daemon = try RunningDaemon(
            outputs: .null(untimed: false), ["--cache-dir", scratch.path + "/cache"], logLevel: "warning")
        operatorClient = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        try operatorClient.subscribe("queued/#", qos: .atLeastOnce)
        operatorClient.start()
    }

    /// contrib/mosquitto/mosquitto.conf's client-id and packet-size settings, added to the test broker's own.
    static func applyShippedSettings(_ broker: MosquittoBroker) throws {
        let shipped = try String(contentsOfFile: contrib + "/mosquitto.conf", encoding: .utf8)
        let settings = shipped.split(separator: "\n").filter {
            $0.hasPrefix("use_username_as_clientid ") || $0.hasPrefix("max_packet_size ")
        }
        #expect(settings.count == 2, "contrib/mosquitto/mosquitto.conf sets both")
        // After the plain listener's line, where the shipped file has them after its own listener's.
        let path = broker.directory + "/mosquitto.conf"
        let config = try String(contentsOfFile: path, encoding: .utf8)
        let listener = "listener \(broker.port) 127.0.0.1\n"
        #expect(config.contains(listener))
        let changed = config.replacingOccurrences(of: listener, with: listener + settings.joined(separator: "\n") + "\n")
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
        try broker.restart()
    }

    func credentials(_ user: String) throws -> String {
        let path = scratch.path + "/credentials-" + user
        try "username=\(user)\npassword=\(user)-secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// A short tone looping on the daemon, playing: a screen at work. Returns a connection to its socket.
    func playLoopingTone(seconds: Double) throws -> QueueClient {
        let tone = try Fixtures.tone(frequency: 440, seconds: seconds, format: .wav)
        let control = try daemon.client()
        _ = try control.call("queue.replace", ["items": [.string(tone)], "loops": 0])
        _ = try control.call("player.play")
        return control
    }

    func startBridge(_ extra: [String] = []) throws {
        bridge = try ChildProcess(
            BuiltProduct.path("queued-mqtt"),
            [
                "--no-config", "--broker", broker.url, "--player", "p1", "--credentials", try credentials("p1"),
                "--socket", daemon.socket, "--keepalive", "5", "--log-level", "info",
            ] + extra, stderrPath: scratch.path + "/bridge.log")
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("online") } }, "\(log)")
    }

    var log: String { (try? String(contentsOfFile: scratch.path + "/bridge.log", encoding: .utf8)) ?? "" }

    func stop() {
        _ = bridge?.terminate()
        operatorClient.stop()
        daemon.stop()
        broker.stop()
    }

    /// The newest `reported` document satisfies `predicate` within `timeout`.
    func reported(_ timeout: Double = 20, _ predicate: @escaping (JSONValue) -> Bool) -> Bool {
        inbox.wait(timeout) { messages in
            messages.last { $0.topic == "queued/p1/reported" }.flatMap { try? JSON.parse($0.payload) }.map(predicate) ?? false
        }
    }

    var lastReported: JSONValue? { inbox.latest("queued/p1/reported") }

    func publishDocument(_ text: String) throws {
        _ = try operatorClient.publish(topic: "queued/p1/desired", payload: Array(text.utf8), qos: .atLeastOnce, retain: true)
    }

    private var nextID = 1000

    /// Sends a request as the operator; returns its answer (from rpc/res), or nil after `timeout`.
    func call(_ method: String, _ params: JSONValue?, responseTopic: String? = nil, timeout: Double = 10) -> JSONValue? {
        nextID += 1
        let id = nextID
        var request: JSONObject = ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method)]
        if let params { request["params"] = params }
        _ = try? operatorClient.publish(
            topic: "queued/p1/rpc/req", payload: JSON.serialize(.object(request)), qos: .atLeastOnce,
            responseTopic: responseTopic)
        var answer: JSONValue?
        _ = inbox.wait(timeout) { messages in
            answer = messages.filter { $0.topic.hasPrefix("queued/p1/rpc/res") }.compactMap { try? JSON.parse($0.payload) }
                .first { $0["id"]?.intValue == Int64(id) }
            return answer != nil
        }
        return answer
    }

    /// What the daemon has: queue URIs, overlays, volume, rotate, applied rev (read through its socket).
    func daemonState() throws -> DaemonState {
        let client = try daemon.client()
        let queue = try client.call(API.QueueList.self, .init())
        let overlays = try client.call(API.OverlayList.self, NoParams())
        let status = try client.call(API.PlayerStatus.self, NoParams())
        return DaemonState(
            uris: queue.items.map(\.uri), overlays: overlays.overlays.map { JSON.string($0.json) }, volume: status.volume,
            rotate: status.rotate, fit: status.fit, appliedRev: status.appliedRev)
    }
}

struct DaemonState: Equatable {
    var uris: [String]
    var overlays: [String]
    var volume: Int64
    var rotate: Int64
    var fit: String
    var appliedRev: Int64?
}

extension FleetBridgeTests {
    @Test func localFilesThroughTheBrokerAreRefusedInEverySpellingAndTheDaemonIsUntouched() throws {
        let scene = try AttackScene()
        defer { scene.stop() }
        try scene.startBridge()
        let folder = scene.scratch.path + "/media"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let playlist = folder + "/list.m3u"
        try "/etc/hostname\n../../etc/passwd\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        let before = try scene.daemonState()
        let file = "/etc/hostname"
        let attempts: [(String, JSONValue)] = [
            ("queue.add", ["items": [.string(file)]]), ("queue.add", [[.string(file)]]),
            ("queue.add", [[["uri": .string("file:///etc/hostname")]]]), ("queue.add", [[.string(playlist)]]),
            ("queue.add", [[.string(folder)]]),
            ("queue.insert", ["items": [.string(file)], "index": 0]), ("queue.insert", [[.string(file)], 0]),
            ("queue.replace", ["items": [.string(file)]]), ("queue.replace", [[.string(file)]]),
            ("queue.interrupt", ["item": .string(file)]), ("queue.interrupt", [.string(file)]),
            ("queue.interrupt", [["uri": "file:///etc/passwd"]]),
            ("state.apply", ["items": [.string(file)]]), ("state.apply", [[.string(file)]]),
            ("state.apply", ["items": [], "overlays": [["type": "image", "path": "/etc/hostname"]]]),
            ("overlay.add", ["type": "image", "path": "/etc/hostname"]), ("overlay.add", ["image", .null, "/etc/hostname"]),
            ("overlay.update", ["id": 1, "path": "/etc/hostname"]),
            ("plays.ack", ["through": 1000]), ("events.subscribe", .null), ("session.confine", ["folders": ["/"]]),
            // Rules that run programs or read devices: only when the operator names the methods.
            ("outputs.set", ["outputs": ["on=start -> command /bin/sh -c id"]]), ("triggers.set", ["triggers": ["key=F1 -> next"]]),
        ]
        for (method, params) in attempts {
            let answer = scene.call(method, params == .null ? nil : params)
            #expect(answer?["error"] != nil && answer?["result"] == nil, "\(method) \(JSON.string(params)): \(String(describing: answer))")
        }
        #expect(try scene.daemonState() == before, "nothing changed on the daemon")
        let local = try scene.daemon.client()
        #expect(try local.call(API.OutputsList.self, NoParams()).outputs.isEmpty && local.call(API.TriggersList.self, NoParams()).triggers.isEmpty,
                "no rule was set from the fleet")
        #expect(scene.call("player.status", nil)?["result"]?["state"] != nil, "an allowed request still runs")
        #expect(scene.log.contains("rpc request refused"), "refusals are logged")
    }

    @Test func aDocumentThatFailsOnAnyFieldChangesNothingOnTheDaemon() throws {
        let site = try TemporaryDirectory(prefix: "queued-fleet-attack-site")
        chmod(site.path, 0o755)
        _ = try NetworkFaultTests.clip(in: site.path, named: "clip.mp4", seconds: 1)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let scene = try AttackScene()
        defer { scene.stop() }
        // The screen's state, set through its own socket: a queue with rev 1, a text layer, volume 50, rotate 90.
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let control = try scene.daemon.client()
        _ = try control.call("queue.replace", ["items": [.string(tone)], "rev": 1, "loops": 0])
        _ = try control.call("overlay.add", ["type": "text", "text": "Sale"])
        _ = try control.call("player.set", ["volume": 50, "rotate": 90])
        _ = try control.call("player.play")
        try scene.startBridge()
        #expect(scene.reported { $0["appliedRev"]?.intValue == 1 })
        let before = try scene.daemonState()
        let clip = nginx.baseURL + "/clip.mp4"
        let documents = [
            (2, #"{"rev": 2, "queue": ["\#(clip)"], "rotate": 45}"#, "rotate"),
            (3, #"{"rev": 3, "queue": ["\#(clip)"], "overlays": [{"type": "text", "text": "A"}, {"type": "text", "text": "B", "size": 5000}]}"#, "overlays[1].size"),
            (4, #"{"rev": 4, "queue": ["\#(clip)", {"uri": "\#(clip)", "loops": -1}]}"#, "items[1].loops"),
            (5, #"{"rev": 5, "queue": [{"uri": "\#(clip)", "speed": 2}]}"#, "speed"),
            (6, #"{"rev": 6, "queue": ["\#(clip)", "/etc/hostname"]}"#, "/etc/hostname"),
            (7, #"{"rev": 7, "queue": ["\#(clip)"], "volume": 101, "overlays": []}"#, "volume"),
            (8, #"{"rev": 8, "queue": ["\#(clip)"], "overlays": [{"type": "image", "path": "/etc/hostname"}]}"#, "/etc/hostname"),
            (9, #"{"rev": 9, "queue": ["ftp://127.0.0.1/x.mp4"]}"#, "ftp"),
        ]
        for (rev, text, reason) in documents {
            try scene.publishDocument(text)
            let refused = scene.reported {
                let error = $0["error"]?.stringValue ?? ""
                return error.contains("rev \(rev) ") && error.contains("refused") && error.contains(reason)
            }
            #expect(refused, "rev \(rev): \(String(describing: scene.lastReported))")
            #expect(scene.lastReported?["appliedRev"]?.intValue == 1 && scene.lastReported?["pendingRev"] == .null)
            #expect(try scene.daemonState() == before, "rev \(rev) changed nothing on the daemon")
        }
        #expect(nginx.responses().isEmpty, "nothing was downloaded for a document the daemon would refuse")
        // And a good one still applies, in one step, settings and overlays included.
        try scene.publishDocument(#"{"rev": 10, "queue": ["\#(clip)"], "rotate": 180, "overlays": []}"#)
        #expect(scene.reported { $0["appliedRev"]?.intValue == 10 && $0["error"] == .null })
        let after = try scene.daemonState()
        #expect(after.uris == [clip] && after.rotate == 180 && after.overlays.isEmpty && after.appliedRev == 10)
    }

    @Test func aMediaServerDownWhenTheDocumentArrivesIsAppliedOnceItIsUpWithoutARestart() throws {
        let site = try TemporaryDirectory(prefix: "queued-fleet-attack-site")
        chmod(site.path, 0o755)
        _ = try NetworkFaultTests.clip(in: site.path, named: "clip.mp4", seconds: 1)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        nginx.stop()
        let scene = try AttackScene()
        defer { scene.stop() }
        try scene.startBridge()
        let clip = nginx.baseURL + "/clip.mp4"
        try scene.publishDocument(#"{"rev": 1, "queue": ["\#(clip)"], "loops": 0}"#)
        let pending = scene.reported {
            $0["pendingRev"]?.intValue == 1 && ($0["error"]?.stringValue ?? "").contains("not applied yet")
                && $0["applying"]?["state"]?.stringValue == "waiting"
        }
        #expect(pending, "pending, with the reason: \(String(describing: scene.lastReported))")
        #expect(try scene.daemonState().appliedRev == nil)
        try nginx.start()
        #expect(scene.reported { $0["appliedRev"]?.intValue == 1 && $0["pendingRev"] == .null && $0["error"] == .null },
            "applied once the server is back: \(String(describing: scene.lastReported))\n\(scene.log)")
        #expect(try scene.daemonState().uris == [clip])
        #expect(scene.bridge?.isRunning == true)
    }

    @Test func whileDownloadsHangTheBridgeAnswersReportsDeliversPlaysAndANewerRevSupersedes() throws {
        let site = try TemporaryDirectory(prefix: "queued-fleet-attack-site")
        chmod(site.path, 0o755)
        _ = try NetworkFaultTests.clip(in: site.path, named: "clip.mp4", seconds: 1)
        let nginx = try NginxServer(root: site.path, slowRate: 1000)
        defer { nginx.stop() }
        let scene = try AttackScene()
        defer { scene.stop() }
        let control = try scene.playLoopingTone(seconds: 0.3)
        try scene.startBridge()
        let slow = nginx.baseURL + "/slow/clip.mp4"
        try scene.publishDocument(#"{"rev": 1, "queue": ["\#(slow)"]}"#)
        #expect(scene.reported { $0["applying"]?["state"]?.stringValue == "downloading" && $0["pendingRev"]?.intValue == 1 },
            "\(String(describing: scene.lastReported))")
        // Meanwhile: requests answered, the report follows a change, plays still arrive.
        // Answered at all within the call's own 5 s wait (nil otherwise) while the download hangs.
        #expect(scene.call("player.status", nil, timeout: 5)?["result"]?["state"]?.stringValue == "playing")
        _ = try control.call("player.pause")
        #expect(scene.reported(10) { $0["state"]?.stringValue == "paused" && $0["pendingRev"]?.intValue == 1 })
        _ = try control.call("player.play")
        let plays = { scene.inbox.all.filter { $0.topic == "queued/p1/events" }.count }
        let playsBefore = plays()
        #expect(scene.inbox.wait(10) { messages in messages.filter { $0.topic == "queued/p1/events" }.count > playsBefore + 2 })
        // A newer rev takes over: applied, and the hanging one never is.
        let fast = nginx.baseURL + "/clip.mp4"
        try scene.publishDocument(#"{"rev": 2, "queue": ["\#(fast)"]}"#)
        #expect(scene.reported(15) { $0["appliedRev"]?.intValue == 2 && $0["pendingRev"] == .null },
            "\(String(describing: scene.lastReported))\n\(scene.log)")
        #expect(try scene.daemonState().uris == [fast])
        #expect(scene.log.contains("superseded"))
        #expect(!scene.inbox.all.contains { $0.topic == "queued/p1/reported" && $0.text.contains(#""appliedRev":1"#) })
    }

    @Test func aFloodOfRequestsIsBoundedAndEveryAdmittedOneIsAnswered() throws {
        let scene = try AttackScene()
        defer { scene.stop() }
        try scene.startBridge()
        #expect(scene.call("player.status", nil)?["result"] != nil)
        // The daemon stopped: admitted requests wait for it; past 64 they are refused at once.
        kill(scene.daemon.process.pid, SIGSTOP)
        var resumed = false
        defer { if !resumed { kill(scene.daemon.process.pid, SIGCONT) } }
        let flood = 200
        for id in 1...flood {
            _ = try scene.operatorClient.publish(
                topic: "queued/p1/rpc/req",
                payload: Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"player.status"}"#.utf8), qos: .atMostOnce)
        }
        func answers(_ messages: [MQTTMessage]) -> [JSONValue] {
            messages.filter { $0.topic == "queued/p1/rpc/res" }.compactMap { try? JSON.parse($0.payload) }
                .filter { ($0["id"]?.intValue ?? 0) <= Int64(flood) }
        }
        let busy = { (messages: [MQTTMessage]) in
            answers(messages).filter { ($0["error"]?["message"]?.stringValue ?? "").contains("too many requests in flight") }
        }
        #expect(scene.inbox.wait(15) { busy($0).count >= flood - 64 }, "refused at once: \(busy(scene.inbox.all).count)")
        #expect(busy(scene.inbox.all).count == flood - 64, "exactly the ones over the cap")
        kill(scene.daemon.process.pid, SIGCONT)
        resumed = true
        #expect(scene.inbox.wait(15) { answers($0).count >= flood }, "every admitted request answered: \(answers(scene.inbox.all).count)")
        #expect(answers(scene.inbox.all).filter { $0["result"] != nil }.count == 64)
        #expect(scene.log.contains("too many requests in flight"))
        #expect(scene.bridge?.isRunning == true)
    }

    @Test func aResponseTopicOutsideTheRequestersRpcResIsRefusedAndNothingRuns() throws {
        let scene = try AttackScene()
        defer { scene.stop() }
        let control = try scene.playLoopingTone(seconds: 0.5)
        try scene.startBridge()
        for topic in ["queued/p1/status", "queued/p1/reported", "queued/p1/rpc/resx", "queued/p2/rpc/res"] {
            let answer = scene.call("player.pause", nil, responseTopic: topic)
            #expect((answer?["error"]?["message"]?.stringValue ?? "").contains("response topic"), "\(topic): \(String(describing: answer))")
        }
        #expect(try control.call("player.status")["state"]?.stringValue == "playing", "player.pause never ran")
        #expect(!scene.inbox.all.contains { $0.topic == "queued/p1/status" && $0.text.contains("jsonrpc") })
        #expect(scene.inbox.latest("queued/p1/status")?["state"]?.stringValue == "online")
        // Its own space is honoured.
        #expect(scene.call("player.status", nil, responseTopic: "queued/p1/rpc/res/mine")?["result"] != nil)
        #expect(scene.inbox.all.contains { $0.topic == "queued/p1/rpc/res/mine" })
    }

    @Test func aPublishTheBrokerRefusesIsLoggedAndReported() throws {
        let scene = try AttackScene(aclWithout: ["pattern write queued/%u/events"])
        defer { scene.stop() }
        let control = try scene.playLoopingTone(seconds: 0.3)
        try scene.startBridge()
        let reported = scene.reported {
            ($0["brokerRefusals"]?.arrayValue ?? []).contains {
                $0["operation"]?.stringValue == "publish" && $0["topic"]?.stringValue == "queued/p1/events"
            }
        }
        #expect(reported, "\(String(describing: scene.lastReported))")
        #expect(scene.log.contains("the broker refused to let us publish queued/p1/events"))
        let acked = (try? control.call("plays.list"))?["ackedThrough"]?.intValue ?? 0
        #expect(acked == 0, "a refused record is not acknowledged to the daemon")
    }

    @Test func oneScreensCredentialsCannotTakeOverAnothersClientID() throws {
        for shipped in [false, true] {
            let scene = try AttackScene(brokerSettings: shipped)
            defer { scene.stop() }
            try scene.startBridge()
            let taken = Inbox()
            // p2's credentials, p1's bridge's client id.
            let intruder = try MosquittoClient(
                configuration: try MQTTConfiguration(
                    url: scene.broker.url, clientID: "queued-mqtt-p1", username: "p2", password: "p2-secret"),
                onEvent: taken.take)
            intruder.start()
            defer { intruder.stop() }
            #expect(taken.waitConnected(10))
            let offline = scene.inbox.wait(shipped ? 3 : 10) { messages in
                messages.contains { $0.topic == "queued/p1/status" && $0.text.contains("offline") }
            }
            let lost = scene.log.contains("broker connection lost")
            if shipped {
                #expect(!offline && !lost, "with contrib's settings p1's session is its own: \(scene.log)\n\(scene.broker.log.suffix(3000))")
            } else {
                #expect(offline || lost, "without them the intruder takes p1's session (the control case)")
            }
        }
    }
}
