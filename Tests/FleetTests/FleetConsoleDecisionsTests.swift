// The fleet console's decisions, pure and on an injected clock: the roster from broker messages (made-up
// ids, bad payloads, caps), a push's progress from what a screen reported, the alerts raised once and
// recovered once, and the store's counting once per (player, seq).

import Fleet
import FleetConsole
import FleetStore
import Foundation
import JSONText
import Testing

struct FleetConsoleDecisionsTests {
    func bytes(_ value: JSONValue) -> [UInt8] { JSON.serialize(value) }

    @Test func theRosterIsBuiltFromStatusReportedAndRecordsAndRefusesWhatIsNotAScreen() {
        var roster = FleetRoster(prefix: "queued/")
        #expect(roster.take(topic: "queued/p1/status", payload: bytes(["state": "online", "since": 100, "groups": ["lobby", "a/b", "x"]]), now: 200) == .screen("p1"))
        #expect(roster.screens["p1"]?.online == true && roster.screens["p1"]?.since == 100)
        #expect(roster.screens["p1"]?.groups == ["lobby", "x"], "a group with a slash is not a group")
        #expect(roster.take(topic: "queued/p1/status", payload: bytes(["state": "offline"]), now: 300) == .screen("p1"))
        #expect(roster.screens["p1"]?.online == false && roster.screens["p1"]?.since == 300)
        #expect(roster.take(topic: "queued/all/status", payload: bytes(["state": "online"]), now: 1) == .none)
        #expect(roster.take(topic: "queued/p2/status", payload: Array("{not json".utf8), now: 1) == .none)
        #expect(roster.take(topic: "queued/p2/reported", payload: bytes([1, 2]), now: 1) == .none)
        #expect(roster.take(topic: "queued/p2/events", payload: bytes(["no": "seq"]), now: 1) == .none)
        if case .play(let player, _) = roster.take(topic: "queued/p2/events", payload: bytes(["seq": 1]), now: 5) {
            #expect(player == "p2")
        } else {
            Issue.record("a record with a seq is a play")
        }
        #expect(roster.take(topic: "queued/group/lobby/desired", payload: bytes(["rev": 7, "queue": []]), now: 1) == .desired(target: "group/lobby", rev: 7))
        #expect(roster.members(of: "group/lobby").map(\.id) == ["p1"], "offline, p1 keeps the groups it said")
        #expect(roster.take(topic: "queued/p1/status", payload: [], now: 400) == .screen("p1"))
        #expect(roster.screens["p1"] == nil, "a cleared status removes the screen")
    }

    @Test func aPushsProgressIsReadFromWhatTheScreenReported() {
        var screen = ScreenState(id: "p1")
        screen.online = true
        #expect(PushProgress(rev: 5, screen: screen) == .pending)
        screen.reported = ReportedDocument(appliedRev: 4, pendingRev: 5, applying: .init(rev: 5, progress: ApplyProgress(stage: .downloading, complete: 1, total: 3)), state: .playing)
        #expect(PushProgress(rev: 5, screen: screen) == .downloading(complete: 1, total: 3))
        screen.reported = ReportedDocument(appliedRev: 4, pendingRev: 5, error: "rev 5 (group lobby) not applied yet: connection refused", state: .playing)
        #expect(PushProgress(rev: 5, screen: screen) == .pending, "a download retried is not a refusal")
        screen.reported = ReportedDocument(appliedRev: 4, error: "rev 5 (group lobby) refused: rotate must be 0, 90, 180 or 270", state: .playing)
        #expect(PushProgress(rev: 5, screen: screen) == .refused("rev 5 (group lobby) refused: rotate must be 0, 90, 180 or 270"))
        screen.reported = ReportedDocument(appliedRev: 5, state: .playing)
        #expect(PushProgress(rev: 5, screen: screen) == .applied)
        screen.reported = ReportedDocument(appliedRev: 9, state: .playing)
        #expect(PushProgress(rev: 5, screen: screen) == .superseded(9))
        screen.reported = ReportedDocument(appliedRev: 4, state: .playing)
        screen.online = false
        #expect(PushProgress(rev: 5, screen: screen) == .offline)
    }

    @Test func anAlertIsRaisedOnceAndRecoveredOnce() {
        var roster = FleetRoster(prefix: "queued/")
        _ = roster.take(topic: "queued/p1/status", payload: bytes(["state": "online", "since": 0]), now: 0)
        var book = AlertBook(watchingSince: 0)
        let rules = AlertRules(offlineMinutes: 10, refusedRev: true)
        #expect(book.evaluate(roster, rules: rules, now: 10).isEmpty)
        _ = roster.take(topic: "queued/p1/status", payload: bytes(["state": "offline"]), now: 100)
        #expect(book.evaluate(roster, rules: rules, now: 100 + 599).isEmpty, "not yet ten minutes")
        let raised = book.evaluate(roster, rules: rules, now: 100 + 600)
        #expect(raised.map(\.state) == [.raised] && raised.first?.alert == Alert(kind: .offline, player: "p1"))
        #expect(book.evaluate(roster, rules: rules, now: 2000).isEmpty, "raised once")
        _ = roster.take(topic: "queued/p1/status", payload: bytes(["state": "online", "since": 2100]), now: 2100)
        #expect(book.evaluate(roster, rules: rules, now: 2100).map(\.state) == [.recovered])
        #expect(book.evaluate(roster, rules: rules, now: 2200).isEmpty, "recovered once")
        // A retried download is no refused rev; a refusal is.
        _ = roster.take(topic: "queued/p1/reported", payload: bytes(ReportedDocument(error: "rev 3 (player) not applied yet: connection refused", state: .playing).json), now: 2300)
        #expect(book.evaluate(roster, rules: rules, now: 2300).isEmpty)
        _ = roster.take(topic: "queued/p1/reported", payload: bytes(ReportedDocument(error: "rev 3 (player) refused: bad item", state: .playing).json), now: 2400)
        #expect(book.evaluate(roster, rules: rules, now: 2400).map(\.alert.kind) == [.refused])
    }

    @Test func theStoreCountsEachRecordOnceAndReportsPerItemScreenAndDay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try FleetStore(path: directory + "/fleet.sqlite")
        func play(_ player: String, _ seq: Int64, _ uri: String, _ day: String) -> FleetStore.Play {
            FleetStore.Play(player: player, seq: seq, record: ["seq": .int(seq), "player": "someone else", "uri": .string(uri), "start": .string(day + "T10:00:00Z"), "seconds": 10])
        }
        #expect(try store.add([play("a", 1, "x", "2026-11-27"), play("a", 2, "x", "2026-11-28"), play("b", 1, "y", "2026-11-28")]) == 3)
        #expect(try store.add([play("a", 1, "x", "2026-11-27"), play("a", 3, "x", "2026-11-28")]) == 1, "a repeat is not new")
        let report = try store.report()
        #expect(report.map { "\($0.day) \($0.player) \($0.uri) \($0.plays)" } == ["2026-11-27 a x 1", "2026-11-28 a x 2", "2026-11-28 b y 1"])
        #expect(try store.report(.init(from: "2026-11-28", player: "a")).map(\.plays) == [2])
        #expect(try store.records().allSatisfy { $0["player"]?.stringValue != "someone else" }, "the topic's player, not the body's")
        // The documents' history: one entry per rev, a second push of a rev refused.
        try store.recordPush(.init(target: "group/g", rev: 1, document: ["queue": []], pushedAt: 1, pushedBy: "me"))
        #expect(throws: (any Error).self) { try store.recordPush(.init(target: "group/g", rev: 1, document: ["queue": ["x"]], pushedAt: 2, pushedBy: "you")) }
        #expect(try store.document(target: "group/g", rev: 1)?.pushedBy == "me")
        // Reopened: everything is still there.
        let again = try FleetStore(path: directory + "/fleet.sqlite")
        #expect(try again.playCount() == 4)
    }
}
