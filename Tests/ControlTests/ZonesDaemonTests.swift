// Zones through the real daemon (SDL offscreen, a private PulseAudio): an L-bar set with layout.set, each
// zone's queue filled through the socket (`zone`) and queuectl (`--zone`), each zone's pictures read back
// from screenshots in its rectangle; what happens in one zone (next, a failed item, an interrupt, a layout
// change that keeps the others) leaves the main zone's play untouched, measured from its own presents; a
// layout over the decode budget refused whole; kill -9 during layout.set leaves the old layout or the new
// one, whole, with every kept zone's queue.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct ZonesDaemonTests {
    /// 320×240: main at the left (240×192), a column of stills at the right (80×192), a ticker band below.
    static let lBar: JSONValue = [
        "zones": [
            ["name": "main", "rect": ["x": 0, "y": 0, "w": "75%", "h": "80%"]],
            ["name": "side", "rect": ["x": "75%", "y": 0, "w": "25%", "h": "80%"], "fit": "fill", "content": "stills"],
            [
                "name": "ticker", "rect": ["x": 0, "y": "80%", "w": "100%", "h": "20%"], "content": "text",
                "background": "#2040c0",
            ],
        ]
    ]

    static func hue(_ shot: (width: Int, height: Int, rgba: [UInt8]), _ x: Int, _ y: Int) -> VideoHue? {
        let index = (y * shot.width + x) * 4
        let (r, g, b) = (Int(shot.rgba[index]), Int(shot.rgba[index + 1]), Int(shot.rgba[index + 2]))
        if r + g + b < 40 { return nil }
        return VideoHue.nearest(r: r, g: g, b: b)
    }

    static func rgb(_ shot: (width: Int, height: Int, rgba: [UInt8]), _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let index = (y * shot.width + x) * 4
        return (Int(shot.rgba[index]), Int(shot.rgba[index + 1]), Int(shot.rgba[index + 2]))
    }

    /// The hue at the centre of the side zone once it is `hue` (nil: it never became it).
    static func waitForSide(_ client: QueueClient, _ hue: VideoHue) -> Bool {
        waitUntil(timeout: 10, pollInterval: 0.05) {
            guard let shot = try? RotationDaemonTests.pixels(client) else { return false }
            return Self.hue(shot, 280, 150) == hue
        }
    }

    @Test func anLBarPlaysEachZoneInItsRectangleAndOneZoneNeverDisturbsAnother() throws {
        let state = try TemporaryDirectory(prefix: "queued-zones-state")
        let daemon = try RunningDaemon(["--state-dir", state.path, "--log-level", "present=trace"])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded]))

        let set = try client.call("layout.set", Self.lBar)
        #expect(set["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["main", "side", "ticker"])
        #expect(set["pending"]?.boolValue == false)

        // Main: a 20 s red video with sound. Side: green and blue stills, a file that is not there, by queuectl.
        let video = try Fixtures.video(seconds: 20, hue: .red, withAudio: .aacMP4)
        let green = try Fixtures.still(hue: .green), blue = try Fixtures.still(hue: .blue)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: video)]))
        // A file that is not a picture: it fails its item when its turn comes.
        let broken = state.path + "/broken.png"
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: broken))
        let added = try daemon.queuectl(["--zone", "side", "add", "--duration", "60", green, blue, broken, green])
        #expect(added.status == 0, "\(added.stderr)")
        let side = try daemon.client()
        side.zone = "side"
        #expect(try side.call(API.QueueList.self, .init()).items.count == 4)
        #expect(try client.call(API.QueueList.self, .init()).items.count == 1, "main's queue is its own")
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try side.call(API.PlayerPlay.self, .init())
        let mainStarted = try collectNotifications(watcher, timeout: 20) { notes in
            notes.contains { $0.method == "event.itemStarted" && $0.params?["zone"] == nil }
        }
        #expect(!mainStarted.isEmpty, "\(daemon.log().suffix(2000))")
        #expect(Self.waitForSide(client, .green), "\(daemon.log().suffix(2000))")

        let shot = try RotationDaemonTests.pixels(client)
        #expect(shot.width == 320 && shot.height == 240)
        #expect(Self.hue(shot, 120, 96) == .red, "main at its centre")
        // The fixture's lower half carries its hue (its top half is its frame stamp, on black).
        #expect(Self.hue(shot, 242, 150) == .green && Self.hue(shot, 318, 185) == .green, "side filled to its edges")
        #expect(Self.hue(shot, 236, 150) == .red, "main beside it")
        let band = Self.rgb(shot, 160, 220)
        #expect(abs(band.0 - 0x20) <= 4 && abs(band.1 - 0x40) <= 4 && abs(band.2 - 0xC0) <= 4, "ticker: \(band)")
        #expect(Self.hue(shot, 120, 3) == nil, "main's 4:3 picture letterboxed in its 240x192 zone: black bars")

        let before = try client.call(API.PlayerStatus.self)
        let presentsBefore = Self.mainPresents(daemon.log()).count
        // In the side zone: next (blue), next (the broken file fails and is passed), an interrupt, a layout
        // change keeping main and side (the ticker's colour).
        _ = try side.call(API.PlayerNext.self)
        #expect(Self.waitForSide(client, .blue))
        _ = try side.call(API.PlayerNext.self)
        #expect(Self.waitForSide(client, .green), "the failed item was passed")
        let failed = try side.call(API.QueueList.self, .init()).items.first { $0.uri.hasSuffix("broken.png") }
        #expect(failed?.state == "failed", "the broken file failed its item: \(String(describing: failed))")
        _ = try side.call(API.QueueInterrupt.self, .init(item: RPCItemInput(uri: blue, duration: 1)))
        #expect(Self.waitForSide(client, .blue))
        #expect(Self.waitForSide(client, .green), "back after the interrupt")
        // An interrupt that takes the whole screen: the side zone's blue over main's rectangle too, then the
        // L-bar back, each zone where it was.
        _ = try side.call(API.QueueInterrupt.self, .init(item: RPCItemInput(uri: blue, duration: 1.5), fullscreen: true))
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) {
            guard let shot = try? RotationDaemonTests.pixels(client) else { return false }
            return Self.hue(shot, 120, 150) == .blue && Self.hue(shot, 280, 150) == .blue
        }, "the interrupt fills the screen")
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) {
            guard let shot = try? RotationDaemonTests.pixels(client) else { return false }
            return Self.hue(shot, 120, 96) == .red && Self.hue(shot, 280, 150) == .green
        }, "the L-bar is back after it")
        var recoloured = Self.lBar
        if var zones = recoloured["zones"]?.arrayValue, var ticker = zones[2].objectValue {
            ticker["background"] = "#c04020"
            zones[2] = .object(ticker)
            recoloured = ["zones": .array(zones)]
        }
        _ = try client.call("layout.set", recoloured)
        #expect(waitUntil(timeout: 5, pollInterval: 0.05) {
            guard let shot = try? RotationDaemonTests.pixels(client) else { return false }
            let band = Self.rgb(shot, 160, 220)
            return abs(band.0 - 0xC0) <= 4 && abs(band.2 - 0x20) <= 4
        })
        #expect(try side.call(API.QueueList.self, .init()).items.count == 4, "side kept its queue")

        // Main played on: the same play, further on, and its pictures came one after another.
        let after = try client.call(API.PlayerStatus.self)
        #expect(after.play == before.play && after.currentId == before.currentId && after.position > before.position)
        let presents = Self.mainPresents(daemon.log()).dropFirst(presentsBefore)
        let gaps = zip(presents, presents.dropFirst()).filter { $1 - $0 > 1.5 / 25 }
        print("zones: main presented \(presents.count) pictures while the side zone changed 6 times; gaps \(gaps.count), dropped \(after.droppedFrames)")
        #expect(presents.count >= 25, "main presented \(presents.count) pictures")
        #expect(gaps.count <= 1 && after.droppedFrames <= 2, "main's pictures: \(gaps.count) gaps, \(after.droppedFrames) dropped")

        // A layer tied to the side zone: drawn in its rectangle, anchored to its bottom; none of it in main's.
        let layer = try client.call(
            "overlay.add",
            ["type": "text", "text": "MENU", "zone": "side", "anchor": "bottom", "size": 20, "padding": 12,
             "background": "#ff00ff"])
        #expect(layer["id"]?.intValue != nil)
        func magenta(_ shot: (width: Int, height: Int, rgba: [UInt8]), _ x: Int, _ y: Int) -> Bool {
            let (r, g, b) = Self.rgb(shot, x, y)
            return r > 200 && g < 60 && b > 200
        }
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) {
            guard let shot = try? RotationDaemonTests.pixels(client) else { return false }
            return magenta(shot, 280, 188) && !magenta(shot, 280, 120) && !magenta(shot, 120, 188) && !magenta(shot, 280, 230)
        }, "the side zone's layer at the bottom of its rectangle")
        #expect(try client.call("overlay.list")["overlays"]?.arrayValue?.first?["zone"]?.stringValue == "side")

        // Proof of play: the side zone's plays are recorded, each saying its zone; main's say none.
        let records = try client.call("plays.list", ["limit": 1000])["records"]?.arrayValue ?? []
        #expect(records.contains { $0["zone"]?.stringValue == "side" && $0["uri"]?.stringValue == green }, "\(records.prefix(3))")
        #expect(!records.contains { $0["zone"]?.stringValue == "main" })

        // A zone that is not there is refused, naming the zones.
        #expect(throws: ClientError.self) {
            let nowhere = try daemon.client()
            nowhere.zone = "nowhere"
            _ = try nowhere.call(API.QueueList.self, .init())
        }
        // queuectl shows the layout.
        let shown = try daemon.queuectl(["layout"])
        #expect(shown.status == 0 && shown.stdout.contains("side  at 75%,0 size 25%x80%"), "\(shown.stdout)")
    }

    /// Item times of main's pictures as presented (the `present=trace` lines), in order.
    static func mainPresents(_ log: String) -> [Double] {
        log.split(separator: "\n").filter { $0.contains("presented") }.compactMap { line in
            guard let range = line.range(of: "pts=") else { return nil }
            return Double(line[range.upperBound...].prefix { "0123456789.".contains($0) })
        }
    }

    @Test func aLayoutOverTheDecodeBudgetIsRefusedWholeNamingItsZones() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        func quarter(_ name: String, _ x: String, _ y: String) -> JSONValue {
            ["name": .string(name), "rect": ["x": .string(x), "y": .string(y), "w": "50%", "h": "50%"]]
        }
        let four: [JSONValue] = [quarter("main", "0%", "0%"), quarter("b", "50%", "0%"), quarter("c", "0%", "50%"), quarter("d", "50%", "50%")]
        let set = try client.call("layout.set", ["zones": .array(four)])
        #expect(set["zones"]?.arrayValue?.count == 4, "a 2x2 split of four videos fits")
        let fifth = four + [["name": "e", "rect": ["x": 10, "y": 10, "w": 64, "h": 48], "z": 1]]
        let refused = try client.call("layout.set", ["zones": .array(fifth)], expectingError: true)
        #expect(refused["code"]?.intValue == -32602)
        let message = refused["message"]?.stringValue ?? ""
        #expect(message.contains("\"e\"") && message.contains("Mpx/s"), "\(message)")
        // Nothing changed; a fifth zone of stills costs nothing and is taken.
        #expect(try client.call("layout.get")["zones"]?.arrayValue?.count == 4)
        let stills = four + [["name": "e", "rect": ["x": 10, "y": 10, "w": 64, "h": 48], "z": 1, "content": "stills"]]
        #expect(try client.call("layout.set", ["zones": .array(stills)])["zones"]?.arrayValue?.count == 5)
        // Broken layouts: each refused with the reason, the daemon and the connection live on.
        for (zones, words) in [
            ("[{\"name\":\"side\",\"rect\":{\"x\":0,\"y\":0,\"w\":10,\"h\":10}}]", "main"),
            ("[{\"name\":\"main\",\"rect\":{\"x\":0,\"y\":0,\"w\":\"60%\",\"h\":10}},{\"name\":\"main\",\"rect\":null}]", "two zones"),
            ("[{\"name\":\"../x\",\"rect\":{\"x\":0,\"y\":0,\"w\":10,\"h\":10}}]", "zone name"),
            ("[{\"name\":\"main\",\"rect\":{\"x\":\"60%\",\"y\":0,\"w\":\"60%\",\"h\":10}}]", "main"),
            ("[{\"name\":\"main\",\"rect\":{\"x\":0,\"y\":0,\"w\":10}}]", "rect.h"),
            ("[{\"name\":\"main\",\"rect\":{\"x\":0,\"y\":0,\"w\":10,\"h\":10},\"evil\":1}]", "evil"),
        ] {
            let error = try client.call("layout.set", ["zones": try JSON.parse(zones)], expectingError: true)
            #expect(error["code"]?.intValue == -32602, "\(zones): \(error)")
            #expect((error["message"]?.stringValue ?? "").contains(words), "\(zones): \(error)")
        }
        #expect(try client.call("layout.get")["zones"]?.arrayValue?.count == 5)
    }

    /// Layouts by daypart (TZ=UTC, windows hours around now, so nothing waits for a window): the layout whose
    /// window is open is in force, the fallback when none is; a zone of the plan that is not in the layout
    /// in force keeps its queue for its daypart; the plan survives a restart.
    @Test func aLayoutPerDaypartWithAFallback() throws {
        let state = try TemporaryDirectory(prefix: "queued-zones-dayparts")
        let still = try Fixtures.still(hue: .green)
        let now = Date().timeIntervalSince1970
        func window(_ from: Double, _ until: Double) -> JSONValue {
            ["from": .string(DaypartingDaemonTests.clock(hoursFromNow: from, now: now)),
             "until": .string(DaypartingDaemonTests.clock(hoursFromNow: until, now: now))]
        }
        func plan(dayOpen: Bool) -> JSONValue {
            [
                "layouts": [
                    [
                        "name": "day", "schedule": dayOpen ? window(-2, 2) : window(3, 5),
                        "zones": [
                            ["name": "main", "rect": ["x": 0, "y": 0, "w": "70%", "h": "100%"]],
                            ["name": "menu", "rect": ["x": "70%", "y": 0, "w": "30%", "h": "100%"], "content": "stills"],
                        ],
                    ],
                    ["name": "rest", "zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": "100%", "h": "100%"]]]],
                ]
            ]
        }
        do {
            let daemon = try RunningDaemon(outputs: .real(video: true), ["--state-dir", state.path], environment: ["TZ": "UTC"])
            defer { daemon.stop() }
            let client = try daemon.client()
            let set = try client.call("layout.set", plan(dayOpen: true))
            #expect(set["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["main", "menu"], "the day's layout: \(set)")
            let menu = try daemon.client()
            menu.zone = "menu"
            _ = try menu.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: still, duration: 30)]))
            let got = try client.call("layout.get")
            #expect(got["active"]?.stringValue == "day" && got["layouts"]?.arrayValue?.count == 2, "\(got)")
            // The day's window closed: the fallback is in force, the menu zone gone from the screen.
            let closed = try client.call("layout.set", plan(dayOpen: false))
            #expect(closed["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["main"])
            #expect(try client.call("layout.get")["active"]?.stringValue == "rest")
            #expect(throws: ClientError.self) { _ = try menu.call(API.QueueList.self, .init()) }
            // Its daypart again: the menu's queue is there.
            _ = try client.call("layout.set", plan(dayOpen: true))
            #expect(try menu.call(API.QueueList.self, .init()).items.count == 1, "the menu kept its queue")
            // A plan with two fallbacks is refused whole.
            var two = plan(dayOpen: true)
            if var layouts = two["layouts"]?.arrayValue, var day = layouts[0].objectValue {
                day["schedule"] = nil
                layouts[0] = .object(day)
                two = ["layouts": .array(layouts)]
            }
            let refused = try client.call("layout.set", two, expectingError: true)
            #expect((refused["message"]?.stringValue ?? "").contains("fallback"), "\(refused)")
            #expect(try client.call("layout.get")["active"]?.stringValue == "day")
        }
        let again = try RunningDaemon(outputs: .real(video: true), ["--state-dir", state.path], environment: ["TZ": "UTC"])
        defer { again.stop() }
        let back = try again.client()
        let got = try back.call("layout.get")
        #expect(got["active"]?.stringValue == "day" && got["layouts"]?.arrayValue?.count == 2, "the plan after a restart: \(got)")
        back.zone = "menu"
        #expect(try back.call(API.QueueList.self, .init()).items.count == 1)
        // The menu zone turned into music (another engine, the same state directory), then back: its queue
        // goes with it both ways.
        back.zone = nil
        let music = try back.call(
            "layout.set", ["zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": "100%", "h": "100%"]], ["name": "menu"]]])
        #expect(music["zones"]?.arrayValue?.last?["rect"] == .null, "\(music)")
        back.zone = "menu"
        #expect(try back.call(API.QueueList.self, .init()).items.count == 1, "the music zone has the menu's queue")
        back.zone = nil
        _ = try back.call("layout.set", plan(dayOpen: true))
        back.zone = "menu"
        #expect(try back.call(API.QueueList.self, .init()).items.count == 1)
    }

    @Test func killedDuringLayoutSetTheOldOrTheNewLayoutComesBackWholeWithTheZonesQueues() throws {
        let state = try TemporaryDirectory(prefix: "queued-zones-kill")
        let still = try Fixtures.still(hue: .green)
        let old: JSONValue = [
            "zones": [
                ["name": "main", "rect": ["x": 0, "y": 0, "w": "50%", "h": "100%"]],
                ["name": "side", "rect": ["x": "50%", "y": 0, "w": "50%", "h": "100%"], "content": "stills"],
            ]
        ]
        let new: JSONValue = [
            "zones": [
                ["name": "main", "rect": ["x": 0, "y": 0, "w": "70%", "h": "100%"]],
                ["name": "side", "rect": ["x": "70%", "y": 0, "w": "30%", "h": "50%"], "content": "stills"],
                ["name": "extra", "rect": ["x": "70%", "y": "50%", "w": "30%", "h": "50%"], "content": "stills"],
            ]
        ]
        // Killed at three moments: as the request goes out, once the new zone's state directory appears (the
        // new engines are being made, the file not yet replaced), and after the answer.
        enum Moment: CaseIterable { case sent, applying, answered }
        var outcomes: [String] = []
        for (round, moment) in Moment.allCases.enumerated() {
            let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path])
            let client = try daemon.client()
            _ = try client.call("layout.set", old)
            if round == 0 {
                let side = try daemon.client()
                side.zone = "side"
                _ = try side.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: still, duration: 30), RPCItemInput(uri: still, duration: 30)]))
            }
            try client.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"layout.set\",\"params\":\(String(decoding: JSON.serialize(new), as: UTF8.self))}\n".utf8))
            switch moment {
            case .sent: break
            case .applying:
                #expect(waitUntil(timeout: 10, pollInterval: 0.0005) { FileManager.default.fileExists(atPath: state.path + "/zones/extra") })
            case .answered:
                #expect(try client.readLine(timeout: 10) != nil)
            }
            _ = daemon.process.terminate(signal: SIGKILL)

            let again = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path])
            defer { again.stop() }
            let back = try again.client()
            let names = try back.call("layout.get")["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } ?? []
            #expect(names == ["main", "side"] || names == ["main", "side", "extra"], "\(moment): \(names)")
            if moment == .answered { #expect(names.count == 3, "an answered layout is kept") }
            outcomes.append("\(moment): \(names.count) zones")
            back.zone = "side"
            #expect(try back.call(API.QueueList.self, .init()).items.count == 2, "\(moment): the side zone kept its queue")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
            #expect(!files.contains("layout.json.damaged"), "\(moment): \(files)")
            if names.count == 2 {
                #expect(!FileManager.default.fileExists(atPath: state.path + "/zones/extra"), "a zone not in the layout leaves no state")
            }
            back.zone = nil
            _ = try back.call("layout.set", old)
            again.stop()
        }
        print("kill -9 during layout.set: layouts back after the kill (zones): \(outcomes)")
    }
}

extension QueueClient {
    /// The error object of a call expected to fail (the call's own error thrown as ClientError otherwise).
    func call(_ method: String, _ params: JSONValue? = nil, expectingError: Bool) throws -> JSONValue {
        let outcome: Result<JSONValue, ClientError> = Result { () throws(ClientError) in try call(method, params) }
        switch outcome {
        case .success(let result):
            Issue.record("\(method) succeeded: \(result)")
            return .null
        case .failure(.rpc(let rpc)):
            return ["code": .int(Int64(rpc.code)), "message": .string(rpc.message), "data": rpc.data ?? .null]
        case .failure(let error):
            throw error
        }
    }
}
