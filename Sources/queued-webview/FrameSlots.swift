// Two frame slots in a file the daemon maps too: the page paints into a free slot, the daemon copies it out
// and gives the slot back ("done"). Two slots let the next frame be painted while the last one is read.
// Main loop thread only.

import Glibc

final class FrameSlots {
    let slotBytes: Int
    private let base: UnsafeMutableRawPointer
    private(set) var busy = [false, false]

    /// Creates (or truncates) `path` to hold two frames of `width`×`height` ARGB pixels.
    init?(path: String, width: Int, height: Int) {
        slotBytes = width * height * 4
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(slotBytes * 2)) == 0,
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
