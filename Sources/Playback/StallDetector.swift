// Decides, from the player's status sampled now and then, whether playback is stuck: playing, yet the
// current item and its position have not moved for `timeout` seconds (no picture shown, no sample heard:
// the position follows the audio clock). The first stall of an episode asks its owner to recover (end the
// item "stalled", rebuild the decode thread); if playback still does not move one timeout after that, the
// recovery itself is stuck and the owner should stop feeding systemd's watchdog, which restarts the daemon.
// A value type fed with an injected clock, so its decisions are tested without threads or waiting.
public struct StallDetector: Sendable {
    public enum Verdict: Equatable, Sendable {
        /// Moving, or standing still on purpose (paused, stopped, idle).
        case healthy
        /// Not moving for less than the timeout yet.
        case waiting
        /// Stuck for `seconds`: recover now (once per episode).
        case recover(seconds: Double)
        /// Still stuck after recovering: let the watchdog fire.
        case stuck(seconds: Double)
    }

    public let timeout: Double
    /// Stall episodes seen (each recovery counts one).
    public private(set) var stalls = 0
    private var place: Place?
    private var lastMovedAt: Double
    private var recoveredAt: Double?

    private struct Place: Equatable {
        let id: Int?
        let play: Int
        let position: Double
    }

    public init(timeout: Double, now: Double) {
        self.timeout = timeout
        lastMovedAt = now
    }

    /// Whether the last verdict was `stuck` (a recovery that did not get playback moving).
    public private(set) var isStuck = false

    /// Seconds since playback last moved (0 while standing still on purpose).
    public func stillFor(now: Double) -> Double { now - lastMovedAt }

    public mutating func observe(_ status: PlayerStatus, now: Double) -> Verdict {
        let verdict = judge(status, now: now)
        if case .stuck = verdict { isStuck = true } else { isStuck = false }
        return verdict
    }

    private mutating func judge(_ status: PlayerStatus, now: Double) -> Verdict {
        let current = Place(id: status.currentID?.rawValue, play: status.play, position: status.position)
        defer { place = current }
        // Buffering is a wait the network cache bounds itself (its own timeout, then the item fails); a
        // wait for a schedule's window or a synchronized start's instant, or a dark screen, is standing
        // still on purpose.
        guard status.state == .playing, !status.buffering, !status.waitingForSchedule, status.startsAt == nil,
            status.display.on,
            current == place
        else {
            lastMovedAt = now
            recoveredAt = nil
            return .healthy
        }
        let still = now - lastMovedAt
        if let recoveredAt {
            return now - recoveredAt < timeout ? .waiting : .stuck(seconds: still)
        }
        guard still >= timeout else { return .waiting }
        stalls += 1
        recoveredAt = now
        return .recover(seconds: still)
    }
}
