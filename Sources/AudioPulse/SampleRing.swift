// A fixed-capacity FIFO of Float samples between the decode thread (`append`) and the stream's write
// callback (`consume`). Not thread-safe by itself: PulseAudioSink guards it with the mainloop lock.
// Samples go out exactly as they came in; the ring never pads, so it can never insert silence.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct SampleRing {
    private var storage: [Float]
    /// Index of the oldest sample.
    private var head = 0
    /// Samples stored.
    private(set) var count = 0

    init(capacity: Int) {
        storage = [Float](repeating: 0, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var free: Int { storage.count - count }
    var isEmpty: Bool { count == 0 }

    /// Appends `samples[range]`; the caller makes sure `range.count <= free`.
    mutating func append(_ samples: [Float], _ range: Range<Int>) {
        precondition(range.count <= free, "SampleRing overflow")
        var source = range.lowerBound
        var tail = (head + count) % storage.count
        storage.withUnsafeMutableBufferPointer { ring in
            samples.withUnsafeBufferPointer { input in
                while source < range.upperBound {
                    let n = min(range.upperBound - source, ring.count - tail)
                    ring.baseAddress!.advanced(by: tail)
                        .update(from: input.baseAddress!.advanced(by: source), count: n)
                    source += n
                    tail = (tail + n) % ring.count
                }
            }
        }
        count += range.count
    }

    /// Removes the oldest `n` samples (at most `count`), handing them to `body` in one or two contiguous
    /// pieces, oldest first, each with its offset into the `n` samples.
    mutating func consume(_ n: Int, _ body: (UnsafeBufferPointer<Float>, Int) -> Void) {
        let n = min(n, count)
        storage.withUnsafeBufferPointer { ring in
            let first = min(n, ring.count - head)
            body(UnsafeBufferPointer(rebasing: ring[head..<head + first]), 0)
            if first < n { body(UnsafeBufferPointer(rebasing: ring[0..<n - first]), first) }
        }
        head = (head + n) % storage.count
        count -= n
    }

    /// Removes the newest `n` samples (at most `count`): written, never sent.
    mutating func removeNewest(_ n: Int) {
        count -= min(n, count)
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}

/// Float → signed 16-bit as `clamp(lrintf(x * 32768 * gain))`: a sample k/32768 comes back as k exactly
/// when gain is 1, so 16-bit sources stay bit-exact (PulseAudio's own conversion scales by 0x7FFF).
/// Called on whatever thread pushes to the server, with the mainloop lock held.
enum S16Converter {
    static func convert(
        _ source: UnsafeBufferPointer<Float>, gain: Float, into destination: UnsafeMutablePointer<Int16>
    ) {
        let scale = 32768 * gain
        for i in 0..<source.count {
            // Clamped before rounding (the same result for finite values): lrintf of ±inf or NaN is undefined.
            var value = source[i] * scale
            if !(value >= -32768) { value = value.isNaN ? 0 : -32768 } else if value > 32767 { value = 32767 }
            destination[i] = Int16(truncatingIfNeeded: lrintf(value))
        }
    }
}
