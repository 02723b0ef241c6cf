// Alerts through the fleet, with a real Mosquitto, real daemons and their bridges: a group alert published
// once (retained, with its expiry) is raised on every member, a player's own alert beside it; a message the
// bridge would not carry (an unknown field, a local file) never reaches the daemon; one empty retained
// message withdraws the group's alert everywhere — and a member whose bridge was down meanwhile loses it
// too once its bridge is back and finds the broker no longer holds it. A group's trigger message fires the
// members' `mqtt=` rules; a retained one is ignored.

import Foundation
import Glibc
import JSONText
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct FleetAlertTests {
    @Test(.timeLimit(.minutes(3))) func aGroupAlertReachesEveryMemberAndOneMessageWithdrawsIt() throws {
        let rig = try FleetConsoleRig(screens: ["p1", "p2", "p3"], simulated: 0)
        let clients = try rig.screens.map { try $0.daemon.client() }
        func alerts(_ index: Int) -> [String] {
            (try? clients[index].call(API.AlertList.self, NoParams()).alerts.map(\.id)) ?? ["unreachable"]
        }
        let expires = AlertDaemonTests.rfc3339(Date().addingTimeInterval(3600))
        try rig.publish("queued/group/lobby/alert/fire", ["text": "EVACUATE", "priority": 50, "expires": .string(expires)], retain: true)
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { (0..<3).allSatisfy { alerts($0) == ["fleet/group/lobby/fire"] } },
                "\((0..<3).map(alerts))")
        let kept = try clients[0].call(API.AlertList.self, NoParams()).alerts.first
        #expect(kept?.text == "EVACUATE" && kept?.priority == 50 && kept?.expires == expires, "\(String(describing: kept))")

        // A player's own alert beside the group's; what the bridge would not carry stays out.
        try rig.publish("queued/p2/alert/notice", ["text": "Closed today", "priority": 1], retain: true)
        try rig.publish("queued/p3/alert/odd", ["text": "x", "colour": "red"], retain: true)
        try rig.publish("queued/p3/alert/local", ["items": ["/etc/passwd"]], retain: true)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { alerts(1) == ["fleet/group/lobby/fire", "fleet/p2/notice"] }, "\(alerts(1))")
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) {
            let log = (try? String(contentsOfFile: rig.scratch.path + "/bridge-p3.log", encoding: .utf8)) ?? ""
            return log.contains("alert odd for p3 refused") && log.contains("alert fleet/p3/local refused")
        })
        #expect(alerts(2) == ["fleet/group/lobby/fire"])

        // p3's bridge is down while one empty retained message withdraws the group's alert.
        rig.killBridge(2)
        try rig.simulator.publish(topic: "queued/group/lobby/alert/fire", payload: [], qos: .atLeastOnce, retain: true)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { alerts(0).isEmpty && alerts(1) == ["fleet/p2/notice"] }, "\((0..<2).map(alerts))")
        #expect(alerts(2) == ["fleet/group/lobby/fire"], "the daemon keeps it while its bridge is away")
        try rig.restartBridge(2)
        #expect(waitUntil(timeout: 30, pollInterval: 0.2) { alerts(2).isEmpty }, "back, the bridge finds it withdrawn: \(alerts(2))")
        #expect(alerts(1) == ["fleet/p2/notice"])

        // From the fleet page: an operator raises one on the group and withdraws it; a viewer raises nothing;
        // what a screen would refuse is refused before it is published.
        let oper = try rig.signIn("oper"), viewer = try rig.signIn("viewer")
        let drill: JSONValue = ["target": "group/lobby", "name": "drill", "text": "Fire drill at 15:00", "priority": 20]
        #expect(try rig.send("POST", "/api/fleet-alerts", session: viewer, body: drill).status == 403)
        let bad: JSONValue = ["target": "group/lobby", "name": "drill", "text": "Fire drill", "expires": "tomorrow"]
        #expect(try rig.send("POST", "/api/fleet-alerts", session: oper, body: bad).status == 422)
        #expect(try rig.send("POST", "/api/fleet-alerts", session: oper, body: ["target": "group/lobby", "name": "x"]).status == 422)
        #expect(try rig.send("POST", "/api/fleet-alerts", session: oper, body: drill).status == 200)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { (0..<3).allSatisfy { alerts($0).contains("fleet/group/lobby/drill") } })
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) {
            (try? rig.get("/api/fleet-alerts", viewer))?["alerts"]?.arrayValue?.contains { $0["name"]?.stringValue == "drill" && $0["text"]?.stringValue == "Fire drill at 15:00" } == true
        })
        #expect(try rig.send("POST", "/api/fleet-alerts/withdraw", session: oper, body: ["target": "group/lobby", "name": "drill"]).status == 200)
        #expect(waitUntil(timeout: 20, pollInterval: 0.2) { (0..<3).allSatisfy { !alerts($0).contains("fleet/group/lobby/drill") } })
    }

    @Test(.timeLimit(.minutes(2))) func aGroupTriggerMessageFiresTheMembersRules() throws {
        let rig = try FleetConsoleRig(screens: ["p1", "p2"], simulated: 0)
        let clients = try rig.screens.map { try $0.daemon.client() }
        let clip = try Fixtures.tone(frequency: 440, seconds: 30)
        for client in clients {
            _ = try client.call(API.TriggersSet.self, .init(triggers: ["mqtt=hush -> pause"]))
            _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: clip)]))
            _ = try client.call(API.PlayerPlay.self, .init())
        }
        func states() -> [String] { clients.map { (try? $0.call(API.PlayerStatus.self, NoParams()).state) ?? "?" } }
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { states() == ["playing", "playing"] })
        // Retained: ignored (it would fire again at every connection).
        try rig.publish("queued/group/lobby/trigger/hush", [:], retain: true)
        // Both bridges have read it (so both follow the topic now).
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) {
            ["p1", "p2"].allSatisfy {
                ((try? String(contentsOfFile: rig.scratch.path + "/bridge-\($0).log", encoding: .utf8)) ?? "").contains("a retained trigger message is ignored")
            }
        })
        #expect(states() == ["playing", "playing"])
        try rig.publish("queued/group/lobby/trigger/hush", [:], retain: false)
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { states() == ["paused", "paused"] }, "\(states())")
    }
}
