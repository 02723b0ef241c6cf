// The alerts' decisions as pure code: which alert is on screen, what expires when, and the times CAP writes.

import Alerts
import JSONText
import QueueRPC
import Testing

@Suite struct AlertBoardTests {
    func alert(_ id: String, priority: Int = 0, expires: Double? = nil, raisedAt: Double = 100) -> Alert {
        Alert(id: id, items: [], text: id, priority: priority, expires: expires, raisedAt: raisedAt)
    }

    @Test func theHighestPriorityIsShownThenTheLatestRaised() {
        var board = AlertBoard()
        let raisedLow = board.raise(alert("low", priority: 1, raisedAt: 100), now: 100)
        #expect(raisedLow)
        let raisedHigh = board.raise(alert("high", priority: 5, raisedAt: 101), now: 101)
        #expect(raisedHigh)
        let raisedLater = board.raise(alert("later", priority: 1, raisedAt: 102), now: 102)
        #expect(raisedLater)
        #expect(board.active?.id == "high")
        #expect(board.ordered.map(\.id) == ["high", "later", "low"])
        let cleared = board.clear("high")
        #expect(cleared)
        #expect(board.active?.id == "later")
        let again = board.clear("high")
        #expect(!again, "a second clear changes nothing")
        // Raising an id again replaces it.
        let raisedAgain = board.raise(alert("low", priority: 9, raisedAt: 103), now: 103)
        #expect(raisedAgain)
        #expect(board.active?.id == "low" && board.alerts.count == 2)
    }

    @Test func alertsExpireByTheWallClockAndAnExpiredOneIsNeverRaised() {
        var board = AlertBoard([alert("a", expires: 200), alert("b", expires: 300), alert("c")])
        #expect(board.nextExpiry == 200)
        let atFirst = board.expire(now: 199)
        #expect(atFirst.isEmpty)
        let byThen = board.expire(now: 250)
        #expect(byThen.map(\.id) == ["a"])
        let atLast = board.expire(now: 1000)
        #expect(atLast.map(\.id) == ["b"])
        #expect(board.alerts.keys.sorted() == ["c"] && board.nextExpiry == nil)
        let raisedLate = board.raise(alert("late", expires: 50), now: 60)
        #expect(!raisedLate)
        #expect(board.alerts["late"] == nil)
    }

    @Test func anAlertSurvivesItsJSONAndTimesAreRFC3339() throws {
        let kept = Alert(id: "fire", items: [["uri": "/srv/a.mp4"]], text: "Leave", priority: 7, expires: 1_795_000_000, raisedAt: 1_794_999_000.5)
        #expect(Alert(json: try JSON.parse(JSON.serialize(kept.json))) == kept)
        #expect(AlertTime.seconds("2026-11-29T18:00:00Z") == 1_795_975_200)
        #expect(AlertTime.seconds("2026-11-29T19:00:00+01:00") == 1_795_975_200)
        #expect(AlertTime.seconds("2026-11-29T18:00:00.250Z") == 1_795_975_200.25)
        #expect(AlertTime.seconds("2026-11-29 18:00") == nil)
        #expect(AlertTime.seconds("tomorrow") == nil)
        #expect(AlertTime.text(1_795_975_200) == "2026-11-29T18:00:00Z")
    }
}
