// queued-mqtt against a real Mosquitto on loopback and real daemons (null outputs, on the clock): status
// online (retained) and offline by the Last Will when a bridge is killed with -9; a group's desired document
// applied by every player and reported; a player's own document winning over its group's; an older rev
// ignored; a document with one refused item refused whole with the reason reported and the old queue still
// playing; proof of play for every play, seqs in order without a gap, acknowledged back to the daemon; a
// retained JSON-RPC request never run, a live one answered on its MQTT 5 response topic with its
// correlation data.

import Foundation
import JSONText
import MQTT
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// Every message the test's own client sees. Events arrive on its network thread.
final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [MQTTMessage] = []
    private var connected = false
    /// Acknowledgements of the test's own publishes (the intruder's; ids are per client, so one client at a time).
    private var acks: [(id: Int32, reason: MQTTReasonCode)] = []

    func waitConnected(_ timeout: Double) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !connected {
                if !condition.wait(until: limit) { return connected }
            }
            return true
        }
    }

    func waitAck(_ id: Int32, _ timeout: Double) -> MQTTReasonCode? {
        let limit = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !acks.contains(where: { $0.id == id }) {
                if !condition.wait(until: limit) { break }
            }
            return acks.last { $0.id == id }?.reason
        }
    }

    func take(_ event: MQTTEvent) {
        condition.withLock {
            switch event {
            case .message(let message): messages.append(message)
            case .connected: connected = true
            case .published(let id, let reason): acks.append((id, reason))
            default: break
            }
            condition.broadcast()
        }
    }

    func wait(_ timeout: Double, _ predicate: ([MQTTMessage]) -> Bool) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !predicate(messages) {
                if !condition.wait(until: limit) { return predicate(messages) }
            }
            return true
        }
    }

    var all: [MQTTMessage] { condition.withLock { messages } }

    func latest(_ topic: String) -> JSONValue? {
        all.last { $0.topic == topic }.flatMap { try? JSON.parse($0.payload) }
    }
}

private struct Screen {
    let daemon: RunningDaemon
    let bridge: ChildProcess
    let name: String
}

/// The test's operator, subscribed to everything under queued/ (user "operator", password "operator-secret").
private func operatorObserver(_ broker: MosquittoBroker, _ inbox: Inbox) throws -> MosquittoClient {
    let observer = try MosquittoClient(
        configuration: try MQTTConfiguration(
            url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
        onEvent: inbox.take)
    try observer.subscribe("queued/#", qos: .atLeastOnce)
    observer.start()
    return observer
}

/// One screen "p1" (a daemon on the null outputs and its bridge) on a fresh broker, watched by the operator;
/// everything stopped when it goes, the screen first.
private final class OneScreenFleet {
    let scratch: TemporaryDirectory
    let broker: MosquittoBroker
    let inbox = Inbox()
    let observer: MosquittoClient
    fileprivate let screen: Screen

    fileprivate init(_ tests: FleetBridgeTests, prefix: String, localFiles: Bool, daemonArguments: [String] = []) throws {
        scratch = try TemporaryDirectory(prefix: prefix)
        broker = try MosquittoBroker(
            users: ["p1": "p1-secret", "operator": "operator-secret"],
            acl: ["user operator", "topic readwrite queued/#", "user p1", "topic readwrite queued/p1/#"])
        let credentials = scratch.path + "/credentials-p1"
        try "username=p1\npassword=p1-secret\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o600)
        observer = try operatorObserver(broker, inbox)
        screen = try tests.startScreen(
            "p1", groups: [], broker: broker, credentials: credentials, scratch: scratch.path, localFiles: localFiles,
            daemonArguments: daemonArguments)
    }

    deinit {
        _ = screen.bridge.terminate()
        screen.daemon.stop()
        observer.stop()
        broker.stop()
    }
}

@Suite(.serialized) struct FleetBridgeTests {
    static let contrib = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib").path

    fileprivate func startScreen(
        _ name: String, groups: [String], broker: MosquittoBroker, credentials: String, scratch: String,
        localFiles: Bool = true, daemonArguments: [String] = []
    ) throws -> Screen {
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", scratch + "/state-" + name] + daemonArguments, logLevel: "warning")
        var arguments = [
            "--no-config", "--broker", broker.url, "--player", name, "--credentials", credentials, "--socket",
            daemon.socket, "--keepalive", "5", "--log-level", "info",
        ]
        // Documents naming local files (the test's tones): the operator lets the fleet do so.
        if localFiles { arguments.append("--rpc-local-files") }
        for group in groups { arguments += ["--group", group] }
        let bridge = try ChildProcess(
            BuiltProduct.path("queued-mqtt"), arguments, stderrPath: scratch + "/bridge-" + name + ".log")
        return Screen(daemon: daemon, bridge: bridge, name: name)
    }

    @Test func aFleetOfScreensFollowsItsDocumentsReportsAndProvesEveryPlay() throws {
        let tones = try [440.0, 550, 660].map { try Fixtures.tone(frequency: $0, seconds: 0.4, format: .wav) }
        let scratch = try TemporaryDirectory(prefix: "queued-fleet")
        // The ACL shipped in contrib/mosquitto: its pattern rules, with this test's users and groups.
        let shipped = try String(contentsOfFile: Self.contrib + "/mosquitto/acl", encoding: .utf8)
        let patterns = shipped.split(separator: "\n").filter { $0.hasPrefix("pattern ") }.map(String.init)
        let acl =
            patterns + ["user operator", "topic readwrite queued/#"]
            + ["p1", "p2"].flatMap { ["user \($0)", "topic read queued/group/lobby/desired"] }
        let broker = try MosquittoBroker(
            users: ["p1": "p1-secret", "p2": "p2-secret", "operator": "operator-secret"], acl: acl)
        defer { broker.stop() }
        func credentials(_ name: String) throws -> String {
            let path = scratch.path + "/credentials-" + name
            try "username=\(name)\npassword=\(name)-secret\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            return path
        }

        let inbox = Inbox()
        let observer = try operatorObserver(broker, inbox)
        defer { observer.stop() }

        let screens = try ["p1", "p2"].map {
            try startScreen($0, groups: ["lobby"], broker: broker, credentials: try credentials($0), scratch: scratch.path)
        }
        defer {
            for screen in screens {
                _ = screen.bridge.terminate()
                screen.daemon.stop()
            }
        }
        let online = inbox.wait(20) { messages in
            screens.allSatisfy { screen in
                messages.contains { $0.topic == "queued/\(screen.name)/status" && $0.text.contains("\"online\"") }
            }
        }
        #expect(online, "both bridges online; p1's log:\n\(scratch.path)")

        func publishDocument(_ topic: String, _ text: String) throws {
            _ = try observer.publish(topic: topic, payload: Array(text.utf8), qos: .atLeastOnce, retain: true)
        }
        func reported(_ name: String, _ predicate: @escaping (JSONValue) -> Bool) -> Bool {
            inbox.wait(20) { messages in
                messages.last { $0.topic == "queued/\(name)/reported" }.flatMap { try? JSON.parse($0.payload) }
                    .map(predicate) ?? false
            }
        }
        func queueURIs(_ screen: Screen) throws -> [String] {
            let list = try screen.daemon.client().call("queue.list")
            return list["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        }

        // A group's document: applied by both, and reported.
        try publishDocument(
            "queued/group/lobby/desired", #"{"rev": 1, "queue": ["\#(tones[0])", "\#(tones[1])"], "loops": 0}"#)
        for screen in screens {
            #expect(reported(screen.name) { $0["appliedRev"]?.intValue == 1 && $0["state"]?.stringValue == "playing" })
            #expect((inbox.latest("queued/\(screen.name)/reported")?["health"]?["rss"]?.intValue ?? 0) > 0, "the daemon's health")
            #expect(try queueURIs(screen) == [tones[0], tones[1]])
        }
        // The player's own document wins over its group's.
        try publishDocument("queued/p2/desired", #"{"rev": 2, "queue": ["\#(tones[2])"], "loops": 0}"#)
        #expect(reported("p2") { $0["appliedRev"]?.intValue == 2 })
        #expect(try queueURIs(screens[1]) == [tones[2]])
        // One screen's credentials cannot steer another: the broker refuses p1's publish to p2's document.
        let intruder = try MosquittoClient(
            configuration: try MQTTConfiguration(url: broker.url, clientID: "intruder", username: "p1", password: "p1-secret"),
            onEvent: inbox.take)
        intruder.start()
        defer { intruder.stop() }
        let attempt = try intruder.publish(
            topic: "queued/p2/desired", payload: Array(#"{"rev": 99, "queue": []}"#.utf8), qos: .atLeastOnce, retain: true)
        #expect(inbox.waitAck(attempt, 10) == .notAuthorized)
        #expect(try queueURIs(screens[1]) == [tones[2]])
        #expect(!inbox.all.contains { $0.topic == "queued/p2/desired" && $0.text.contains("99") })

        // An older rev changes nothing; a document with one refused item is refused whole, with the reason.
        try publishDocument("queued/group/lobby/desired", #"{"rev": 0, "queue": ["\#(tones[2])"]}"#)
        try publishDocument(
            "queued/group/lobby/desired", #"{"rev": 3, "queue": ["\#(tones[2])", "ftp://127.0.0.1/x.mp4"]}"#)
        #expect(reported("p1") { ($0["error"]?.stringValue ?? "").contains("rev 3") })
        #expect(inbox.latest("queued/p1/reported")?["appliedRev"]?.intValue == 1)
        #expect(try queueURIs(screens[0]) == [tones[0], tones[1]], "the old queue plays on")
        #expect(try screens[0].daemon.client().call("player.status")["appliedRev"]?.intValue == 1)

        // Proof of play: every play of p1, in seq order with no gap, then acknowledged back to the daemon.
        func records(_ messages: [MQTTMessage]) -> [JSONValue] {
            messages.filter { $0.topic == "queued/p1/events" }.compactMap { try? JSON.parse($0.payload) }
        }
        #expect(inbox.wait(20) { Set(records($0).compactMap { $0["seq"]?.intValue }).count >= 4 })
        let seqs = Array(Set(records(inbox.all).compactMap { $0["seq"]?.intValue })).sorted()
        #expect(seqs == Array(1...Int64(seqs.count)), "\(seqs)")
        #expect(records(inbox.all).allSatisfy { $0["player"]?.stringValue == "p1" && $0["end"]?.stringValue != nil })
        let acknowledged = waitUntil(timeout: 10, pollInterval: 0.1) {
            let left = try? screens[0].daemon.client().call("plays.list")
            return (left?["ackedThrough"]?.intValue ?? 0) >= seqs.last ?? 1
        }
        #expect(acknowledged, "the broker's acknowledgements reach the daemon")

        // A retained request is never run; a live one is answered on its response topic.
        _ = try observer.publish(
            topic: "queued/p1/rpc/req", payload: Array(#"{"jsonrpc":"2.0","id":7,"method":"player.pause"}"#.utf8),
            qos: .atLeastOnce, retain: true)
        #expect(inbox.wait(10) { $0.contains { $0.topic == "queued/p1/rpc/res" && $0.text.contains("retained") } })
        #expect(try screens[0].daemon.client().call("player.status")["state"]?.stringValue == "playing")
        _ = try observer.publish(topic: "queued/p1/rpc/req", payload: [], qos: .atLeastOnce, retain: true)  // cleared
        _ = try observer.publish(
            topic: "queued/p1/rpc/req", payload: Array(#"{"jsonrpc":"2.0","id":8,"method":"player.status"}"#.utf8),
            qos: .atLeastOnce, retain: false, responseTopic: "queued/p1/rpc/res/operator-7", correlationData: [1, 2, 3])
        #expect(inbox.wait(10) { $0.contains { $0.topic == "queued/p1/rpc/res/operator-7" } })
        let answer = try #require(inbox.all.first { $0.topic == "queued/p1/rpc/res/operator-7" })
        #expect(answer.correlationData == [1, 2, 3])
        #expect((try? JSON.parse(answer.payload))?["result"]?["appliedRev"]?.intValue == 1)

        // A bridge killed with -9: the broker says offline (its Last Will) within 1.5 × keepalive.
        kill(screens[0].bridge.pid, SIGKILL)
        _ = screens[0].bridge.wait()
        #expect(inbox.wait(12) { messages in
            messages.last { $0.topic == "queued/p1/status" }?.text.contains("\"offline\"") == true
        })
        #expect(try screens[0].daemon.client().call("player.status")["state"]?.stringValue == "playing", "playback untouched")

        // Every message seen on the broker, the bridges' and the operator's, against Protocol/queued.asyncapi.yaml.
        let validation = try validateMQTTMessages(inbox.all, in: scratch.path)
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 20)
    }
}

extension FleetBridgeTests {
    /// A live stream pushed to a screen through the broker: the document's item with its play time and stream
    /// options is played (a real UDP publisher on 127.0.0.1) and reported; an SRT camera's passphrase in the
    /// same document never reaches the reported document, the log or the state files.
    /// An output rule `-> mqtt TOPIC PAYLOAD`: published by the bridge under the player's own `output/` when a
    /// matching play starts and ends (a museum's lights dimmed for a film), never elsewhere.
    @Test func outputRulesArePublishedUnderThePlayersOutputTopics() throws {
        let fleet = try OneScreenFleet(
            self, prefix: "queued-fleet-output", localFiles: true,
            daemonArguments: [
                "--output", "on=start uri=*660Hz* -> mqtt lights/hall \"dim 20\"", "--output", "on=end uri=*660Hz* -> mqtt lights/hall up",
            ])
        defer { withExtendedLifetime(fleet) {} }
        let (inbox, screen) = (fleet.inbox, fleet.screen)
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("\"online\"") } })
        // The bridge follows the daemon's events before the play starts (its first report says so).
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/reported" } })
        let client = try screen.daemon.client()
        let film = try Fixtures.tone(frequency: 660, seconds: 0.5), other = try Fixtures.tone(frequency: 440, seconds: 0.5)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: other), RPCItemInput(uri: film)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        func outputs(_ messages: [MQTTMessage]) -> [String] {
            messages.filter { $0.topic.contains("/output/") || $0.topic.contains("lights") }.map { "\($0.topic) \($0.text)" }
        }
        #expect(inbox.wait(20) { outputs($0).count >= 2 }, "\(outputs(inbox.all))")
        #expect(outputs(inbox.all) == ["queued/p1/output/lights/hall dim 20", "queued/p1/output/lights/hall up"])
        #expect(!inbox.all.contains { $0.topic == "queued/p1/output/lights/hall" && $0.retain })
    }

    @Test func aStreamInADocumentPlaysItsTimeAndItsSecretStaysOnTheScreen() throws {
        let fleet = try OneScreenFleet(self, prefix: "queued-fleet-stream", localFiles: false)
        defer { withExtendedLifetime(fleet) {} }  // stopped at the test's end, not after its last use
        let (scratch, inbox, observer, screen) = (fleet.scratch, fleet.inbox, fleet.observer, fleet.screen)
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("\"online\"") } })

        let port = try LoopbackPort.free()
        let publisher = try ChildProcess(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast",
                "-tune", "zerolatency", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-f", "mpegts",
                "udp://127.0.0.1:\(port)?pkt_size=1316",
            ], stderrPath: scratch.path + "/publisher.log")
        defer { _ = publisher.terminate(signal: SIGKILL) }
        let secret = "fleet-passphrase-42"
        let camera = "srt://127.0.0.1:\(try LoopbackPort.free())?mode=caller&passphrase=\(secret)"
        let document = """
            {"rev": 1, "loops": 0, "queue": [
              {"uri": "udp://127.0.0.1:\(port)", "duration": 30, "latency": 2, "onStall": "black"},
              {"uri": "\(camera)", "duration": 5, "onStall": "skip"}]}
            """
        _ = try observer.publish(
            topic: "queued/p1/desired", payload: Array(document.utf8), qos: .atLeastOnce, retain: true)
        func reported(_ timeout: Double, _ predicate: @escaping (JSONValue) -> Bool) -> Bool {
            inbox.wait(timeout) { messages in
                messages.last { $0.topic == "queued/p1/reported" }.flatMap { try? JSON.parse($0.payload) }
                    .map(predicate) ?? false
            }
        }
        #expect(
            reported(30) {
                $0["appliedRev"]?.intValue == 1 && $0["current"]?["uri"]?.stringValue == "udp://127.0.0.1:\(port)"
                    && $0["state"]?.stringValue == "playing"
            }, "the stream is reported playing")
        let client = try screen.daemon.client()
        let items = try client.call("queue.list")["items"]?.arrayValue ?? []
        #expect(items.first?["latency"]?.doubleValue == 2 && items.first?["onStall"]?.stringValue == "black", "\(items)")
        #expect(items.first?["duration"]?.doubleValue == 30)
        // The stream is what plays: its status measured (a live stream, its pace decided).
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.2) {
                let stream = try? client.call("player.status")["stream"]
                return stream?["live"]?.boolValue == true && stream?["latency"]?.doubleValue != nil
            }, "player.status.stream measured: \(screen.daemon.log())")
        // The camera's passphrase: not in anything the broker carried, nor the screen's log or state files.
        #expect(!inbox.all.contains { $0.topic != "queued/p1/desired" && $0.text.contains(secret) })
        #expect(!screen.daemon.log().contains(secret))
        let stateDirectory = scratch.path + "/state-p1"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? [] where name != "credentials" {
            let text = (try? String(contentsOfFile: stateDirectory + "/" + name, encoding: .utf8)) ?? ""
            #expect(!text.contains(secret), "\(name) holds the passphrase")
        }
    }

    /// A web page in a document: applied at once (nothing to download first), shown by the screen's renderer
    /// and reported playing; the cache never fetched it (nginx saw only the web engine's plain request).
    @Test func aWebPageInADocumentIsShownNotDownloaded() throws {
        let fleet = try OneScreenFleet(self, prefix: "queued-fleet-web", localFiles: false)
        defer { withExtendedLifetime(fleet) {} }
        let (inbox, observer, screen) = (fleet.inbox, fleet.observer, fleet.screen)
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("\"online\"") } })
        let site = try TemporaryDirectory(prefix: "queued-fleet-web-site")
        try "<html><head><title>Board</title></head><body style=\"background:#0a0\">Menu</body></html>"
            .write(toFile: site.file("board.html"), atomically: true, encoding: .utf8)
        chmod(site.path, 0o755)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let url = nginx.baseURL + "/board.html"
        let document = """
            {"rev": 1, "loops": 0, "queue": [{"uri": "\(url)", "type": "web", "duration": 60, "reload": "keep"}]}
            """
        _ = try observer.publish(
            topic: "queued/p1/desired", payload: Array(document.utf8), qos: .atLeastOnce, retain: true)
        let playing = inbox.wait(30) { messages in
            messages.last { $0.topic == "queued/p1/reported" }.flatMap { try? JSON.parse($0.payload) }.map {
                $0["appliedRev"]?.intValue == 1 && $0["current"]?["uri"]?.stringValue == url
                    && $0["state"]?.stringValue == "playing"
            } ?? false
        }
        #expect(playing, "the page is reported playing")
        let client = try screen.daemon.client()
        let status = try client.call("player.status")
        #expect(status["web"]?["loaded"]?.boolValue == true && status["web"]?["title"]?.stringValue == "Board", "\(status)")
        let rows = try client.call("queue.list")["items"]?.arrayValue ?? []
        #expect(rows.first?["type"]?.stringValue == "web" && rows.first?["cache"] == .null, "\(rows)")
        let requests = nginx.responses().filter { $0.uri == "/board.html" }
        #expect(!requests.isEmpty && requests.allSatisfy { $0.range.isEmpty || $0.range == "-" }, "\(requests)")
    }

    /// A document that cuts the screen into zones and gives each its queue: applied whole, reported; one that
    /// names a zone its layout lacks is refused whole, the zones and their queues as they were.
    @Test func aDocumentCutsTheScreenIntoZonesEachWithItsQueue() throws {
        let fleet = try OneScreenFleet(self, prefix: "queued-fleet-zones", localFiles: true)
        defer { withExtendedLifetime(fleet) {} }  // stopped at the test's end, not after its last use
        let (inbox, observer, screen) = (fleet.inbox, fleet.observer, fleet.screen)
        #expect(inbox.wait(20) { $0.contains { $0.topic == "queued/p1/status" && $0.text.contains("\"online\"") } })
        let video = try Fixtures.video(seconds: 4, hue: .red)
        let still = try Fixtures.still(hue: .green)
        let tone = try Fixtures.tone(frequency: 440, seconds: 5)
        func document(rev: Int, zone: String) -> String {
            """
            {"rev": \(rev), "loops": 0, "queue": ["\(video)"],
             "layout": {"zones": [
               {"name": "main", "rect": {"x": 0, "y": 0, "w": "75%", "h": "100%"}},
               {"name": "side", "rect": {"x": "75%", "y": 0, "w": "25%", "h": "100%"}, "content": "stills"},
               {"name": "music", "duck": -12}]},
             "zones": {"\(zone)": {"queue": [{"uri": "\(still)", "duration": 5}], "loops": 0},
                       "music": {"queue": ["\(tone)"], "loops": 0}}}
            """
        }
        _ = try observer.publish(topic: "queued/p1/desired", payload: Array(document(rev: 1, zone: "side").utf8), qos: .atLeastOnce, retain: true)
        func reported(_ timeout: Double, _ predicate: @escaping (JSONValue) -> Bool) -> Bool {
            inbox.wait(timeout) { messages in
                messages.last { $0.topic == "queued/p1/reported" }.flatMap { try? JSON.parse($0.payload) }
                    .map(predicate) ?? false
            }
        }
        #expect(reported(30) { $0["appliedRev"]?.intValue == 1 }, "\(screen.daemon.log().suffix(2000))")
        let client = try screen.daemon.client()
        let zones = try client.call("layout.get")["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" }
        #expect(zones == ["main", "side", "music"])
        let side = try screen.daemon.client()
        side.zone = "side"
        #expect(try side.call(API.QueueList.self, .init()).items.map(\.uri) == [still])
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { side.isPlaying }, "the side zone plays")
        side.zone = "music"
        #expect(try side.call(API.QueueList.self, .init()).items.map(\.uri) == [tone])
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { side.isPlaying }, "the music plays")
        // The zones' queues are swapped at their item's end, as main's is: started by the document's play.
        #expect(try client.call(API.QueueList.self, .init()).items.map(\.uri) == [video], "applied once")

        _ = try observer.publish(topic: "queued/p1/desired", payload: Array(document(rev: 2, zone: "nowhere").utf8), qos: .atLeastOnce, retain: true)
        #expect(reported(30) { ($0["error"]?.stringValue ?? "").contains("nowhere") && $0["appliedRev"]?.intValue == 1 })
        side.zone = "side"
        #expect(try side.call(API.QueueList.self, .init()).items.map(\.uri) == [still], "refused whole: side as it was")
        #expect(try client.call("layout.get")["zones"]?.arrayValue?.count == 3)
    }

    /// Plays go on while the broker is down and while the bridge is dead (killed with -9 during the outage);
    /// once a broker and a bridge are back, every record the daemon made arrives, none missing.
    @Test func proofOfPlaySurvivesABrokerOutageAndABridgeKilledWithMinusNine() throws {
        let tones = try [440.0, 550].map { try Fixtures.tone(frequency: $0, seconds: 0.25, format: .wav) }
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-outage")
        let broker = try MosquittoBroker(users: ["p1": "p1-secret", "operator": "operator-secret"])
        defer { broker.stop() }
        let credentials = scratch.path + "/credentials"
        try "username=p1\npassword=p1-secret\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o600)
        let inbox = Inbox()
        let observer = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        try observer.subscribe("queued/p1/events", qos: .atLeastOnce)
        observer.start()
        defer { observer.stop() }
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", scratch.path + "/state", "--loops", "0"], logLevel: "warning")
        defer { daemon.stop() }
        let control = try daemon.client()
        _ = try control.call("queue.add", ["items": .array(tones.map { .string($0) })])
        _ = try control.call("player.play")
        func bridge(_ name: String) throws -> ChildProcess {
            try ChildProcess(
                BuiltProduct.path("queued-mqtt"),
                [
                    "--no-config", "--broker", broker.url, "--player", "p1", "--credentials", credentials, "--socket",
                    daemon.socket, "--keepalive", "5",
                ], stderrPath: scratch.path + "/" + name + ".log")
        }
        func seen(_ messages: [MQTTMessage]) -> Set<Int64> {
            Set(messages.filter { $0.topic == "queued/p1/events" }.compactMap { try? JSON.parse($0.payload) }
                .compactMap { $0["seq"]?.intValue })
        }
        func daemonNextSeq() -> Int64 { (try? control.call("plays.list", ["limit": 1]))?["nextSeq"]?.intValue ?? 0 }

        var first = try bridge("bridge-1")
        defer { _ = first.terminate() }
        #expect(inbox.wait(20) { seen($0).count >= 2 }, "records flow")
        broker.kill()
        let beforeOutage = daemonNextSeq()
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { daemonNextSeq() >= beforeOutage + 3 }, "plays go on")
        kill(first.pid, SIGKILL)
        _ = first.wait()
        let beforeKill = daemonNextSeq()
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { daemonNextSeq() >= beforeKill + 3 }, "and on")
        try broker.restart()
        // The consumer is back and subscribed before a bridge publishes again.
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { observer.isConnected })
        try observer.subscribe("queued/p1/events", qos: .atLeastOnce)
        first = try bridge("bridge-2")
        var expected: [Int64] = []
        let complete = inbox.wait(30) { messages in
            let made = Int64(daemonNextSeq()) - 1
            expected = made >= 1 ? Array(1...made) : []
            return made >= beforeKill + 3 && Set(expected).isSubset(of: seen(messages))
        }
        #expect(complete, "every record the daemon made arrived: missing \(Set(expected).subtracting(seen(inbox.all)).sorted())")
    }
}

extension FleetBridgeTests {
    /// Twenty screens in one group: one retained document reaches all of them (the time from publishing to
    /// the last `appliedRev` is printed, not asserted); a daemon restarted under its running bridge is found
    /// again and re-reported; garbage on a screen's request topic gets an error answer and the bridge lives.
    @Test func twentyScreensFollowOneGroupDocument() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-twenty")
        // The tone from a media server: these screens take http(s) items only (the default).
        let site = try TemporaryDirectory(prefix: "queued-fleet-twenty-site")
        chmod(site.path, 0o755)
        try FileManager.default.copyItem(
            atPath: try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav), toPath: site.path + "/tone.wav")
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let tone = nginx.baseURL + "/tone.wav"
        let names = (1...20).map { "s\($0)" }
        var users = ["operator": "operator-secret"]
        for name in names { users[name] = name + "-secret" }
        let broker = try MosquittoBroker(users: users)
        defer { broker.stop() }
        let inbox = Inbox()
        let observer = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-operator", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        try observer.subscribe("queued/+/reported", qos: .atLeastOnce)
        try observer.subscribe("queued/+/status", qos: .atLeastOnce)
        try observer.subscribe("queued/s1/rpc/res", qos: .atLeastOnce)
        observer.start()
        defer { observer.stop() }
        var screens: [Screen] = []
        defer {
            for screen in screens {
                _ = screen.bridge.terminate()
                screen.daemon.stop()
            }
        }
        for name in names {
            let credentials = scratch.path + "/credentials-" + name
            try "username=\(name)\npassword=\(name)-secret\n".write(toFile: credentials, atomically: true, encoding: .utf8)
            chmod(credentials, 0o600)
            screens.append(
                try startScreen(
                    name, groups: ["all"], broker: broker, credentials: credentials, scratch: scratch.path, localFiles: false))
        }
        func appliedEverywhere(_ rev: Int64, _ messages: [MQTTMessage]) -> Bool {
            names.allSatisfy { name in
                messages.last { $0.topic == "queued/\(name)/reported" }.flatMap { try? JSON.parse($0.payload) }?[
                    "appliedRev"]?.intValue == rev
            }
        }
        #expect(inbox.wait(30) { messages in
            names.allSatisfy { name in messages.contains { $0.topic == "queued/\(name)/status" && $0.text.contains("online") } }
        })
        let published = Date()
        _ = try observer.publish(
            topic: "queued/group/all/desired", payload: Array(#"{"rev": 5, "queue": ["\#(tone)"], "loops": 0}"#.utf8),
            qos: .atLeastOnce, retain: true)
        #expect(inbox.wait(60) { appliedEverywhere(5, $0) })
        print("fleet: 20 screens applied rev 5 \(Int(Date().timeIntervalSince(published) * 1000)) ms after it was published")

        // The operator's side: queuectl fleet ls, push (a rev of its own), call.
        let operatorCredentials = scratch.path + "/credentials-operator"
        try "username=operator\npassword=operator-secret\n".write(toFile: operatorCredentials, atomically: true, encoding: .utf8)
        chmod(operatorCredentials, 0o600)
        let fleet = ["fleet"]
        let options = ["--broker", broker.url, "--credentials", operatorCredentials]
        let queuectl = BuiltProduct.path("queuectl")
        let listed = try ChildProcess.run(queuectl, fleet + ["ls"] + options + ["--json"], timeout: 30)
        let rows = (try? JSON.parse(listed.stdout))?.arrayValue ?? []
        #expect(rows.count == 20, "\(listed.stdout.prefix(500)) \(listed.stderr)")
        #expect(rows.allSatisfy { $0["status"]?["state"]?.stringValue == "online" && $0["reported"]?["appliedRev"]?.intValue == 5 })
        let document = scratch.path + "/desired.json"
        try #"{"queue": ["\#(tone)", "\#(tone)"], "loops": 0}"#.write(toFile: document, atomically: true, encoding: .utf8)
        let pushed = try ChildProcess.run(queuectl, fleet + ["push", document, "--group", "all"] + options + ["--json"], timeout: 30)
        let rev = try #require((try? JSON.parse(pushed.stdout))?["rev"]?.intValue, "\(pushed.stdout) \(pushed.stderr)")
        #expect(rev > 5)
        #expect(inbox.wait(60) { appliedEverywhere(rev, $0) }, "the pushed document is applied everywhere")
        let called = try ChildProcess.run(queuectl, fleet + ["call", "s2", "player.status"] + options, timeout: 30)
        #expect((try? JSON.parse(called.stdout))?["appliedRev"]?.intValue == rev, "\(called.stdout) \(called.stderr)")
        let refused = try ChildProcess.run(
            queuectl, fleet + ["call", "s2", "queue.add", #"{"items": ["/etc/passwd"]}"#] + options, timeout: 30)
        #expect(refused.status == 1 && refused.stderr.contains("only network URLs"), "\(refused.stderr)")

        // s1's daemon restarts under its bridge: found again, re-reported (state playing, rev kept).
        let first = screens[0]
        kill(first.daemon.process.pid, SIGKILL)
        _ = first.daemon.stop()
        #expect(inbox.wait(20) { messages in
            messages.last { $0.topic == "queued/s1/reported" }?.text.contains("unreachable") == true
        }, "the bridge reports the daemon gone")
        let restarted = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", scratch.path + "/state-s1"], logLevel: "warning",
            socketPath: first.daemon.socket)
        screens[0] = Screen(daemon: restarted, bridge: first.bridge, name: "s1")
        #expect(inbox.wait(30) { messages in
            let last = messages.last { $0.topic == "queued/s1/reported" }.flatMap { try? JSON.parse($0.payload) }
            return last?["state"]?.stringValue == "playing" && last?["appliedRev"]?.intValue == rev
        }, "re-reported after the restart")

        // Garbage on the request topic: an error answer, and the bridge lives.
        _ = try observer.publish(topic: "queued/s1/rpc/req", payload: Array("{not json".utf8), qos: .atLeastOnce)
        #expect(inbox.wait(10) { $0.contains { $0.topic == "queued/s1/rpc/res" && $0.text.contains("not a JSON-RPC") } })
        #expect(first.bridge.isRunning)
    }
}

extension FleetBridgeTests {
    /// `queuectl fleet ls` over a thousand players' retained statuses and reports (published by the test):
    /// every one listed; the time it took is printed (the benchmark's business, not an assertion).
    @Test func fleetListShowsAThousandPlayers() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-fleet-thousand")
        let broker = try MosquittoBroker(users: ["operator": "operator-secret"])
        defer { broker.stop() }
        let inbox = Inbox()
        let publisher = try MosquittoClient(
            configuration: try MQTTConfiguration(
                url: broker.url, clientID: "test-publisher", username: "operator", password: "operator-secret"),
            onEvent: inbox.take)
        publisher.start()
        defer { publisher.stop() }
        #expect(inbox.waitConnected(10))
        var last: Int32 = 0
        for index in 1...1000 {
            let name = "screen-\(index)"
            _ = try publisher.publish(
                topic: "queued/\(name)/status", payload: Array(#"{"state":"online","version":"0.6.0","since":1}"#.utf8),
                qos: .atLeastOnce, retain: true)
            last = try publisher.publish(
                topic: "queued/\(name)/reported",
                payload: Array(#"{"appliedRev":3,"pendingRev":null,"error":null,"state":"playing","queueVersion":1,"current":null}"#.utf8),
                qos: .atLeastOnce, retain: true)
        }
        #expect(inbox.waitAck(last, 30).map { !$0.isFailure } == true)
        let credentials = scratch.path + "/credentials"
        try "username=operator\npassword=operator-secret\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o600)
        let started = Date()
        let listed = try ChildProcess.run(
            BuiltProduct.path("queuectl"), ["fleet", "ls", "--broker", broker.url, "--credentials", credentials], timeout: 60)
        let seconds = Date().timeIntervalSince(started)
        let lines = listed.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == 1000, "\(listed.stderr)")
        #expect(lines.allSatisfy { $0.contains("\tonline\t3\t") })
        print("fleet: queuectl fleet ls listed 1000 players in \(Int(seconds * 1000)) ms")
    }
}

/// Runs Tests/conformance/validate_asyncapi.py over `messages`; returns its counts and output.
private func validateMQTTMessages(
    _ messages: [MQTTMessage], as aliases: [String: String] = [:], in directory: String
) throws -> (passed: Int, failed: Int, output: String) {
    let path = directory + "/mqtt-messages.jsonl"
    var lines = ""
    for message in messages {
        let payload = message.payload.isEmpty ? JSONValue.null : (try? JSON.parse(message.payload)) ?? .string(message.text)
        let topic = aliases[message.topic] ?? message.topic
        lines += JSON.string(["topic": .string(topic), "payload": payload]) + "\n"
    }
    try lines.write(toFile: path, atomically: true, encoding: .utf8)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("conformance/validate_asyncapi.py").path
    let result = try ChildProcess.run("python3", [script, path], timeout: 120)
    let output = result.stdout + result.stderr
    let closing = output.split(separator: "\n").last { $0.contains(" passed, ") } ?? ""
    let numbers = closing.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    return (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : -1, output)
}

extension QueueClient {
    /// Whether its zone's player plays now (false when the daemon does not answer).
    var isPlaying: Bool {
        let status: RPCStatus? = try? call(API.PlayerStatus.self)
        return status?.state == "playing"
    }
}
