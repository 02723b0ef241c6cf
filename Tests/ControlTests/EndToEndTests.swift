// The real daemon driven through its socket: every method, the events they cause and their order
// (across a loop seam and a `next`), failures reported by events, and every observed message checked
// against Protocol/queued.openrpc.json by the conformance validator.

import Foundation
import Logging
import Playback
import QueueClient
import QueueRPC
import TestSupport
import Testing

@testable import QueueServer

@Suite(.serialized) struct EndToEndTests {
    func kinds(_ notes: [(method: String, params: JSONValue?)]) -> [String] {
        notes.compactMap { note in
            switch note.method {
            case "event.itemStarted":
                return "start \(note.params?["id"]?.intValue ?? -1).\(note.params?["play"]?.intValue ?? -1)"
            case "event.itemEnded":
                return
                    "end \(note.params?["id"]?.intValue ?? -1).\(note.params?["play"]?.intValue ?? -1) \(note.params?["reason"]?.stringValue ?? "?")"
            default: return nil
            }
        }
    }

    @Test func everyMethodAndEventThroughTheSocket() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let transcript = Transcript()
        let control = RecordingClient(try daemon.client(), transcript)
        let watcher = RecordingClient(try daemon.client(), transcript)
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .red, withAudio: .aacMP4)
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let still = try Fixtures.still(hue: .blue, format: .png)

        let info = try control.call("daemon.info")
        #expect(info["socket"]?.stringValue == daemon.socket)
        #expect(info["pid"]?.intValue == Int64(daemon.process.pid))
        let discovered = try control.call("rpc.discover")
        #expect(discovered["methods"]?.arrayValue?.count ?? 0 >= 20)

        let subscribed = try watcher.call("events.subscribe", ["progressInterval": 0.1])
        #expect(subscribed["events"]?.arrayValue?.count == EventName.allCases.count)

        let added = try control.call(
            "queue.add", ["items": [.string(clip), ["uri": .string(tone), "loops": 2, "title": "tone"]]])
        let ids = added["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(ids.count == 2)
        let inserted = try control.call(
            "queue.insert", ["items": [["uri": .string(still), "duration": 0.5]], "after": .int(ids[1])])
        let stillID = inserted["ids"]?.arrayValue?.first?.intValue ?? -1
        let listed = try control.call("queue.list", [0, 10])
        #expect(listed["total"]?.intValue == 3)
        #expect(listed["items"]?.arrayValue?.map { $0["id"]?.intValue ?? 0 } == ids + [stillID])
        #expect(listed["items"]?.arrayValue?[1]["title"]?.stringValue == "tone")

        let playing = try control.call("player.play")
        #expect(playing["state"]?.stringValue == "playing")
        let first = try watcher.notifications(timeout: 30) { notes in
            notes.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == stillID }
        }
        // The order of events across the loop seam of the tone (plays 1 and 2) and at each join.
        #expect(
            kinds(first) == [
                "start \(ids[0]).1", "end \(ids[0]).1 eof", "start \(ids[1]).1", "end \(ids[1]).1 eof",
                "start \(ids[1]).2", "end \(ids[1]).2 eof", "start \(stillID).1", "end \(stillID).1 eof",
            ])
        #expect(first.contains { $0.method == "event.progress" })
        #expect(first.contains { $0.method == "event.queueChanged" })
        let idle = try watcher.notifications(timeout: 10) { notes in
            notes.contains { $0.method == "event.status" && $0.params?["state"]?.stringValue == "idle" }
        }
        #expect(!idle.isEmpty)

        // Edits and settings.
        #expect(try control.call("queue.move", ["id": .int(stillID), "index": 0])["version"]?.intValue ?? 0 > 0)
        #expect(try control.call("queue.update", ["id": .int(ids[0]), "loops": 0])["item"]?["loops"]?.intValue == 0)
        #expect(try control.call("queue.setLoops", [0])["loops"]?.intValue == 0)
        let set = try control.call(
            "player.set", ["volume": 40, "muted": true, "rate": 1.5, "fit": "fill", "fullscreen": false])
        #expect(set["volume"]?.intValue == 40 && set["muted"]?.boolValue == true && set["fit"]?.stringValue == "fill")
        _ = try control.call("player.set", ["rate": 1.0, "muted": false])

        // Transport: a forever item, next (skipped), seek, pause/toggle, stop, play by id.
        _ = try control.call("player.play", ["id": .int(ids[0])])
        _ = try watcher.notifications(timeout: 10) {
            $0.contains { $0.method == "event.itemStarted" && $0.params?["id"]?.intValue == ids[0] }
        }
        let shot = try control.call("player.screenshot")
        let png = Data(base64Encoded: shot["png"]?.stringValue ?? "") ?? Data()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let sought = try control.call("player.seek", ["position": 0.5])
        #expect(sought["currentId"]?.intValue == ids[0])
        #expect(try control.call("player.pause")["state"]?.stringValue == "paused")
        #expect(try control.call("player.toggle")["state"]?.stringValue == "playing")
        _ = try control.call("player.next")
        let skipped = try watcher.notifications(timeout: 10) { notes in
            notes.contains { $0.method == "event.itemStarted" && $0.params?["id"]?.intValue == ids[1] }
        }
        #expect(
            kinds(skipped).first
                == "end \(ids[0]).\(kinds(skipped).first?.split(separator: ".").last?.split(separator: " ").first ?? "1") skipped"
        )
        #expect(kinds(skipped).last == "start \(ids[1]).1")
        _ = try control.call("player.previous")
        #expect(try control.call("player.stop")["state"]?.stringValue == "stopped")
        let stopped = try watcher.notifications(timeout: 10) {
            $0.contains { $0.method == "event.itemEnded" && $0.params?["reason"]?.stringValue == "stopped" }
        }
        #expect(!stopped.isEmpty)
        #expect(try control.call("player.status")["state"]?.stringValue == "stopped")

        // Failures: refused URIs, unknown ids, and a file that fails later (reported by events).
        #expect(control.failure("queue.add", ["items": ["concat:/a|/b"]])?.code == -32003)
        #expect(control.failure("queue.add", ["items": ["relative/clip.mp4"]])?.code == -32003)
        #expect(control.failure("player.play", ["id": 9999])?.code == -32000)
        #expect(control.failure("queue.remove", ["ids": "x"])?.code == -32602)
        _ = try control.call("queue.clear")
        #expect(control.failure("player.play")?.code == -32001)
        let broken =
            try control.call("queue.add", ["items": [.string(Fixtures.missing())]])["ids"]?.arrayValue?.first?.intValue
            ?? -1
        _ = try control.call("queue.setLoops", [1])
        _ = try control.call("player.play")
        let failed = try watcher.notifications(timeout: 10) {
            $0.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == broken }
        }
        let failure = failed.first { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == broken }
        #expect(failure?.params?["reason"]?.stringValue == "error")
        #expect(failure?.params?["error"]?.stringValue?.contains(Fixtures.missing()) == true)
        let afterFailure = try control.call("queue.list")
        #expect(afterFailure["items"]?.arrayValue?.first?["state"]?.stringValue == "failed")
        #expect(
            try control.call("queue.remove", ["ids": [.int(broken), 12345]])["removed"]?.arrayValue == [.int(broken)])

        let remaining = try watcher.call("events.unsubscribe", ["events": ["progress"]])
        #expect(remaining["events"]?.arrayValue?.count == EventName.allCases.count - 1)
        _ = try watcher.call("events.unsubscribe")

        let directory = try TemporaryDirectory()
        let validation = try validateTranscript(transcript, in: directory.path)
        print(
            "conformance of \(transcript.count) observed messages: \(validation.passed) passed, \(validation.failed) failed"
        )
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 50)
        #expect(daemon.isRunning)
    }

    /// The JSON-RPC error code a call failed with (nil: it succeeded or failed otherwise).
    static func errorCode(_ body: () throws(ClientError) -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            if case .rpc(let rpcError) = error { return rpcError.code }
            return nil
        }
    }

    @Test func describedMethodsAreExactlyTheImplementedOnes() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let client = try daemon.client()
        let document = try client.call("rpc.discover")
        let described = Set(document["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
        // Every described method answers with something other than "method not found", and a name
        // that is not described does not exist.
        for name in described.sorted() {
            let code = Self.errorCode { () throws(ClientError) in _ = try client.call(name, nil) }
            #expect(code != -32601, "\(name) is described but not implemented")
        }
        #expect(throws: ClientError.self) { _ = try client.call("player.explode") }
        // The server's own registry against the document in Protocol/ (read from disk).
        let engine = PlayerEngine(
            config: EngineConfig(), audio: NullAudioSink(mode: .untimed), video: nil, logger: Logger(label: "test")
        ) { _ in }
        #expect(ControlServer.implementedMethods(engine: engine) == described)
        let onDisk = try protocolDocumentOnDisk()
        let served = onDisk == document
        #expect(served, "rpc.discover must serve Protocol/queued.openrpc.json as it is (rebuild after editing it)")
        let notifications = Set(document["x-notifications"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
        #expect(notifications == Set(EventName.allCases.map(\.method)))
    }
}

@Suite struct DescriptionTests {
    /// Every example in Protocol/queued.openrpc.json validates against its own schemas (the examples are
    /// the document's test vectors).
    @Test func everyExampleInTheDescriptionValidates() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("conformance/validate.py").path
        let result = try ChildProcess.run("python3", [script, "--self-test"], timeout: 120)
        let closing = result.stdout.split(separator: "\n").last { $0.contains(" passed, ") } ?? ""
        print("description self-test: \(closing)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(closing.hasSuffix(" 0 failed"))
    }
}

@Suite struct MethodRegistryTests {
    /// Positional params bind by the order the server declares: it must be the document's order.
    @Test func positionalParameterOrderIsTheDocumentsOrder() throws {
        let onDisk = try protocolDocumentOnDisk()
        let engine = PlayerEngine(
            config: EngineConfig(), audio: NullAudioSink(mode: .untimed), video: nil, logger: Logger(label: "test")
        ) { _ in }
        let implemented = ControlServer.positionalParameters(engine: engine)
        for method in onDisk["methods"]?.arrayValue ?? [] {
            let name = method["name"]?.stringValue ?? "?"
            let described = method["params"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            #expect(
                implemented[name] == described,
                "\(name): server binds \(implemented[name] ?? []), the document lists \(described)")
        }
        #expect(implemented.count == onDisk["methods"]?.arrayValue?.count)
    }

    /// QueueRPC's definitions (what queuectl and other Swift clients send) are the document's methods, with
    /// its parameter order, and the server implements exactly them.
    @Test func theSharedDefinitionsAreTheDocumentsMethods() throws {
        let onDisk = try protocolDocumentOnDisk()
        let described = Dictionary(
            uniqueKeysWithValues: (onDisk["methods"]?.arrayValue ?? []).map { method in
                (
                    method["name"]?.stringValue ?? "?",
                    method["params"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                )
            })
        let defined = Dictionary(uniqueKeysWithValues: API.all.map { ($0.name, $0.parameterOrder) })
        #expect(defined == described)
        let engine = PlayerEngine(
            config: EngineConfig(), audio: NullAudioSink(mode: .untimed), video: nil, logger: Logger(label: "test")
        ) { _ in }
        #expect(ControlServer.positionalParameters(engine: engine) == defined)
    }

    @Test func registeringAMethodTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            let method = RPCMethod(name: "queue.list", params: []) { _, _, _ in .now(.null) }
            _ = Dispatcher.registry([method, method])
        }
    }
}

/// Protocol/queued.openrpc.json as it is in the source tree (what rpc.discover must serve).
func protocolDocumentOnDisk() throws -> JSONValue {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/queued.openrpc.json")
    return try JSON.parse([UInt8](Data(contentsOf: path)))
}
