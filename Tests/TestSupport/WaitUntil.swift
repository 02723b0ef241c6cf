// Polling with a deadline: the accepted way to wait for external processes (a socket appearing,
// a stream connecting). The poll interval is short so waits end promptly; the deadline keeps a
// broken helper from hanging the test run.

import Glibc

/// Polls `condition` every `pollInterval` seconds until it returns true (→ true) or `timeout`
/// seconds pass (→ false; the condition is checked one last time at the deadline).
/// Blocks the calling thread: from async code prefer the async overload, which does not tie up
/// a thread of the (small) cooperative pool.
@discardableResult
public func waitUntil(
    timeout: Double, pollInterval: Double = 0.005,
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, timeout) * 1e9)
    while true {
        if try condition() { return true }
        if MonotonicClock.nanoseconds() >= deadline { return try condition() }
        usleep(useconds_t(max(0.0005, pollInterval) * 1e6))
    }
}

/// The async form: sleeps with Task.sleep between polls, so other tasks keep running.
@discardableResult
public func waitUntil(
    timeout: Double, pollInterval: Double = 0.005,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, timeout) * 1e9)
    while true {
        if try await condition() { return true }
        if MonotonicClock.nanoseconds() >= deadline { return try await condition() }
        try? await Task.sleep(nanoseconds: UInt64(max(0.0005, pollInterval) * 1e9))
    }
}
