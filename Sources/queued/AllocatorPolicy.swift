// Process-wide allocator policy for a daemon that runs for months. Run once at start-up by `QueuedCommand`.
//
// glibc serves an allocation from mmap only above a threshold that it raises, by default, to the size of
// every large block freed (up to 32 MiB). One damaged file claiming a huge picture (a PNG header saying
// 160x32888) thus moves every later multi-megabyte buffer (decoder frame pools, big packets) onto the
// heap, where fragmentation keeps it resident after the item ends: the media fuzz test saw RSS climb by
// ~40 MB and stay there. A fixed threshold keeps big buffers on mmap, returned to the system on free.

import CMalloc
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Playback
import SystemClock

enum AllocatorPolicy {
    /// Blocks of this size and above are mmapped and unmapped on free. Small enough for a 720p picture
    /// plane, large enough that ordinary packets and audio chunks stay on the heap.
    static let mmapThreshold: Int32 = 1 << 20

    static func apply() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
    }
}

/// Hands freed heap memory back to the system (`malloc_trim`) now and then: when playback goes idle or
/// stops, and at most every 30 s as plays end. glibc keeps what a thread's arena freed until then, so a
/// screen that churns through thousands of short or broken items grows by what its many threads left
/// behind (the media fuzz test's growth over 5,000 damaged files varied from 3 to 9 MiB between runs).
/// The trim runs on a utility queue of its own: never on a playback thread, never under the engine's lock.
final class MemoryTrimmer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "queued.trim", qos: .utility)
    private let lock = ThreadLock()
    /// Guarded by `lock`: when the last trim ended (monotonic seconds), and whether one is on its way.
    private var lastTrim = -Double.infinity
    private var scheduled = false

    /// Engine's event callback (any thread).
    func observe(_ event: PlayerEvent) {
        switch event {
        case .statusChanged(let status) where status.state == .idle || status.state == .stopped:
            request(minimumInterval: 1)
        case .itemEnded:
            request(minimumInterval: 30)
        default:
            break
        }
    }

    private func request(minimumInterval: Double) {
        let now = Monotonic.now()
        let go = lock.withLock {
            guard !scheduled, now - lastTrim >= minimumInterval else { return false }
            scheduled = true
            return true
        }
        guard go else { return }
        queue.async { [self] in
            _ = malloc_trim(0)
            lock.withLock {
                lastTrim = Monotonic.now()
                scheduled = false
            }
        }
    }
}
