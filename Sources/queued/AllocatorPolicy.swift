// Process-wide allocator policy for a daemon that runs for months. Run once at start-up by `QueuedCommand`.
//
// glibc serves an allocation from mmap only above a threshold that it raises, by default, to the size of
// every large block freed (up to 32 MiB). One damaged file claiming a huge picture (a PNG header saying
// 160x32888) thus moves every later multi-megabyte buffer (decoder frame pools, big packets) onto the
// heap, where fragmentation keeps it resident after the item ends: the media fuzz test saw RSS climb by
// ~40 MB and stay there. A fixed threshold keeps big buffers on mmap, returned to the system on free.

import CMalloc

enum AllocatorPolicy {
    /// Blocks of this size and above are mmapped and unmapped on free. Small enough for a 720p picture
    /// plane, large enough that ordinary packets and audio chunks stay on the heap.
    static let mmapThreshold: Int32 = 1 << 20

    static func apply() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
    }
}
