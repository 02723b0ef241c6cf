// The engine's one lock around its EngineState, and the owner that carries out the state's actions.
// Commands (any thread), the decode thread and the presenter thread all go through `locked` (or
// `lockedThenWait`, which waits after its batch), and every batch of changes ends with `commitAndUnlock`.
//
// The lock (`condition`) protects `state` and nothing else. Rules:
// - Nothing under it waits for a device or a server: no PulseAudio round trip, no SDL call, no file I/O.
//   The audio output is only asked things that return at once (`requestFlush`, `setPaused`, `setVolume`,
//   `playedFrames`); the waiting halves (`flush`, `write`, `drain`) run on the decode thread, unlocked.
// - The state's audio requests are carried out before the lock is released: a flush requested later
//   could land after the decode thread had already started the next play, and drop its first samples.
//   Events are delivered after the lock is released, but before any later batch, so observers see them
//   in the order they happened.
// - Lock order: the engine lock, then libpulse's mainloop lock (taken inside those sink calls). Nothing
//   that holds the mainloop lock ever takes the engine lock (libpulse's callbacks never call the engine).
// - The state recorder (durable storage) is handed the queue's changes and the player's snapshot before the
//   lock is released, so the journal's order is the order things happened; it only queues them.
// - Functions named `…Locked` expect the lock held; the rest take it themselves.

import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import QueueModel
import SystemClock

final class EngineCore: @unchecked Sendable {
    let condition = ThreadCondition()
    /// Guarded by `condition`.
    var state: EngineState
    private let audio: AudioSink
    private let deliveryLock = ThreadLock()
    private let observer: @Sendable (PlayerEvent) -> Void
    let logger: Logger
    /// Set once before the engine starts (`PlayerEngine.record(to:)`); read under the lock.
    private(set) var recorder: StateRecorder?
    /// Runs the operator's screen commands; set once before the engine starts.
    var screenTeller: ScreenTeller?
    /// The player snapshot last handed to the recorder. Guarded by `condition`.
    private var recordedPlayer: PlayerSnapshot?
    /// Guarded by `condition`: how many batches woke the waiting threads. A thread that decided to wait
    /// waits, after its batch is committed, until this moves: a change made between its decision and its
    /// wait is not missed.
    private var wakes: UInt64 = 0

    init(state: EngineState, audio: AudioSink, logger: Logger, observer: @escaping @Sendable (PlayerEvent) -> Void) {
        self.state = state
        self.audio = audio
        self.logger = logger
        self.observer = observer
    }

    /// Runs `body` under the lock, then commits what it changed (see the rules above). The only way in:
    /// the threads touch the state nowhere else.
    @discardableResult
    func locked<R, E: Error>(_ body: (inout EngineState) throws(E) -> R) throws(E) -> R {
        condition.lock()
        defer { commitAndUnlock() }
        return try body(&state)
    }

    /// Runs `body` under the lock like `locked`; when it answers with a wait (seconds), the thread waits
    /// after the batch is committed and its events delivered — never inside the batch — until a later
    /// batch wakes the waiters, or the time is up. The one place the engine's threads wait for a change
    /// (the decode thread idle, holding or dark; the presenter with no picture due). `afterWake` reads the
    /// state in the same hold that saw a wake (not after a timeout): what woke the thread, taken at once.
    func lockedThenWait<R>(
        _ body: (inout EngineState) -> (R, wait: Double?), afterWake: ((EngineState) -> Void)? = nil
    ) -> R {
        condition.lock()
        let (result, wait) = body(&state)
        let seen = commitAndUnlock()
        if let wait { waitForWake(after: seen, timeout: wait, then: afterWake) }
        return result
    }

    /// Waits at most `timeout` seconds for the next batch that wakes the waiters (the decode thread's
    /// short naps while the picture queue is full). The count is read here, not where the caller decided
    /// to wait: a wake in between costs at most the nap.
    func waitForChange(timeout: Double) {
        let seen = condition.withLock { wakes }
        waitForWake(after: seen, timeout: timeout)
    }

    private func waitForWake(after seen: UInt64, timeout: Double, then afterWake: ((EngineState) -> Void)? = nil) {
        let deadline = Monotonic.now() + timeout
        condition.lock()
        defer { condition.unlock() }
        while wakes == seen {
            let left = deadline - Monotonic.now()
            guard left > 0 else { return }
            condition.wait(seconds: left)
        }
        afterWake?(state)
    }

    /// Ends a batch of changes: wakes the waiting threads if the batch concerns them, hands the queue's
    /// changes to the recorder, carries out the audio requests, releases the lock, then delivers the events
    /// (in the order recorded; the delivery lock is taken before the state lock is released, so a later
    /// batch can never overtake this one).
    /// Returns the count of wakes at the release, for a wait that follows.
    @discardableResult
    private func commitAndUnlock() -> UInt64 {
        if state.wakeWaiters {
            state.wakeWaiters = false
            wakes &+= 1
            condition.broadcast()
        }
        if let recorder { recordLocked(recorder) }
        let events = carryOutAudioRequests(state.takeActions())
        let seen = wakes
        guard !events.isEmpty else {
            condition.unlock()
            return seen
        }
        deliveryLock.lock()
        condition.unlock()
        for event in events { observer(event) }
        deliveryLock.unlock()
        return seen
    }

    /// Asks the audio output what the batch requested (each returns at once); returns the events, in order.
    private func carryOutAudioRequests(_ actions: [EngineAction]) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        for action in actions {
            switch action {
            case .emit(let event): events.append(event)
            case .requestAudioFlush: audio.requestFlush()
            case .cancelAudioWrite: audio.cancelWrite()
            case .setAudioPaused(let paused): audio.setPaused(paused)
            case .setAudioVolume(let volume, let muted): audio.setVolume(volume, muted: muted)
            case .tellScreen(let on): screenTeller?.tell(on: on)
            }
        }
        return events
    }

    /// Starts recording: the whole queue's later changes and the player's state go to `recorder`.
    func startRecording(to recorder: StateRecorder) {
        locked { state in
            state.queue.recordsChanges = true
            _ = state.queue.takeChanges()
            self.recorder = recorder
            recordedPlayer = state.playerSnapshot(heard: audio.playedFrames())
        }
    }

    /// The queue's changes, and the player when more than its position changed.
    private func recordLocked(_ recorder: StateRecorder) {
        let changes = state.queue.takeChanges()
        var player: PlayerSnapshot?
        if recordedPlayer.map({ state.playerDiffers(from: $0) }) ?? true {
            player = state.playerSnapshot(heard: audio.playedFrames())
            recordedPlayer = player
        }
        if !changes.isEmpty || player != nil { recorder.record(queue: changes, player: player) }
    }

    /// Records the player's place if it moved (the position is not recorded on every change).
    func recordPlaceNow() {
        locked { state in
            guard let recorder else { return }
            let snapshot = state.playerSnapshot(heard: audio.playedFrames())
            guard snapshot != recordedPlayer else { return }
            recordedPlayer = snapshot
            recorder.record(queue: state.queue.takeChanges(), player: snapshot)
        }
    }

}
