// Durable replies: a request that changes the queue or the player is answered only once its change is
// kept (written to the state journal, or synced, per --sync), so an acknowledged change survives kill -9.
// The keeper is the daemon's state writer; without one (--no-state) replies go out at once.

/// What the dispatcher waits on before answering a change.
public protocol ChangeKeeper: AnyObject, Sendable {
    /// The last change handed to the keeper so far (waiting for it covers every earlier one).
    var lastRecorded: UInt64 { get }
    /// Runs `callback` (on any thread) once every change up to `sequence` is kept.
    func whenKept(_ sequence: UInt64, _ callback: @escaping @Sendable () -> Void)
    /// Defers the keeper's work during a burst of changes: true when this call started the deferral, and
    /// the caller must then call `releaseWakeup()` once the burst is done.
    func holdWakeup() -> Bool
    func releaseWakeup()
}
