// What a sync group's program asks of the engine (see sync.* in the control side): the play heard and the
// monotonic instant it is heard at, read together under the lock, and a play placed to be heard from a
// position at an instant (a synchronized start: prepared, then let go at the instant). Any thread.

import QueueModel
import SystemClock

extension PlayerEngine {
    /// The status, the current item's place in the queue (nil: none, or an interrupt) and the monotonic
    /// instant its position is heard at.
    public func heardNow() -> (status: PlayerStatus, index: Int?, at: Double) {
        core.locked { state in
            let before = Monotonic.now()
            let status = state.status(heard: audio.playedFrames())
            let after = Monotonic.now()
            let index = status.currentID.flatMap { state.queue.index(of: $0) }
            return (status, index, (before + after) / 2)
        }
    }

    /// Item `id`'s `play`-th play heard from `position` at monotonic `instant`: prepared now (what plays
    /// until then is cut, the output corked), let go at the instant. The same play goes on as itself.
    public func align(id: ItemID, play: Int, position: Double, atMonotonic instant: Double) throws {
        let start = ScheduledStart(monotonic: instant, wall: Monotonic.wallClock() + (instant - Monotonic.now()))
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            try state.play(id: id, at: start, play: play, position: position)
        }
    }
}
