// A lock and a condition variable on pthreads, in place of Foundation's NSLock and NSCondition.
//
// Hand-written on purpose: NSLock, NSCondition and Thread live in Foundation proper, and a module that
// imports Foundation links its ICU data (~44 MB) into every statically linked binary; FoundationEssentials has
// none of the three. Swift's `Mutex` has no condition to wait on, and NIO's ConditionLock waits for a value,
// not for a signal, which is what the daemon's loops do.

import Glibc

/// A mutual-exclusion lock (not recursive). Any thread; the thread that locked it unlocks it.
public class ThreadLock: @unchecked Sendable {
    /// The pthread mutex (ThreadCondition waits on it).
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public final func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    public final func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` with the lock held.
    public final func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait on, as NSCondition: `wait` must be called with the lock held, releases it
/// while waiting and holds it again when it returns. Waits may wake without a signal: callers loop on their
/// own predicate. Timed waits measure on CLOCK_MONOTONIC, so a change of the wall clock neither cuts nor
/// stretches them.
public final class ThreadCondition: ThreadLock, @unchecked Sendable {
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public override init() {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        let result = pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(result == 0, "pthread_cond_init failed: \(result)")
        super.init()
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Waits for a signal (lock held).
    public func wait() {
        let result = pthread_cond_wait(condition, mutex)
        precondition(result == 0, "pthread_cond_wait failed: \(result)")
    }

    /// Waits for a signal at most `seconds` (lock held). False when the time ran out.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let wait = max(0, seconds)
        let whole = wait.rounded(.down)
        var nanoseconds = Int(deadline.tv_nsec) + Int((wait - whole) * 1e9)
        var secondsPart = Int(deadline.tv_sec) + (whole >= Double(Int32.max) ? Int(Int32.max) : Int(whole))
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            secondsPart += 1
        }
        deadline.tv_sec = secondsPart
        deadline.tv_nsec = nanoseconds
        let result = pthread_cond_timedwait(condition, mutex, &deadline)
        precondition(result == 0 || result == ETIMEDOUT, "pthread_cond_timedwait failed: \(result)")
        return result == 0
    }

    /// Wakes one waiter.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiter.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
