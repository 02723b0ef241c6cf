// The daemon's own side of the doors (issue 36): a connection confined with session.confine names local files
// only inside its folders — items, a playlist's entries (absolute and `../..`), a directory's files (a symlink
// out), image layers, in every spelling — and what it is refused leaves the queue and the overlays as they were;
// state.apply checks a whole wanted state before it changes anything (a bad layer or `rotate: 45`: queue,
// overlays, settings and appliedRev untouched), then swaps it in one request.

import Foundation
import JSONText
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite struct ConfinementDaemonTests {
    static func code(_ body: () throws(ClientError) -> Void) -> Int? {
        do throws(ClientError) {
            try body()
            return nil
        } catch {
            if case .rpc(let rpcError) = error { return rpcError.code }
            return -1
        }
    }

    static func queueLength(_ client: QueueClient) throws -> Int {
        try client.call(API.QueueList.self, .init()).items.count
    }

    @Test func aConfinedConnectionNamesNothingOutsideItsFolder() throws {
        let daemon = try RunningDaemon(outputs: .null(untimed: false), logLevel: "warning")
        defer { daemon.stop() }
        let media = try TemporaryDirectory(prefix: "confined-media")
        let still = try Fixtures.make("confined-still.png", ["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1"])
        try FileManager.default.copyItem(atPath: still, toPath: media.file("red.png"))
        // A playlist inside the folder whose entries leave it, and one that stays inside.
        try "/etc/hostname\n".write(toFile: media.file("absolute.m3u"), atomically: true, encoding: .utf8)
        try "../../../../../etc/hostname\n".write(toFile: media.file("relative.m3u8"), atomically: true, encoding: .utf8)
        try "#EXTINF:1,Red\nred.png\n".write(toFile: media.file("inside.m3u"), atomically: true, encoding: .utf8)
        // A directory inside the folder holding a symlink out of it.
        try FileManager.default.createDirectory(atPath: media.file("sub"), withIntermediateDirectories: true)
        symlink("/etc/hostname", media.file("sub/escape.png"))

        let confined = try daemon.client()
        let answer = try confined.call(API.SessionConfine.self, .init(folders: [media.path]))
        #expect(answer.folders == [FolderPath.real(media.path)] && answer.network)
        let refused: [(String, JSONValue)] = [
            ("queue.add", ["items": ["/etc/hostname"]]),
            ("queue.add", [["/etc/hostname"]]),
            ("queue.add", [["file:///etc/hostname"]]),
            ("queue.add", [["file:///%65tc/hostname"]]),
            ("queue.add", [[.string(media.path + "/../../etc/hostname")]]),
            ("queue.add", [[.string(media.file("absolute.m3u"))]]),
            ("queue.add", [[.string(media.file("relative.m3u8"))]]),
            ("queue.add", [[.string(media.file("sub"))]]),
            ("queue.insert", [["/etc/hostname"], 0]),
            ("queue.replace", [["/etc/hostname"]]),
            ("queue.interrupt", ["/etc/hostname"]),
            ("state.apply", ["items": [.string(media.file("absolute.m3u"))]]),
            ("overlay.add", ["image", .null, "/etc/hostname"]),
            ("overlay.add", ["type": "image", "path": .string(media.file("sub/escape.png"))]),
        ]
        for (method, params) in refused {
            let code = Self.code { () throws(ClientError) in _ = try confined.call(method, params) }
            #expect(code == RPCError.Code.uriNotAllowed, "\(method) \(JSON.string(params)) answered \(code.map(String.init) ?? "a result")")
        }
        #expect(try Self.queueLength(confined) == 0)
        #expect(try confined.call(API.OverlayList.self, NoParams()).overlays.isEmpty)
        // Inside the folder, and http(s), are fine; the playlist's entry resolves next to it.
        _ = try confined.call("queue.add", [[.string(media.file("inside.m3u")), "http://127.0.0.1:9/a.mp4"]])
        let items = try confined.call(API.QueueList.self, .init()).items
        #expect(items.map(\.uri) == [media.file("red.png"), "http://127.0.0.1:9/a.mp4"])
        // A confinement is never changed on its connection; another connection is not confined.
        #expect(Self.code { () throws(ClientError) in _ = try confined.call(API.SessionConfine.self, .init(folders: ["/"])) } == RPCError.Code.badState)
        let free = try daemon.client()
        _ = try free.call("queue.add", [[.string(media.file("red.png"))]])
        #expect(try Self.queueLength(free) == 3)
        // No local file at all, and no network either.
        let none = try daemon.client()
        _ = try none.call(API.SessionConfine.self, .init(folders: [], network: false))
        #expect(Self.code { () throws(ClientError) in _ = try none.call("queue.add", [[.string(media.file("red.png"))]]) } == RPCError.Code.uriNotAllowed)
        #expect(Self.code { () throws(ClientError) in _ = try none.call("queue.add", [["https://127.0.0.1/a.mp4"]]) } == RPCError.Code.uriNotAllowed)
        // A folder made after the confinement counts from then on (queued-web may start before its folder is made).
        let later = media.file("later")
        let early = try daemon.client()
        _ = try early.call(API.SessionConfine.self, .init(folders: [later]))
        try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: still, toPath: later + "/red.png")
        _ = try early.call("queue.add", [[.string(later + "/red.png")]])
        #expect(try Self.queueLength(early) == 4)
    }

    @Test func aWholeStateIsCheckedBeforeAnythingChanges() throws {
        let daemon = try RunningDaemon(outputs: .null(untimed: false), logLevel: "warning")
        defer { daemon.stop() }
        let client = try daemon.client()
        let still = try Fixtures.make("confined-still.png", ["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1"])
        _ = try client.call(API.StateApply.self, .init(items: [.init(uri: still)], loops: 0, rev: 3))
        _ = try client.call("overlay.add", ["type": "text", "text": "before"])
        _ = try client.call("player.set", ["volume": 40])
        func snapshot() throws -> String {
            let queue = try client.call("queue.list", nil)["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
            let overlays = try client.call("overlay.list", nil)["overlays"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            let status = try client.call(API.PlayerStatus.self, NoParams())
            return "\(queue) \(overlays) rev=\(status.appliedRev.map(String.init) ?? "nil") volume=\(status.volume)"
        }
        let before = try snapshot()
        #expect(before.contains("rev=3") && before.contains("before"))
        let bad: [JSONValue] = [
            ["items": ["https://127.0.0.1/new.mp4"], "rev": 4, "rotate": 45],
            ["items": ["https://127.0.0.1/new.mp4"], "rev": 4, "overlays": [["type": "text", "text": "ok"], ["type": "image", "path": "/nonexistent/x.png"]]],
            ["items": ["https://127.0.0.1/new.mp4"], "rev": 4, "overlays": [["type": "text", "text": "ok"], ["type": "text", "size": 0]]],
            ["items": ["https://127.0.0.1/new.mp4"], "rev": 4, "overlays": [["type": "clock", "item": 1]]],
            ["items": ["https://127.0.0.1/new.mp4", "relative.mp4"], "rev": 4, "volume": 10],
            ["items": ["https://127.0.0.1/new.mp4"], "rev": 4, "volume": 101],
        ]
        for params in bad {
            let code = Self.code { () throws(ClientError) in _ = try client.call("state.apply", params) }
            #expect(code != nil, "\(JSON.string(params)) was applied")
            #expect(try snapshot() == before, "\(JSON.string(params)) changed something")
        }
        // A good one: everything at once.
        _ = try client.call(
            "state.apply",
            ["items": ["https://127.0.0.1:9/new.mp4"], "rev": 4, "volume": 70, "rotate": 90,
             "overlays": [["type": "text", "text": "after"], ["type": "clock"]]])
        let after = try snapshot()
        #expect(after.contains("new.mp4") && after.contains("rev=4") && after.contains("volume=70") && after.contains("after"))
        #expect(!after.contains("before"))
        #expect(try client.call("player.status", nil)["rotate"]?.intValue == 90)
    }
}

enum FolderPath {
    static func real(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
