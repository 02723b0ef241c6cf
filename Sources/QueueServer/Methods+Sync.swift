// sync.* methods (see QueueRPC's SyncMethods): the play heard on the group's clock, the sound's pace
// trimmed, a play placed at an instant, and the sync program's report kept for `queuectl sync status`
// and the metrics. Only the local socket's full users reach them (CallerPolicy).

import Playback
import QueueModel
import QueueRPC
import SystemClock
import SystemSupport

/// The sync program's last word on its group, as `sync.status` gives it back. Any thread; a small lock.
public final class SyncBoard: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by `lock`: the report and the monotonic second it came.
    private var last: (report: API.SyncGroupReport, at: Double)?

    public init() {}

    func keep(_ report: API.SyncGroupReport) { lock.withLock { last = (report, Monotonic.now()) } }

    /// The last report and its age in seconds (nil: none yet).
    public func latest() -> (report: API.SyncGroupReport, age: Double)? {
        lock.withLock { last.map { ($0.report, Monotonic.now() - $0.at) } }
    }
}

/// What the sync methods act on besides the main engine.
public struct SyncControl: Sendable {
    public let clock: GroupClock
    /// Sets the sound's trim (ppm) and returns the one in force; reads it.
    public let setTrim: @Sendable (Double) -> Double
    public let trimPPM: @Sendable () -> Double
    public let board: SyncBoard

    public init(
        clock: GroupClock, board: SyncBoard, setTrim: @escaping @Sendable (Double) -> Double,
        trimPPM: @escaping @Sendable () -> Double
    ) {
        (self.clock, self.board, self.setTrim, self.trimPPM) = (clock, board, setTrim, trimPPM)
    }
}

extension Dispatcher {
    static func syncMethods(_ engine: PlayerEngine, _ sync: SyncControl?) -> [RPCMethod] {
        @Sendable func control() throws(RPCError) -> SyncControl {
            guard let sync else { throw RPCError.badState("this daemon's sound cannot be trimmed (no sync support)") }
            return sync
        }
        return [
            .answering(API.SyncClock.self, .query) { _, _ in
                let control = try control()
                let (status, index, at) = engine.heardNow()
                var heard: API.SyncHeard?
                if let id = status.currentID, let index, status.state == .playing || status.state == .paused,
                    status.startsAt == nil, !status.interrupt
                {
                    heard = API.SyncHeard(
                        id: Int64(id.rawValue), index: Int64(index), play: Int64(status.play), position: status.position,
                        at: control.clock.groupTime(ofMonotonic: at), duration: status.duration, uri: status.uri ?? "")
                }
                return .init(
                    now: control.clock.now(), state: status.state.rawValue, heard: heard, trimPPM: control.trimPPM(),
                    queueVersion: Int64(status.queueVersion))
            },
            .answering(API.SyncTrim.self, .change) { params, _ in
                .init(trimPPM: try control().setTrim(params.ppm))
            },
            .answering(API.SyncAlign.self, .change) { params, _ in
                let control = try control()
                let instant = control.clock.monotonic(ofGroupTime: params.at)
                let now = Monotonic.now()
                guard instant <= now + 10 else {
                    throw RPCError.invalidParams(param: "at", reason: "must be at most 10 s after sync.clock's now")
                }
                try engine.align(
                    id: ItemID(Int(params.id)), play: Int(params.play), position: params.position, atMonotonic: max(now, instant))
                return Wire.status(engine.status())
            },
            .answering(API.SyncReport.self, .change) { params, _ in
                try control().board.keep(params.report)
                return .init()
            },
            .answering(API.SyncStatus.self, .query) { _, _ in
                guard let (report, age) = try control().board.latest() else {
                    throw RPCError.badState("no sync program has reported to this daemon (is queued-sync running?)")
                }
                return .init(report: report, age: age)
            },
        ]
    }
}
