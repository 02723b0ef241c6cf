// The libpulse connection: one threaded mainloop (libpulse's own thread, which runs every callback) and
// one context. Owned by PulseAudioSink; also used alone by `PulseAudioSink.isServerReachable`.
// Any thread may call in, but every libpulse call must hold the mainloop lock (`withLock`, `…Locked`).
// Never call `withLock`, `waitLocked` or `close` from a libpulse callback (the mainloop thread).

import CPulse

final class PulseConnection: @unchecked Sendable {
    /// The pa_threaded_mainloop. Lives until deinit, so that the lock stays usable after `close`.
    let mainloop: OpaquePointer
    /// The pa_context; nil once closed. Guarded by the mainloop lock.
    private(set) var context: OpaquePointer?
    let server: String?

    /// Connects and waits (at most `timeout` seconds) until the context is READY; throws otherwise.
    init(server: String?, applicationName: String, timeout: Double) throws {
        self.server = server
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw PulseError(stage: .setup, server: server, reason: "pa_threaded_mainloop_new failed")
        }
        self.mainloop = mainloop
        self.context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), applicationName)
        // From here on deinit cleans up whatever we throw from.
        guard let context else {
            throw PulseError(stage: .setup, server: server, reason: "pa_context_new failed")
        }
        pa_context_set_state_callback(context, PulseConnection.signalMainloop, UnsafeMutableRawPointer(mainloop))
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw PulseError(stage: .connect, server: server, reason: errorText(context))
        }
        if pa_threaded_mainloop_start(mainloop) < 0 {
            throw PulseError(stage: .setup, server: server, reason: "pa_threaded_mainloop_start failed")
        }
        let deadline = PulseConnection.deadline(after: timeout)
        let state = withLock { () -> pa_context_state_t in
            _ = waitLocked(deadline: deadline) { !PulseConnection.isPending(pa_context_get_state(context)) }
            return pa_context_get_state(context)
        }
        guard state == PA_CONTEXT_READY else {
            let reason =
                PulseConnection.isPending(state)
                ? "no answer within \(timeout) s" : withLock { errorText(context) }
            throw PulseError(stage: .connect, server: server, reason: reason)
        }
    }

    deinit {
        close()
        pa_threaded_mainloop_free(mainloop)
    }

    /// Disconnects the context and stops the mainloop thread. Idempotent; not from a callback.
    func close() {
        let wasOpen = withLock { () -> Bool in
            guard let context else { return false }
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
            pa_threaded_mainloop_signal(mainloop, 0)
            return true
        }
        if wasOpen { pa_threaded_mainloop_stop(mainloop) }
    }

    // MARK: Locking and waiting

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Wakes every thread waiting in `waitLocked`. Lock held (callbacks hold it).
    func signalLocked() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Waits (lock held; it is released while sleeping) until `done()` or the deadline (pa_rtclock usec).
    /// Returns `done()`'s last value. Anything that changes what `done` looks at must signal the mainloop.
    @discardableResult
    func waitLocked(deadline: UInt64? = nil, until done: () -> Bool) -> Bool {
        if done() { return true }
        var timer: OpaquePointer?
        if let deadline, let context {
            timer = pa_context_rttime_new(
                context, deadline, PulseConnection.signalOnTimer,
                UnsafeMutableRawPointer(mainloop))
        }
        defer {
            if let timer { pa_threaded_mainloop_get_api(mainloop).pointee.time_free(timer) }
        }
        while !done() {
            if let deadline, pa_rtclock_now() >= deadline { return false }
            pa_threaded_mainloop_wait(mainloop)
        }
        return true
    }

    /// How an operation we waited for ended.
    enum OperationOutcome: Equatable {
        case succeeded, failed, aborted, timedOut
    }

    /// Starts a stream operation with a completion callback that records success and signals, then waits
    /// for it (lock held). `abort()` ends the wait early (the operation is then cancelled).
    func runOperationLocked(
        deadline: UInt64?, abort: () -> Bool = { false },
        _ start: (pa_stream_success_cb_t, UnsafeMutableRawPointer) -> OpaquePointer?
    ) -> OperationOutcome {
        let completion = UnsafeMutablePointer<OperationCompletion>.allocate(capacity: 1)
        completion.initialize(to: OperationCompletion(mainloop: mainloop))
        defer { completion.deallocate() }
        guard let operation = start(PulseConnection.completeOperation, UnsafeMutableRawPointer(completion)) else {
            return .failed
        }
        defer { pa_operation_unref(operation) }
        waitLocked(deadline: deadline) {
            pa_operation_get_state(operation) != PA_OPERATION_RUNNING || abort()
        }
        if pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            pa_operation_cancel(operation)  // no callback after this, so `completion` may go
            return abort() ? .aborted : .timedOut
        }
        return completion.pointee.success > 0 ? .succeeded : .failed
    }

    /// The context's last error as text. Lock held.
    func errorText(_ context: OpaquePointer? = nil) -> String {
        guard let context = context ?? self.context else { return "connection closed" }
        return String(cString: pa_strerror(pa_context_errno(context)))
    }

    var isReadyLocked: Bool {
        guard let context else { return false }
        return pa_context_get_state(context) == PA_CONTEXT_READY
    }

    static func deadline(after seconds: Double) -> UInt64 {
        pa_rtclock_now() + UInt64(max(0, seconds) * 1_000_000)
    }

    private static func isPending(_ state: pa_context_state_t) -> Bool {
        state != PA_CONTEXT_READY && state != PA_CONTEXT_FAILED && state != PA_CONTEXT_TERMINATED
    }

    // MARK: C callbacks (nonisolated, run on the mainloop thread with the lock held)

    struct OperationCompletion {
        let mainloop: OpaquePointer
        var success: Int32 = -1
    }

    /// Context/stream state callback: userdata is the mainloop; waiters re-check the state themselves.
    static let signalMainloop: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, userdata in
        pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
    }

    private static let signalOnTimer: pa_time_event_cb_t = { _, _, _, userdata in
        pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
    }

    private static let completeOperation: pa_stream_success_cb_t = { _, success, userdata in
        guard let completion = userdata?.assumingMemoryBound(to: OperationCompletion.self) else { return }
        completion.pointee.success = success
        pa_threaded_mainloop_signal(completion.pointee.mainloop, 0)
    }
}
