// Alerts against the real daemon (private PulseAudio, SDL offscreen, screenshots read back): an alert of
// items takes the screen from a looping queue and the queue resumes when it is cleared; one of text alone
// covers the screen and pauses the queue; both survive kill -9 (the alert file is synced before the
// answer); an alert whose expiry passed while the daemon was down is gone at start, and one that expires
// while it runs goes by itself; an interrupt waits while an alert holds the screen.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct AlertDaemonTests {
    /// The hue at the bottom half's centre of the screenshot (the fixtures' hue area), as its RGB.
    static func bottomColour(_ client: QueueClient, x: Int = 160, y: Int = 180) throws -> (r: Int, g: Int, b: Int) {
        let shot = try RotationDaemonTests.pixels(client)
        let index = (y * shot.width + x) * 4
        guard shot.rgba.count > index + 2 else { return (-1, -1, -1) }
        return (Int(shot.rgba[index]), Int(shot.rgba[index + 1]), Int(shot.rgba[index + 2]))
    }

    static func isRed(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r > c.b + 60 }
    static func isBlue(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.b > c.r + 60 }
    static func isBlack(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r < 24 && c.g < 24 && c.b < 24 }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func uri(_ client: QueueClient) -> String? { try? client.call(API.PlayerStatus.self, NoParams()).uri }

    @Test(.timeLimit(.minutes(2))) func anAlertTakesTheScreenSurvivesKillNineAndTheQueueResumesWhenItIsCleared() throws {
        let state = try TemporaryDirectory(prefix: "queued-alert-state")
        let queueClip = try Fixtures.video(seconds: 2, hue: .red)
        let alertClip = try Fixtures.video(seconds: 1, hue: .blue)
        let first = try RunningDaemon(["--state-dir", state.path])
        let client = try first.client()
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: queueClip, loops: 0)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { Self.uri(client) == queueClip })

        let raised = try client.call(API.AlertRaise.self, .init(id: "evacuate", items: [RPCItemInput(uri: alertClip)], priority: 5))
        #expect(raised.active == "evacuate" && raised.alerts.map(\.id) == ["evacuate"])
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { Self.uri(client) == alertClip }, "the alert plays")
        // Past its one second: the alert goes on (a loop of interrupts), never back to the queue.
        var seen: [String?] = []
        for _ in 0..<30 {
            seen.append(Self.uri(client))
            _ = waitUntil(timeout: 0.1, pollInterval: 0.1) { false }
        }
        #expect(seen.allSatisfy { $0 == alertClip }, "\(seen)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) { (try? Self.isBlue(Self.bottomColour(client))) == true }, "the screen shows the alert")
        let refused = try client.call("queue.interrupt", ["item": ["uri": .string(queueClip)]], expectingError: true)
        #expect(refused["code"]?.intValue == -32004 && (refused["message"]?.stringValue ?? "").contains("evacuate"), "\(refused)")

        // kill -9: the next start shows the alert again, over the queue it restored.
        _ = first.process.terminate(signal: SIGKILL, timeout: 5)
        first.stop()
        let second = try RunningDaemon(["--state-dir", state.path])
        defer { second.stop() }
        let again = try second.client()
        #expect(try again.call(API.AlertList.self, NoParams()).active == "evacuate")
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { Self.uri(again) == alertClip }, "the alert is back after kill -9: \(second.log())")

        // Cleared: the queue resumes.
        let cleared = try again.call(API.AlertClear.self, .init(id: "evacuate"))
        #expect(cleared == .init(cleared: true, active: nil))
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { Self.uri(again) == queueClip }, "the queue resumes")
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) { (try? Self.isRed(Self.bottomColour(again))) == true })
        #expect(try again.call(API.AlertClear.self, .init(id: "evacuate")).cleared == false)

        // Text alone: an opaque box over the whole screen, the queue paused under it; two alerts by priority.
        _ = try again.call(API.AlertRaise.self, .init(id: "notice", text: "Doors close at 18:00", priority: 1))
        let both = try again.call(API.AlertRaise.self, .init(id: "fire", text: "EVACUATE NOW", priority: 9))
        #expect(both.alerts.map(\.id) == ["fire", "notice"] && both.active == "fire")
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) {
            (try? Self.isBlack(Self.bottomColour(again, x: 10, y: 230))) == true
                && (try? again.call(API.PlayerStatus.self, NoParams()).state) == "paused"
        }, "the box covers the screen and the queue waits")
        // The alert's layer is its own: overlay.list (the caller's layers) leaves it out.
        #expect(try again.call(API.OverlayList.self, NoParams()).overlays.isEmpty)
        _ = try again.call(API.AlertClear.self, .init(id: "fire"))
        #expect(try again.call(API.AlertList.self, NoParams()).active == "notice", "the next alert by priority takes its place")
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) {
            (try? Self.isBlack(Self.bottomColour(again, x: 10, y: 230))) == true
        }, "its box covers the screen")
        _ = try again.call(API.AlertClear.self, .init(id: "notice"))
        #expect(waitUntil(timeout: 10, pollInterval: 0.2) {
            (try? again.call(API.PlayerStatus.self, NoParams()).state) == "playing"
                && (try? Self.isRed(Self.bottomColour(again))) == true
        }, "no alert: the box is gone and the queue plays on")
        #expect(try again.call(API.OverlayList.self, NoParams()).overlays.isEmpty)
    }

    @Test(.timeLimit(.minutes(2))) func anAlertExpiresByTheWallClockEvenWhileTheDaemonIsDown() throws {
        let state = try TemporaryDirectory(prefix: "queued-alert-expiry")
        let alertClip = try Fixtures.video(seconds: 1, hue: .blue)
        let first = try RunningDaemon(["--state-dir", state.path])
        let client = try first.client()
        let soon = Date().addingTimeInterval(3)
        _ = try client.call(
            API.AlertRaise.self, .init(id: "storm", items: [RPCItemInput(uri: alertClip)], expires: Self.rfc3339(soon)))
        _ = try client.call(API.AlertRaise.self, .init(id: "kept", text: "Kept", priority: -1))
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { Self.uri(client) == alertClip })
        _ = first.process.terminate(signal: SIGKILL, timeout: 5)
        first.stop()
        // Its expiry passes while no daemon runs.
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { Date() > soon.addingTimeInterval(1) })
        let second = try RunningDaemon(["--state-dir", state.path])
        defer { second.stop() }
        let again = try second.client()
        #expect(try again.call(API.AlertList.self, NoParams()).alerts.map(\.id) == ["kept"])
        #expect(second.log().contains("alert storm expired while the daemon was down"), "\(second.log())")
        // An alert that expires while the daemon runs goes by itself; a time that is no RFC 3339 is refused.
        _ = try again.call(
            API.AlertRaise.self, .init(id: "brief", text: "Brief", priority: 3, expires: Self.rfc3339(Date().addingTimeInterval(2))))
        #expect(try again.call(API.AlertList.self, NoParams()).active == "brief")
        #expect(waitUntil(timeout: 15, pollInterval: 0.2) { (try? again.call(API.AlertList.self, NoParams()).active) == "kept" })
        let bad = try again.call("alert.raise", ["id": "x", "text": "x", "expires": "tomorrow"], expectingError: true)
        #expect(bad["code"]?.intValue == -32602, "\(bad)")
        let empty = try again.call("alert.raise", ["id": "x"], expectingError: true)
        #expect(empty["code"]?.intValue == -32602, "\(empty)")
        let past = try again.call("alert.raise", ["id": "x", "text": "x", "expires": "2020-01-01T00:00:00Z"], expectingError: true)
        #expect(past["code"]?.intValue == -32004, "\(past)")
    }

    /// An alert item of several plays goes on as one interrupt (no second chain started beside it), and once
    /// the alert is cleared nothing of it plays again.
    @Test(.timeLimit(.minutes(2))) func anAlertItemOfSeveralPlaysLeavesNothingBehindWhenCleared() throws {
        let daemon = try RunningDaemon(outputs: .null(untimed: false))
        defer { daemon.stop() }
        let client = try daemon.client()
        let tone = try Fixtures.tone(frequency: 440, seconds: 30), siren = try Fixtures.tone(frequency: 880, seconds: 0.4)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { Self.uri(client) == tone })
        _ = try client.call(API.AlertRaise.self, .init(id: "siren", items: [RPCItemInput(uri: siren, loops: 3)]))
        var plays: Set<Int64> = []
        #expect(waitUntil(timeout: 20, pollInterval: 0.02) {
            if let status = try? client.call(API.PlayerStatus.self, NoParams()), status.uri == siren { plays.insert(status.play) }
            return plays.isSuperset(of: [1, 2, 3])
        }, "its three plays: \(plays)")
        _ = try client.call(API.AlertClear.self, .init(id: "siren"))
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { Self.uri(client) == tone })
        var after: [String?] = []
        for _ in 0..<40 {
            after.append(Self.uri(client))
            _ = waitUntil(timeout: 0.05, pollInterval: 0.05) { false }
        }
        #expect(after.allSatisfy { $0 == tone }, "nothing of the alert after it is cleared: \(after)")
        #expect(!daemon.log().contains("cut elsewhere"), "one chain, never restarted")
    }

    /// With zones, an alert's items take the whole screen (the side zone hidden while it stands) and the
    /// layout comes back when it is cleared.
    @Test(.timeLimit(.minutes(2))) func anAlertTakesEveryZone() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        _ = try client.call("layout.set", ZonesDaemonTests.lBar)
        let red = try Fixtures.video(seconds: 2, hue: .red), green = try Fixtures.still(hue: .green)
        let alertClip = try Fixtures.video(seconds: 1, hue: .blue)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: red, loops: 0)]))
        let side = try daemon.client()
        side.zone = "side"
        _ = try side.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: green, duration: 600)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try side.call(API.PlayerPlay.self, .init())
        #expect(ZonesDaemonTests.waitForSide(client, .green))

        _ = try client.call(API.AlertRaise.self, .init(id: "all", items: [RPCItemInput(uri: alertClip)]))
        // The side zone's place shows the alert's picture, and goes on showing it across the chain's seams.
        #expect(ZonesDaemonTests.waitForSide(client, .blue), "the alert covers the side zone")
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? client.call(API.PlayerStatus.self, NoParams()).play) ?? 0 >= 1 && Self.uri(client) == alertClip })
        var sides: [VideoHue?] = []
        for _ in 0..<15 {
            if let shot = try? RotationDaemonTests.pixels(client) { sides.append(ZonesDaemonTests.hue(shot, 280, 150)) }
        }
        #expect(sides.allSatisfy { $0 == .blue }, "\(sides)")
        _ = try client.call(API.AlertClear.self, .init(id: "all"))
        #expect(ZonesDaemonTests.waitForSide(client, .green), "the layout is back")
    }

    /// CAP feeds from nginx, polled every second: an Actual alert of an Atom feed is raised (a Test one, an
    /// expired one are not), a feed that is not XML changes nothing, a Cancel withdraws, and an alert the feed
    /// no longer carries is withdrawn.
    @Test(.timeLimit(.minutes(2))) func capFeedsRaiseAndWithdrawAlerts() throws {
        let site = try TemporaryDirectory(prefix: "queued-cap-feed")
        let nginx = try NginxServer(root: site.path)
        func serve(_ text: String) throws {
            try text.write(toFile: site.path + "/feed.tmp", atomically: false, encoding: .utf8)
            #expect(rename(site.path + "/feed.tmp", site.path + "/feed.xml") == 0)
        }
        let alert = CAPDocumentTestsFixture.alert
        let later = Self.rfc3339(Date().addingTimeInterval(3600))
        try serve("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><content type=\"text/xml\">" + alert("A1", "Actual", "Alert", nil, later, "Flood warning")
            + "</content></entry><entry><content>" + alert("T1", "Test", "Alert", nil, later, "A test") + "</content></entry><entry><content>"
            + alert("OLD", "Actual", "Alert", nil, "2020-01-01T00:00:00Z", "Old") + "</content></entry></feed>")
        let daemon = try RunningDaemon(["--cap-feed", nginx.baseURL + "/feed.xml", "--cap-interval", "1"], video: true)
        defer { daemon.stop() }
        let client = try daemon.client()
        func standing() -> [API.AlertListing.Entry] { (try? client.call(API.AlertList.self, NoParams()).alerts) ?? [] }
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { standing().count == 1 }, "\(daemon.log().suffix(1500))")
        let raised = standing().first
        #expect(raised?.id.hasSuffix("/A1") == true && raised?.text == "Flood warning\nKeep away from the river" && raised?.priority == 100,
                "\(String(describing: raised))")
        #expect(raised?.expires == later)

        try serve("<feed><entry>broken")
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { daemon.log().contains("not read") })
        #expect(standing().map(\.id) == [raised?.id], "a feed that cannot be read changes nothing")

        try serve(alert("C1", "Actual", "Cancel", "w@127.0.0.1,A1,2026-11-29T10:00:00-00:00", later, "Cancel"))
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { standing().isEmpty }, "a Cancel withdraws")

        try serve(alert("B1", "Actual", "Alert", nil, later, "Storm"))
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { standing().first?.text?.hasPrefix("Storm") == true })
        try serve("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>quiet</title></feed>")
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { standing().isEmpty }, "no longer carried: withdrawn")
    }
}

/// A CAP alert as a feed would carry it (the tests' own, on loopback names).
enum CAPDocumentTestsFixture {
    static func alert(_ identifier: String, _ status: String, _ type: String, _ references: String?, _ expires: String, _ headline: String) -> String {
        """
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>\(identifier)</identifier><sender>w@127.0.0.1</sender>
        <sent>2026-11-29T10:00:00-00:00</sent><status>\(status)</status><msgType>\(type)</msgType><scope>Public</scope>
        \(references.map { "<references>\($0)</references>" } ?? "")<info><event>Flood</event><severity>Extreme</severity>
        <expires>\(expires)</expires><headline>\(headline)</headline><instruction>Keep away from the river</instruction></info></alert>
        """
    }
}
