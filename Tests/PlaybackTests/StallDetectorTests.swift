// The stall detector's decisions on an injected clock: standing still on purpose (paused, idle, waiting
// for a schedule's window) is healthy, a play that
// stops moving is recovered once after the timeout, a recovery that does not get it moving lets the
// watchdog fire, and moving again ends the episode.

import Playback
import QueueModel
import Testing

struct StallDetectorTests {
    func status(_ state: PlayerState, id: Int? = 1, position: Double = 0) -> PlayerStatus {
        var status = PlayerStatus()
        status.state = state
        status.currentID = id.map { ItemID($0) }
        status.play = 1
        status.position = position
        return status
    }

    @Test func standingStillOnPurposeIsHealthy() {
        var detector = StallDetector(timeout: 5, now: 0)
        for second in 0..<30 {
            #expect(detector.observe(status(.paused, position: 3), now: Double(second)) == .healthy)
            #expect(detector.observe(status(.idle, id: nil), now: Double(second) + 0.5) == .healthy)
        }
        // Playing, but every item is outside its schedule: a wait for a window, not a stall.
        var waiting = status(.playing, id: nil)
        waiting.waitingForSchedule = true
        for second in 30..<60 {
            #expect(detector.observe(waiting, now: Double(second)) == .healthy)
        }
        #expect(detector.stalls == 0)
    }

    @Test func aPlayThatStopsMovingIsRecoveredOnceThenTheWatchdogFires() {
        var detector = StallDetector(timeout: 5, now: 0)
        #expect(detector.observe(status(.playing, position: 1), now: 0) == .healthy)
        #expect(detector.observe(status(.playing, position: 2), now: 1) == .healthy)
        #expect(detector.observe(status(.playing, position: 2), now: 2) == .waiting)
        #expect(detector.observe(status(.playing, position: 2), now: 5.9) == .waiting)
        #expect(detector.observe(status(.playing, position: 2), now: 6) == .recover(seconds: 5))
        #expect(detector.stalls == 1)
        // The recovery did not get anything moving: one more timeout, then the watchdog is let go.
        #expect(detector.observe(status(.playing, position: 2), now: 8) == .waiting)
        #expect(detector.observe(status(.playing, position: 2), now: 11) == .stuck(seconds: 10))
        #expect(detector.isStuck)
        #expect(detector.observe(status(.playing, position: 2), now: 12) == .stuck(seconds: 11))
        #expect(detector.stalls == 1, "one episode")
        // Moving again (the next item started) ends the episode; a later stall is a new one.
        #expect(detector.observe(status(.playing, id: 2, position: 0), now: 13) == .healthy)
        #expect(detector.stillFor(now: 13) == 0 && !detector.isStuck)
        #expect(detector.observe(status(.playing, id: 2, position: 0), now: 18) == .recover(seconds: 5))
        #expect(detector.stalls == 2)
    }

    @Test func aRecoveryThatGetsPlaybackMovingKeepsTheWatchdogFed() {
        var detector = StallDetector(timeout: 2, now: 0)
        _ = detector.observe(status(.playing, position: 4), now: 0)
        #expect(detector.observe(status(.playing, position: 4), now: 2) == .recover(seconds: 2))
        #expect(detector.observe(status(.playing, id: 2, position: 0), now: 2.5) == .healthy)
        #expect(detector.observe(status(.playing, id: 2, position: 0.9), now: 3.5) == .healthy)
        #expect(detector.observe(status(.playing, id: 2, position: 1.9), now: 4.5) == .healthy)
    }
}
