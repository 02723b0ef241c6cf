// queued-fleet from outside, through the real binaries: a real Mosquitto on loopback, real screens (daemons on
// the null outputs with their bridges) and hundreds of simulated players speaking the AsyncAPI contract. The
// wall counts every screen and says when one goes dark (its bridge killed with -9) and comes back, with one
// webhook notice each way; a push to a group lands on every member that may take it, and one that may not
// shows the screen's own reason; a rollback brings the old queue back on the screens; proof of play is
// counted once per record across repeats, an outage of the console and its restart, and the CSV says the
// same; the doors hold roles, sessions, origins and CSRF, as an attacker would try them.

import Foundation
import JSONText
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct FleetConsoleTests {
    @Test(.timeLimit(.minutes(3))) func theWallShowsEveryScreenAndSaysWhenOneGoesDarkAndComesBack() throws {
        // 20 real screens (daemons with their bridges) and 500 simulated players.
        let rig = try FleetConsoleRig(screens: (1...20).map { "p\($0)" }, simulated: 500)
        let viewer = try rig.signIn("viewer")
        var wall: JSONValue?
        let complete = waitUntil(timeout: 60, pollInterval: 0.2) {
            wall = try? rig.get("/api/screens", viewer)
            let lobby = wall?["screens"]?.arrayValue?.filter { $0["groups"]?.arrayValue == ["lobby"] }.count
            return wall?["total"]?.intValue == 520 && wall?["online"]?.intValue == 520 && lobby == 20
        }
        #expect(complete, "\(String(describing: wall?["total"])) \(String(describing: wall?["online"]))")
        #expect(try rig.get("/api/screens?group=mall", viewer)["matching"]?.intValue == 250)
        #expect(try rig.get("/api/screens?q=sim-01", viewer)["matching"]?.intValue == 10)
        let p1 = try rig.get("/api/screen?id=p1", viewer)
        #expect(p1["reported"]?["host"]?["diskFreePercent"]?.doubleValue != nil, "the bridge says the box's free disk")

        // Live updates: only what changed since the page's last look.
        let mark = try rig.get("/api/screens", viewer)["changeNumber"]?.intValue ?? 0
        try rig.simulate("sim-007", groups: ["mall"], appliedRev: 9)
        var changed: [String] = []
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) {
            changed = (try? rig.get("/api/screens?since=\(mark)", viewer))?["screens"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            return changed.contains("sim-007")
        })
        #expect(changed.count < 30, "only what changed, not the 520: \(changed)")

        // p2 goes dark: shown offline within the keepalive bound (5 s × 1.5) and told to the webhook once.
        rig.killBridge(1)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) {
            (try? rig.get("/api/screen?id=p2", viewer))?["online"]?.boolValue == false
        })
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) {
            rig.webhookNotices.contains { $0["player"]?.stringValue == "p2" && $0["alert"]?.stringValue == "offline" && $0["state"]?.stringValue == "raised" }
        }, "\(rig.webhookNotices)")
        #expect(try rig.get("/api/screens?state=offline", viewer)["matching"]?.intValue == 1)
        try rig.restartBridge(1)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) {
            rig.webhookNotices.contains { $0["player"]?.stringValue == "p2" && $0["state"]?.stringValue == "recovered" }
        }, "\(rig.webhookNotices)")
        let p2Notices = rig.webhookNotices.filter { $0["player"]?.stringValue == "p2" }
        #expect(p2Notices.map { $0["state"]?.stringValue } == ["raised", "recovered"], "\(p2Notices)")
        // And by mail, through the SMTP server: one message each way.
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { rig.mails.count >= 2 }, "\(rig.mails)")
        let subjects = rig.mails.compactMap { $0["text"]?.stringValue?.split(separator: "\n").first { $0.hasPrefix("Subject:") } }
        #expect(subjects.contains { $0.contains("p2 offline raised") } && subjects.contains { $0.contains("p2 offline recovered") }, "\(subjects)")
        #expect(rig.mails.allSatisfy { $0["to"]?.arrayValue == ["ops@localhost"] && $0["from"]?.stringValue == "fleet@localhost" })
        #expect(try rig.get("/api/screen?id=p2", viewer)["online"]?.boolValue == true)
        let alerts = try rig.get("/api/alerts", viewer)
        #expect(alerts["active"]?.arrayValue?.isEmpty == true)
        #expect(alerts["log"]?.arrayValue?.count == 2)
    }

    @Test(.timeLimit(.minutes(3))) func aPushLandsOnEveryMemberARefusalShowsItsReasonAndARollbackBringsTheOldQueueBack() throws {
        let media = try TemporaryDirectory(prefix: "queued-fleet-media")
        for (name, frequency) in [("a.wav", 440.0), ("b.wav", 660.0)] {
            try FileManager.default.copyItem(atPath: try Fixtures.tone(frequency: frequency, seconds: 0.5, format: .wav), toPath: media.file(name))
        }
        let nginx = try NginxServer(root: media.path)
        let rig = try FleetConsoleRig()
        let oper = try rig.signIn("oper")
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) {
            let wall = try? rig.get("/api/screens", oper)
            return wall?["online"]?.intValue == 2 && wall?["broker"]?.stringValue == "connected"
        })
        func push(_ document: JSONValue, _ session: FleetConsoleRig.Session) throws -> WebAttackRig.Answer {
            try rig.send("POST", "/api/push", session: session, body: ["target": "group/lobby", "document": document])
        }
        func progress(_ rev: Int64) -> [String: JSONValue] {
            let answer = try? rig.get("/api/progress?target=group/lobby&rev=\(rev)", oper)
            var states: [String: JSONValue] = [:]
            for member in answer?["members"]?.arrayValue ?? [] { states[member["id"]?.stringValue ?? ""] = member["progress"] }
            return states
        }
        func queue(_ index: Int) -> [String] {
            ((try? rig.screens[index].daemon.client().call("queue.list", [:]))?["items"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
        }

        // A local file: p1's bridge lets the fleet name one, p2's does not — p2 refuses with its reason.
        let local = try Fixtures.tone(frequency: 550, seconds: 0.4, format: .wav)
        let first = try push(["queue": [.string(local)], "loops": 0], oper)
        #expect(first.status == 200, "\(first.body)")
        let rev1 = first.json?["rev"]?.intValue ?? -1
        var states: [String: JSONValue] = [:]
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) {
            states = progress(rev1)
            return states["p1"]?["state"]?.stringValue == "applied" && states["p2"]?["state"]?.stringValue == "refused"
        }, "\(states)")
        #expect(states["p2"]?["reason"]?.stringValue?.contains("only network URLs") == true, "\(states)")
        #expect(queue(0) == [local])
        #expect(queue(1).isEmpty)

        // Network items: every member downloads and applies.
        let a = nginx.baseURL + "/a.wav"
        let b = nginx.baseURL + "/b.wav"
        let second = try push(["queue": [.string(a)], "loops": 0], oper)
        let rev2 = second.json?["rev"]?.intValue ?? -1
        #expect(rev2 > rev1)
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) {
            states = progress(rev2)
            return states.values.allSatisfy { $0["state"]?.stringValue == "applied" } && states.count == 2
        }, "\(states)")
        let third = try push(["queue": [.string(b)], "loops": 0], oper)
        let rev3 = third.json?["rev"]?.intValue ?? -1
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { queue(0) == [b] && queue(1) == [b] })

        // Back to rev2's queue, as a new rev.
        let rollback = try rig.send("POST", "/api/rollback", session: oper, body: ["target": "group/lobby", "rev": .int(rev2)])
        #expect(rollback.status == 200, "\(rollback.body)")
        let rev4 = rollback.json?["rev"]?.intValue ?? -1
        #expect(rev4 > rev3)
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) {
            states = progress(rev4)
            return states.values.allSatisfy { $0["state"]?.stringValue == "applied" } && states.count == 2
        }, "\(states)")
        #expect(queue(0) == [a] && queue(1) == [a])
        let history = try rig.get("/api/documents?target=group/lobby", oper)
        #expect(history["history"]?.arrayValue?.compactMap { $0["rev"]?.intValue } == [rev4, rev3, rev2, rev1])
        #expect(history["history"]?.arrayValue?.first?["pushedBy"]?.stringValue == "oper")

        // What the screens would refuse by the bridge's typed rules never reaches the broker; a viewer pushes nothing.
        let bad = try push(["queue": [.string(a)], "rotate": 45], oper)
        #expect(bad.status == 422, "\(bad.body)")
        #expect(bad.body.contains("rotate"))
        let viewer = try rig.signIn("viewer")
        #expect(try push(["queue": []], viewer).status == 403)
        #expect(try rig.get("/api/documents?target=group/lobby", oper)["rev"]?.intValue == rev4)

        // Commands to the group: each member's answer.
        let command = try rig.send(
            "POST", "/api/command", session: oper, body: ["target": "group/lobby", "method": "player.status"])
        let results = command.json?["results"]?.arrayValue ?? []
        #expect(results.compactMap { $0["id"]?.stringValue } == ["p1", "p2"], "\(command.body)")
        #expect(results.allSatisfy { $0["result"]?["state"]?.stringValue != nil }, "\(command.body)")
        #expect(try rig.send("POST", "/api/command", session: oper, body: ["target": "group/lobby", "method": "queue.clear"]).status == 400)
        #expect(try rig.send("POST", "/api/command", session: viewer, body: ["target": "p1", "method": "player.next"]).status == 403)

        // A restart of one screen's daemon from the page: answered, and the same process answers again afresh.
        let before = try rig.send("POST", "/api/command", session: oper, body: ["target": "p1", "method": "daemon.info"])
        let pid = before.json?["results"]?[0]?["result"]?["pid"]?.intValue
        let restart = try rig.send("POST", "/api/command", session: oper, body: ["target": "p1", "method": "daemon.restart"])
        #expect(restart.json?["results"]?[0]?["result"]?["restarting"]?.boolValue == true, "\(restart.body)")
        #expect(try rig.send("POST", "/api/command", session: viewer, body: ["target": "p1", "method": "daemon.restart"]).status == 403)
        var after: JSONValue?
        #expect(waitUntil(timeout: 30, pollInterval: 0.3) {
            after = try? rig.send("POST", "/api/command", session: oper, body: ["target": "p1", "method": "daemon.info"]).json?["results"]?[0]?["result"]
            return (after?["uptime"]?.doubleValue ?? .infinity) < (before.json?["results"]?[0]?["result"]?["uptime"]?.doubleValue ?? 0)
        }, "\(String(describing: after))")
        #expect(pid != nil && after?["pid"]?.intValue == pid)

        // The real screens' plays reach the report.
        #expect(waitUntil(timeout: 30, pollInterval: 0.5) {
            ((try? rig.get("/api/plays?player=p1", oper))?["plays"]?.intValue ?? 0) >= 1
        })
    }

    @Test(.timeLimit(.minutes(2))) func proofOfPlayIsCountedOnceAcrossRepeatsAnOutageAndARestart() throws {
        let rig = try FleetConsoleRig(screens: [], simulated: 0)
        let viewer = try rig.signIn("viewer")
        let players = (0..<200).map { String(format: "sim-%03d", $0) }
        for (index, player) in players.enumerated() {
            for seq in 1...3 { try rig.play(player, seq: Int64(seq), uri: "http://127.0.0.1:9/media/\(index % 5).mp4") }
        }
        // The broker delivers some again (a bridge resending what it was not sure of).
        for player in players.prefix(100) { try rig.play(player, seq: 1, uri: "http://127.0.0.1:9/media/0.mp4") }
        // And a day before, for the filter.
        for player in players.prefix(10) { try rig.play(player, seq: 100, uri: "http://127.0.0.1:9/media/old.mp4", day: "2026-11-27") }
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { (try? rig.get("/api/plays", viewer))?["plays"]?.intValue == 610 })
        #expect(try rig.get("/api/plays?from=2026-11-28", viewer)["plays"]?.intValue == 600)
        #expect(try rig.get("/api/plays?uri=http://127.0.0.1:9/media/old.mp4", viewer)["plays"]?.intValue == 10)

        // The console goes away; records sent meanwhile wait on the broker for its session.
        try rig.restartConsoleWhile {
            for player in players { try rig.play(player, seq: 4, uri: "http://127.0.0.1:9/media/late.mp4") }
        }
        let again = try rig.signIn("viewer")
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { (try? rig.get("/api/plays", again))?["plays"]?.intValue == 810 })

        // The CSV says the same as the records sent.
        let csv = try rig.send("GET", "/api/plays?format=csv", session: again)
        #expect(csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        let rows = csv.body.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.reduce(0) { $0 + (Int($1[3]) ?? 0) } == 810)
        #expect(rows.first { $0[1] == "sim-000" && $0[2] == "http://127.0.0.1:9/media/0.mp4" }?[3] == "3", "seqs 1 to 3 once each")
        let records = try rig.send("GET", "/api/plays?format=csv&records=1", session: again)
        #expect(records.body.split(separator: "\r\n").count == 811)
    }

    @Test(.timeLimit(.minutes(2))) func theDoorsHoldRolesSessionsOriginsAndCSRF() throws {
        let rig = try FleetConsoleRig(screens: [], simulated: 3)
        // No session, a wrong password, another site, no CSRF token, another spelling, another host.
        #expect(try rig.send("GET", "/api/screens").status == 401)
        #expect(try rig.send("POST", "/api/login", body: ["user": "admin", "password": "wrong"], headers: ["Origin": rig.origin]).status == 401)
        #expect(try rig.send("POST", "/api/login", body: ["user": "nobody", "password": "admin-password"], headers: ["Origin": rig.origin]).status == 401)
        let admin = try rig.signIn("admin")
        let newUser: JSONValue = ["name": "newbie", "role": "viewer", "password": "newbie-password"]
        #expect(try rig.send("POST", "/api/users", session: admin, body: newUser, headers: ["X-CSRF-Token": "wrong"]).status == 403)
        #expect(try rig.send("POST", "/api/users", session: admin, body: newUser, headers: ["Origin": "http://rebound.localhost:\(rig.port)"]).status == 403)
        #expect(try rig.send("GET", "/api//screens", session: admin).status == 400)
        #expect(try rig.send("GET", "/api/screens", session: admin, headers: ["Host": "rebound.localhost:\(rig.port)"]).status == 421)
        #expect(try rig.get("/api/users", admin)["users"]?.arrayValue?.count == 3)

        // Roles: a viewer and an operator manage no users; an admin does.
        let viewer = try rig.signIn("viewer")
        let oper = try rig.signIn("oper")
        #expect(try rig.send("GET", "/api/users", session: viewer).status == 403)
        #expect(try rig.send("POST", "/api/users", session: oper, body: newUser).status == 403)
        #expect(try rig.send("POST", "/api/users", session: admin, body: newUser).status == 200)
        _ = try rig.signIn("newbie", password: "newbie-password")
        // A removed user's session ends with them; the last admin stays.
        #expect(try rig.send("POST", "/api/users/remove", session: admin, body: ["name": "oper"]).status == 200)
        #expect(try rig.send("GET", "/api/screens", session: oper).status == 401)
        #expect(throws: (any Error).self) { try rig.signIn("oper") }
        // A password changed from outside (the same role) ends the sessions signed in with the old one.
        try rig.addUser("viewer", role: "viewer", password: "a-new-viewer-password")
        #expect(try rig.send("GET", "/api/screens", session: viewer).status == 401)
        let renewed = try rig.signIn("viewer", password: "a-new-viewer-password")
        #expect(try rig.send("GET", "/api/screens", session: renewed).status == 200)
        #expect(throws: (any Error).self) { try rig.signIn("viewer") }
        let lastAdmin = try rig.send("POST", "/api/users/remove", session: admin, body: ["name": "admin"])
        #expect(lastAdmin.status == 400 && lastAdmin.body.contains("last admin"))
        // The users file holds hashes, never a password, and only its owner may read it.
        let file = try String(contentsOfFile: rig.scratch.path + "/fleet/users", encoding: .utf8)
        #expect(!file.contains("password") && file.contains("newbie:viewer:$2"))
        var info = stat()
        stat(rig.scratch.path + "/fleet/users", &info)
        #expect(info.st_mode & 0o077 == 0)

        // A player id carrying markup is data: kept as text, never a second screen or a broken list.
        try rig.publish("queued/<img src=x onerror=alert(1)>/status", ["state": "online", "groups": ["mall"]], retain: true)
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) {
            (try? rig.get("/api/screens", renewed))?["screens"]?.arrayValue?.contains { $0["id"]?.stringValue == "<img src=x onerror=alert(1)>" } == true
        })
        #expect(try rig.get("/api/screens", renewed)["total"]?.intValue == 4)
        // What the broker carries that is not a screen's status stays out: over its size cap, not JSON, a
        // reserved id, an extra topic level.
        try rig.simulator.publish(topic: "queued/huge/status", payload: Array(repeating: UInt8(ascii: " "), count: 9000) + Array(#"{"state":"online"}"#.utf8), qos: .atLeastOnce, retain: true)
        try rig.simulator.publish(topic: "queued/broken/status", payload: Array("{not json".utf8), qos: .atLeastOnce, retain: true)
        try rig.publish("queued/all/status", ["state": "online"], retain: true)
        try rig.publish("queued/a/b/status", ["state": "online"], retain: true)
        // A marker published after them: once it shows, the others were read.
        try rig.publish("queued/marker/status", ["state": "online"], retain: true)
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? rig.get("/api/screen?id=marker", renewed))?["online"]?.boolValue == true })
        let ids = try rig.get("/api/screens", renewed)["screens"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(ids.count == 5 && !ids.contains("huge") && !ids.contains("broken") && !ids.contains("all"), "\(ids)")
    }
}

extension FleetConsoleRig {
    /// Stops the console, runs `meanwhile`, and starts it again on the same store.
    func restartConsoleWhile(_ meanwhile: () throws -> Void) throws {
        try restartConsole(meanwhile: meanwhile)
    }
}

/// The fleet page in a real browser: Tests/browser/fleet_test.py drives Debian's headless Chromium with
/// Selenium against the console, three real screens (p3's bridge killed) and 500 simulated players; its
/// screenshots are kept in the test's directory.
@Suite(.serialized) struct FleetConsoleBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("browser/fleet_test.py").path

    @Test func theFleetPageRunsTheFleetInARealBrowser() throws {
        let media = try TemporaryDirectory(prefix: "queued-fleet-browser-media")
        try FileManager.default.copyItem(atPath: try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav), toPath: media.file("a.wav"))
        let nginx = try NginxServer(root: media.path)
        let rig = try FleetConsoleRig(screens: ["p1", "p2", "p3"], simulated: 500)
        try rig.publish("queued/<img src=x onerror=alert(1)>/status", ["state": "online", "groups": ["mall"]], retain: true)
        let viewer = try rig.signIn("viewer")
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) {
            let wall = try? rig.get("/api/screens", viewer)
            return wall?["online"]?.intValue == 504 && wall?["broker"]?.stringValue == "connected"
        })
        rig.killBridge(2)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { (try? rig.get("/api/screen?id=p3", viewer))?["online"]?.boolValue == false })
        let screenshots = rig.scratch.path + "/screenshots"
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let passwords = String(decoding: JSON.serialize(.object(JSONObject(FleetConsoleRig.passwords.map { ($0.key, JSONValue.string($0.value)) }))), as: UTF8.self)
        let run = try ChildProcess.run(
            "/usr/bin/env", ["python3", Self.script],
            environment: ProcessInfo.processInfo.environment.merging([
                "FLEET_URL": rig.origin, "LOCAL_FILE": try Fixtures.tone(frequency: 550, seconds: 0.4, format: .wav),
                "NETWORK_URL": nginx.baseURL + "/a.wav", "PASSWORDS": passwords, "SCREENSHOTS": screenshots,
            ]) { $1 },
            timeout: 300)
        print(run.stdout)
        if run.status != 0 { print(run.stderr.suffix(4000)) }
        #expect(run.status == 0, "browser checks failed:\n\(run.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.joined(separator: "\n"))")
        #expect(run.stdout.contains("all browser checks passed"))
        // What the form wrote reached the screens: the overlay is on both online ones (the rollback after it
        // names no overlays, so they stay), and the pushed item kept its crossfade and schedule.
        for index in 0..<2 {
            let overlays = try rig.screens[index].daemon.client().call(API.OverlayList.self, NoParams()).overlays
            #expect(overlays.map(\.json).contains { $0["text"]?.stringValue == "Lobby" && $0["anchor"]?.stringValue == "bottom" }, "\(overlays)")
        }
        let history = try rig.get("/api/documents?target=group/lobby", viewer)["history"]?.arrayValue ?? []
        let formed = history.first { $0["document"]?["overlays"] != nil }?["document"]?["queue"]?[0]
        #expect(formed?["transition"]?["type"]?.stringValue == "crossfade" && formed?["schedule"]?["until"]?.stringValue == "23:59", "\(history)")
        if let keep = ProcessInfo.processInfo.environment["QUEUED_FLEET_SCREENSHOTS"] {
            for name in ["fleet-wall.png", "fleet-push.png", "fleet-phone.png"] {
                try? FileManager.default.removeItem(atPath: keep + "/" + name)
                try? FileManager.default.copyItem(atPath: screenshots + "/" + name, toPath: keep + "/" + name)
            }
        }
    }
}

/// Proof of play across a broker outage: a real screen goes on playing while the broker is down (its bridge
/// keeps the records in the daemon's log), and once the broker is back every record reaches the console's
/// store — seqs 1…N, none missing, none twice — N being what the daemon itself counted. The broker persists
/// its sessions as the shipped configuration does (contrib/mosquitto): the console's session, and with it
/// the records published before the console is back, outlives the broker's restart.
@Suite(.serialized) struct FleetConsoleOutageTests {
    @Test(.timeLimit(.minutes(3))) func everyRecordAScreenMadeDuringABrokerOutageReachesTheStore() throws {
        let rig = try FleetConsoleRig(screens: ["p1"], persistentBroker: true)
        let viewer = try rig.signIn("viewer")
        let daemon = try rig.screens[0].daemon.client()
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .wav)
        _ = try daemon.call("queue.add", ["items": [["uri": .string(tone), "loops": 0]]] as JSONValue)
        _ = try daemon.call("player.play", [:])
        func stored() -> [Int64] {
            ((try? rig.get("/api/plays?records=1&player=p1", viewer))?["records"]?.arrayValue ?? []).compactMap { $0["seq"]?.intValue }
        }
        func nextSeq() -> Int64 { (try? daemon.call("plays.list", [:]))?["nextSeq"]?.intValue ?? 0 }
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { stored().count >= 3 })
        rig.broker.kill(signal: SIGTERM)
        let atOutage = nextSeq()
        // Plays go on without the broker: at least five more records wait in the daemon's log.
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { nextSeq() >= atOutage + 5 })
        try rig.broker.start()
        _ = try daemon.call("player.stop", [:])
        let last = nextSeq() - 1
        var seqs: [Int64] = []
        #expect(waitUntil(timeout: 60, pollInterval: 0.3) {
            seqs = stored()
            return seqs.count >= last
        }, "the store has \(seqs.count) of \(last)")
        #expect(seqs.sorted() == Array(1...last), "seqs 1…\(last), none missing, none twice: \(seqs.sorted())")
    }
}
