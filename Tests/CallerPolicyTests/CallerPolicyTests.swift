// The one caller policy of the page and the fleet bridge: every method of the OpenRPC document has a decision;
// params are read through the daemon's own definitions, so named and positional spellings, file:// URLs,
// percent-encoding, `..` and symlinks out of the media folder are judged as the daemon would read them.

import Foundation
import CallerPolicy
import JSONText
import QueueRPC
import TestSupport
import Testing

@Suite struct CallerPolicyTests {
    static func documentMethods() throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/queued.openrpc.json")
        let document = try JSON.parse([UInt8](Data(contentsOf: path)))
        return (document["methods"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    @Test func everyMethodOfTheDocumentHasADecisionAndADefinition() throws {
        let names = try Self.documentMethods()
        #expect(names.count >= 40)
        for name in names {
            #expect(MethodExposure.decisions[name] != nil, "no caller decision for \(name): decide it in MethodExposure")
            #expect(API.all.contains { $0.name == name }, "no typed definition for \(name)")
        }
        #expect(Set(MethodExposure.decisions.keys) == Set(names), "decisions for methods the document does not have")
    }

    @Test func aLocalPathIsRefusedInEverySpellingThroughBothDoors() throws {
        let media = try TemporaryDirectory(prefix: "policy-media")
        let page = CallerPolicy(door: .page, files: .within([media.path]))
        let broker = CallerPolicy(door: .broker, files: .networkOnly)
        let outside: [String] = [
            "/etc/hostname", "file:///etc/hostname", "FILE:///etc/passwd", "file://localhost/etc/hostname",
            "file:///%65tc/hostname", "\(media.path)/../../etc/hostname", "//etc/hostname",
        ]
        for path in outside {
            let requests: [(String, JSONValue)] = [
                ("queue.add", ["items": [.string(path)]]),
                ("queue.add", [[.string(path)]]),
                ("queue.add", [[["uri": .string(path)]]]),
                ("queue.insert", [[.string(path)], 0]),
                ("queue.interrupt", [.string(path)]),
                ("queue.interrupt", ["item": ["uri": .string(path)]]),
                ("overlay.add", ["image", .null, .string(path)]),
                ("overlay.add", ["type": "image", "path": .string(path)]),
                ("overlay.update", [1, .null, .string(path)]),
            ]
            for (method, params) in requests {
                #expect(page.refusal(method: method, params: params) != nil, "page let \(method) \(JSON.string(params))")
                #expect(broker.refusal(method: method, params: params) != nil, "broker let \(method) \(JSON.string(params))")
            }
            for (method, params) in [
                ("queue.replace", [[.string(path)]] as JSONValue), ("state.apply", ["items": [.string(path)]]),
                ("state.apply", [[], .null, .null, .null, .null, .null, .null, [["type": "image", "path": .string(path)]]]),
            ] {
                #expect(broker.refusal(method: method, params: params) != nil, "broker let \(method) \(JSON.string(params))")
            }
        }
        // A symlink inside the folder that points out of it is judged on where it leads.
        symlink("/etc/hostname", media.file("link.png"))
        #expect(page.refusal(method: "queue.add", params: ["items": [.string(media.file("link.png"))]]) != nil)
        // What is inside the folder, and http(s), pass.
        FileManager.default.createFile(atPath: media.file("clip.mp4"), contents: Data([0]))
        #expect(page.refusal(method: "queue.add", params: [[.string(media.file("clip.mp4"))]]) == nil)
        #expect(page.refusal(method: "queue.add", params: [[.string("file://" + media.file("clip.mp4"))]]) == nil)
        #expect(page.refusal(method: "queue.add", params: [["https://127.0.0.1/a.mp4"]]) == nil)
        #expect(broker.refusal(method: "queue.add", params: [["HTTP://127.0.0.1/a.mp4"]]) == nil)
        #expect(broker.refusal(method: "queue.add", params: [[.string(media.file("clip.mp4"))]]) != nil)
        // The operator's --rpc-local-files: anything.
        #expect(CallerPolicy(door: .broker, files: .any).refusal(method: "queue.add", params: [["/etc/hostname"]]) == nil)
    }

    @Test func paramsTheDaemonWouldRefuseAreRefusedWithItsOwnWords() {
        let broker = CallerPolicy(door: .broker, files: .networkOnly)
        #expect(broker.refusal(method: "queue.add", params: "items")?.contains("object or an array") == true)
        #expect(broker.refusal(method: "queue.add", params: ["items": [1]])?.contains("items[0]") == true)
        #expect(broker.refusal(method: "queue.add", params: ["items": [], "extra": 1])?.contains("unknown parameter") == true)
        #expect(broker.refusal(method: "state.apply", params: ["items": [], "rotate": 45])?.contains("rotate") == true)
        #expect(broker.refusal(method: "state.apply", params: ["items": [], "overlays": [["type": "text", "size": 0]]]) != nil)
        #expect(broker.refusal(method: "state.apply", params: ["items": [], "rotate": 90]) == nil)
        #expect(broker.refusal(method: "no.such", params: nil) != nil)
    }

    /// Streams are network items at both doors (a screen's fleet plays a channel, a camera): named with
    /// their options (`duration`, `onStall`); a local file beside them is still refused.
    @Test func streamsAreNetworkItemsAtBothDoors() {
        let page = CallerPolicy(door: .page, files: .within(["/nonexistent"]))
        let broker = CallerPolicy(door: .broker, files: .networkOnly)
        let streams: [JSONValue] = [
            "rtsp://viewer:pw@127.0.0.1/live", "udp://127.0.0.1:5000", "srt://127.0.0.1:9000",
            ["uri": "https://127.0.0.1/live/index.m3u8", "duration": 600, "onStall": "skip"],
        ]
        for door in [page, broker] {
            #expect(door.refusal(method: "queue.add", params: ["items": .array(streams)]) == nil)
            #expect(door.refusal(method: "queue.add", params: ["items": ["udp://127.0.0.1:5000", "/etc/passwd"]]) != nil)
            #expect(door.refusal(method: "queue.add", params: ["items": [["uri": "udp://1.2.3.4:5", "onStall": "x"]]]) != nil)
        }
        // The fleet's documents (state.apply, the broker's only) take them as well.
        #expect(broker.refusal(method: "state.apply", params: ["items": .array(streams)]) == nil)
    }

    @Test func eachDoorCallsOnlyItsMethods() {
        let page = CallerPolicy(door: .page, files: .within(["/nonexistent"]))
        let broker = CallerPolicy(door: .broker, files: .networkOnly)
        for method in ["events.subscribe", "session.confine", "plays.ack", "queue.replace", "state.apply", "cache.evict"] {
            #expect(!page.admits(method: method), "\(method)")
        }
        for method in ["events.subscribe", "events.unsubscribe", "session.confine", "plays.ack", "cache.evict"] {
            #expect(!broker.admits(method: method), "\(method)")
        }
        #expect(broker.admits(method: "state.apply") && broker.admits(method: "player.pause"))
        // Named by the operator, a method kept out of the default list is let through; a pattern never reaches it.
        #expect(CallerPolicy(door: .broker, files: .networkOnly, allow: ["plays.ack"]).admits(method: "plays.ack"))
        #expect(!CallerPolicy(door: .broker, files: .networkOnly, allow: ["plays.*"]).admits(method: "plays.ack"))
        #expect(!CallerPolicy(door: .broker, files: .networkOnly, allow: ["events.subscribe"]).admits(method: "events.subscribe"))
        let narrow = CallerPolicy(door: .broker, files: .networkOnly, allow: ["player.*"], deny: ["player.stop"])
        #expect(narrow.admits(method: "player.pause") && !narrow.admits(method: "player.stop") && !narrow.admits(method: "queue.add"))
        #expect(CallerPolicy.isPattern("queue.*") && CallerPolicy.isPattern("*") && !CallerPolicy.isPattern("queue/#"))
    }

    @Test func theDoorsConfineTheirConnections() {
        #expect(CallerPolicy(door: .broker, files: .networkOnly).confinement == .init(folders: [], network: true))
        #expect(CallerPolicy(door: .page, files: .within(["/srv/m"])).confinement == .init(folders: ["/srv/m"], network: true))
        #expect(CallerPolicy(door: .broker, files: .any).confinement == nil)
    }
}
