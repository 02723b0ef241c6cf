// Two frame slots in a file the daemon maps too: the page paints into a free slot, the daemon copies it out
// and gives the slot back ("done"). Two slots let the next frame be painted while the last one is read.
// Main loop thread only.

import Glibc

final class FrameSlots {
    let slotBytes: Int
    private let base: UnsafeMutableRawPointer
    private(set) var busy = [false, false]

    /// Maps `path`, which the daemon made to hold two frames of `width`×`height` ARGB pixels (it never
    /// changes size under the daemon's own mapping).
    init?(path: String, width: Int, height: Int) {
        slotBytes = width * height * 4
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) >= slotBytes * 2,
            let mapped = mmap(nil, slotBytes * 2, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            mapped != MAP_FAILED
        else { return nil }
        base = mapped
    }

    deinit { munmap(base, slotBytes * 2) }

    var freeSlot: Int? { busy.firstIndex(of: false) }

    /// Copies a frame into `slot` row by row (its rows packed: 4 × width bytes). False when it does not fit.
    func fill(_ slot: Int, pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        let row = width * 4
        guard row * height <= slotBytes, stride >= row else { return false }
        let target = base + slot * slotBytes
        for line in 0..<height {
            (target + line * row).copyMemory(from: pixels + line * stride, byteCount: row)
        }
        busy[slot] = true
        return true
    }

    func release(_ slot: Int) {
        guard busy.indices.contains(slot) else { return }
        busy[slot] = false
    }
}
