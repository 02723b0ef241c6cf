// Durable state against the real daemon: kill -9 at 50 different points of a flood of edits loses
// nothing acknowledged (and ids are never reused), nor at 8 points around compactions; a paused item comes back paused at its place with
// its volume; damaged state files never stop the daemon from starting.

import Foundation
import Glibc
import QueueClient
import QueueModel
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct DurableStateTests {
    /// The queue as the test expects it: the daemon's own model, fed the acknowledged edits.
    private struct Model {
        var queue = PlayQueue()

        /// Rows as queue.list gives them: id, uri, title, loops.
        var rows: [String] {
            queue.entries.map { "\($0.id.rawValue) \($0.item.uri) \($0.item.title ?? "-") x\($0.item.loops)" }
        }
    }

    private static func rows(_ list: API.QueueList.Result) -> [String] {
        list.items.map { "\($0.id) \($0.uri) \($0.title ?? "-") x\($0.loops)" }
    }

    /// One random edit: its params on the wire and what it does to the model (nil when the daemon would
    /// refuse it, so the model stays).
    private static func randomEdit(
        _ model: Model, step: Int, _ random: inout SeededGenerator
    ) -> (
        method: String, params: JSONValue?, apply: (inout PlayQueue) throws -> Void
    ) {
        let ids = model.queue.entries.map { Int64($0.id.rawValue) }
        let pick = ids.isEmpty ? 0 : Int.random(in: 0..<10, using: &random)
        func inputs(_ count: Int) -> [RPCItemInput] {
            (0..<count).map {
                RPCItemInput(uri: "/media/clip-\(step)-\($0).mp4", title: "step \(step)", loops: Int64($0 % 3))
            }
        }
        func items(_ inputs: [RPCItemInput]) -> [MediaItem] {
            inputs.map { MediaItem(uri: $0.uri, loops: Int($0.loops ?? 1), title: $0.title) }
        }
        switch pick {
        case 0, 1, 2:
            let new = inputs(Int.random(in: 1...3, using: &random))
            return (API.QueueAdd.name, API.QueueAdd.Params(items: new).json, { try $0.append(items(new)) })
        case 3:
            let new = inputs(2)
            let index = Int.random(in: 0...ids.count, using: &random)
            return (
                API.QueueInsert.name, API.QueueInsert.Params(items: new, place: .index(Int64(index))).json,
                { try $0.insert(items(new), at: index) }
            )
        case 4:
            let new = inputs(1)
            let after = ids.randomElement(using: &random)!
            return (
                API.QueueInsert.name, API.QueueInsert.Params(items: new, place: .after(after)).json,
                { try $0.insert(items(new), after: ItemID(Int(after))) }
            )
        case 5, 6:
            let doomed = Array(ids.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
            return (
                API.QueueRemove.name, API.QueueRemove.Params(ids: doomed).json,
                { $0.remove(doomed.map { ItemID(Int($0)) }) }
            )
        case 7:
            let id = ids.randomElement(using: &random)!
            let index = Int.random(in: 0..<ids.count, using: &random)
            return (
                API.QueueMove.name, API.QueueMove.Params(id: id, index: Int64(index)).json,
                { try $0.move(ItemID(Int(id)), to: index) }
            )
        case 8:
            let id = ids.randomElement(using: &random)!
            let loops = Int64.random(in: 0...4, using: &random)
            return (
                API.QueueUpdate.name, API.QueueUpdate.Params(id: id, loops: loops, title: .set("renamed \(step)")).json,
                {
                    try $0.update(ItemID(Int(id))) { item in
                        item.loops = Int(loops)
                        item.title = "renamed \(step)"
                    }
                }
            )
        default:
            let loops = Int64.random(in: 0...3, using: &random)
            return (
                API.QueueSetLoops.name, API.QueueSetLoops.Params(loops: loops).json, { try $0.setLoops(Int(loops)) }
            )
        }
    }

    @Test func killNineAtThirtyPointsLosesNothingAcknowledged() throws {
        let state = try TemporaryDirectory(prefix: "queued-durable")
        var random = SeededGenerator(seed: 0x5EED_0008)
        var model = Model()
        var highestID: Int64 = 0
        var step = 0
        let kills = 30
        var inFlightApplied = 0
        for round in 0..<kills {
            let daemon = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
            let client = try daemon.client()
            // What came back must be what was acknowledged, plus at most the request in flight at the kill.
            let restored = try client.call(API.QueueList.self, .init(limit: 10_000))
            let loops = try client.call(API.PlayerStatus.self).queueLoops
            #expect(Self.rows(restored) == model.rows, "round \(round): the restored queue differs")
            #expect(loops == Int64(model.queue.loops), "round \(round): queue loops")
            // Acknowledged edits, then one more sent and not waited for, then SIGKILL.
            let edits = Int.random(in: 1...30, using: &random)
            for _ in 0..<edits {
                step += 1
                let edit = Self.randomEdit(model, step: step, &random)
                let result = try client.call(edit.method, edit.params)
                try edit.apply(&model.queue)
                if let ids = result["ids"]?.arrayValue?.compactMap(\.intValue) {
                    #expect(ids.allSatisfy { $0 > highestID }, "ids are never reused: \(ids) after \(highestID)")
                    highestID = max(highestID, ids.max() ?? highestID)
                }
            }
            step += 1
            let inFlight = Self.randomEdit(model, step: step, &random)
            try client.sendRaw(
                RPCEncode.line(RPCEncode.request(method: inFlight.method, params: inFlight.params, id: 1)))
            kill(daemon.process.pid, SIGKILL)
            _ = daemon.process.wait()
            client.close()
            // The request in flight may or may not have been kept; the next round's check decides.
            var withInFlight = model
            try? inFlight.apply(&withInFlight.queue)
            let next = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
            let list = try next.client().call(API.QueueList.self, .init(limit: 10_000))
            let nextLoops = try next.client().call(API.PlayerStatus.self).queueLoops
            // Kept or not is seen in the rows, or for queue.setLoops in the queue loops alone.
            let keptMatches = Self.rows(list) == withInFlight.rows && nextLoops == Int64(withInFlight.queue.loops)
            let inFlightChanges = withInFlight.rows != model.rows || withInFlight.queue.loops != model.queue.loops
            if keptMatches && inFlightChanges {
                model = withInFlight
                inFlightApplied += 1
            }
            highestID = max(highestID, list.items.map(\.id).max() ?? 0)
            next.stop()
        }
        print("kill -9: \(kills) kills after \(step) edits; the request in flight was kept \(inFlightApplied) times")
        // The last daemon's restore is checked by one more start.
        let final = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
        let restored = try final.client().call(API.QueueList.self, .init(limit: 10_000))
        #expect(Self.rows(restored) == model.rows)
        let added = try final.client().call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: "/media/last.mp4")]))
        #expect(added.ids.allSatisfy { $0 > highestID }, "ids continue after \(highestID): \(added.ids)")
        final.stop()
    }

    /// Compactions run beside the journal (the snapshot is written while changes go on being appended):
    /// a pipelining client's adds, long enough to pass the 1 MiB threshold every few hundred, killed at
    /// random points around the compactions. What comes back is every acknowledged add, in order, plus
    /// perhaps some of those sent and not yet answered — never fewer, never out of order.
    @Test func killNineAroundCompactionsLosesNothingAcknowledged() throws {
        var random = SeededGenerator(seed: 0xC0_4AC7)
        let title = String(repeating: "long title ", count: 400)  // ~4.4 KB per add in the journal
        var caughtCompacting = 0
        for round in 0..<8 {
            let state = try TemporaryDirectory(prefix: "queued-compaction")
            let daemon = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
            let client = try daemon.client()
            // Odd rounds are killed as soon as a snapshot is being prepared (`snapshot.tmp` exists until
            // it is renamed into place), even rounds at a random point.
            let killAfter = round % 2 == 1 ? 790 : Int.random(in: 150...750, using: &random)
            var sent: [String] = []
            var acknowledged = 0
            while acknowledged < killAfter {
                if round % 2 == 1 && FileManager.default.fileExists(atPath: state.path + "/snapshot.tmp") { break }
                var burst: [UInt8] = []
                while sent.count < 800 && sent.count - acknowledged < 64 {
                    let uri = "/media/round-\(round)-\(sent.count).mp4"
                    sent.append(uri)
                    let params = API.QueueAdd.Params(items: [RPCItemInput(uri: uri, title: title)]).json
                    burst += RPCEncode.line(
                        RPCEncode.request(method: API.QueueAdd.name, params: params, id: RPCID(Int64(sent.count))))
                }
                if !burst.isEmpty { try client.sendRaw(burst) }
                let reply = try #require(try client.readLine(timeout: 30), "round \(round): the daemon hung up")
                let text = String(decoding: reply, as: UTF8.self)
                #expect(text.contains("\"result\""), "round \(round): \(text.prefix(200))")
                acknowledged += 1
            }
            kill(daemon.process.pid, SIGKILL)
            _ = daemon.process.wait()
            client.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
            if names.contains("snapshot.tmp") || names.filter({ $0.hasPrefix("journal.") }).count > 1 {
                caughtCompacting += 1
            }
            let again = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
            // Pages of 100: a page of these long titles is 440 KB, under the client's line limit.
            var uris: [String] = []
            let lister = try again.client()
            while true {
                let page = try lister.call(API.QueueList.self, .init(offset: Int64(uris.count), limit: 100)).items
                uris += page.map(\.uri)
                if page.count < 100 { break }
            }
            #expect(
                uris.count >= acknowledged && uris == Array(sent.prefix(uris.count)),
                "round \(round): \(acknowledged) acknowledged of \(sent.count) sent, \(uris.count) restored\n\(again.log())")
            #expect(!again.log().contains("damaged"), "\(again.log())")
            again.stop()
        }
        print("kill -9 around compactions: 8 kills, \(caughtCompacting) of them with a compaction under way")
        #expect(caughtCompacting >= 2, "the kills meant to land mid-compaction did")
    }

    @Test(arguments: ["position", "item"])
    func aPausedItemComesBackPausedAtItsPlaceWithItsVolume(resume: String) throws {
        let state = try TemporaryDirectory(prefix: "queued-resume")
        let tone = try Fixtures.tone(frequency: 330, seconds: 20)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path])
        let client = try daemon.client()
        _ = try client.call(API.QueueAdd.self, .init(items: [tone, tone, tone, tone].map { RPCItemInput(uri: $0) }))
        _ = try client.call(API.PlayerPlay.self, .init(id: 3))
        _ = try client.call(API.PlayerSeek.self, .init(position: 12))
        _ = try client.call(API.PlayerSet.self, .init(volume: 40))
        let paused = try client.call(API.PlayerPause.self)
        #expect(paused.state == "paused" && paused.currentId == 3)
        kill(daemon.process.pid, SIGKILL)
        _ = daemon.process.wait()

        let again = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", state.path, "--resume", resume])
        let status = try again.client().call(API.PlayerStatus.self)
        #expect(status.state == "paused", "\(status)\n\(again.log())")
        #expect(status.currentId == 3)
        #expect(status.volume == 40)
        let expected = resume == "position" ? 12.0 : 0.0
        #expect(abs(status.position - expected) <= 1, "position \(status.position), expected \(expected)")
        again.stop()
    }

    @Test func damagedStateFilesNeverStopTheDaemon() throws {
        let state = try TemporaryDirectory(prefix: "queued-damaged")
        let daemon = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
        _ = try daemon.client().call(
            API.QueueAdd.self, .init(items: (0..<5).map { RPCItemInput(uri: "/media/\($0).mp4") }))
        daemon.stop()
        // A snapshot of garbage and a journal cut mid-line: the daemon starts, says so, keeps them aside.
        try Data("not a snapshot\n".utf8).write(to: URL(fileURLWithPath: state.path + "/snapshot"))
        let journals = try FileManager.default.contentsOfDirectory(atPath: state.path).filter {
            $0.hasPrefix("journal.")
        }
        for name in journals {
            try Data("0123abcd {\"queue\":".utf8).write(to: URL(fileURLWithPath: state.path + "/" + name))
        }
        let again = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
        let list = try again.client().call(API.QueueList.self, .init())
        #expect(list.items.isEmpty)
        #expect(again.log().contains("state: snapshot: the header is damaged"), "\(again.log())")
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(names.contains { $0.hasPrefix("snapshot.damaged-") }, "\(names)")
        // And it keeps changes again from there.
        _ = try again.client().call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: "/media/new.mp4")]))
        again.stop()
        let third = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
        #expect(try third.client().call(API.QueueList.self, .init()).items.map(\.uri) == ["/media/new.mp4"])
        third.stop()
    }

    @Test func aSecondDaemonOnTheSameStateDirectoryNamesTheFirst() throws {
        let state = try TemporaryDirectory(prefix: "queued-locked")
        let first = try RunningDaemon(outputs: .null(untimed: true), ["--state-dir", state.path])
        let second = try ChildProcess.run(
            BuiltProduct.path("queued"),
            ["--socket", state.path + "/other.sock", "--audio", "null", "--video", "none", "--state-dir", state.path],
            timeout: 30)
        #expect(second.status != 0)
        #expect(second.stderr.contains("pid \(first.process.pid)"), "\(second.stderr)")
        first.stop()
    }
}
