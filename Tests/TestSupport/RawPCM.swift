// Conversions between raw s16le bytes (what parec records and `ffmpeg -f s16le` writes) and
// interleaved [Int16] samples. A bulk copy, because recordings are millions of samples and tests
// run unoptimised debug builds.

import Foundation

public enum RawPCM {
    /// Interleaved samples from s16le bytes; a trailing partial frame is dropped.
    public static func samples(from data: Data, channels: Int = 2) -> [Int16] {
        let count = (data.count / (2 * channels)) * channels
        var samples = [Int16](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { destination in
            data.withUnsafeBytes { source in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<count * 2]))
            }
        }
        // s16le on a big-endian host would need swapping; Linux on x86-64/arm64 is little-endian.
        if 1.littleEndian != 1 { return samples.map { Int16(littleEndian: $0) } }
        return samples
    }

    /// Reads a raw s16le file (empty if it does not exist).
    public static func read(_ path: String, channels: Int = 2) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return samples(from: data, channels: channels)
    }

    /// s16le bytes for samples, e.g. to feed a sink or write a reference file.
    public static func data(from samples: [Int16]) -> Data {
        samples.map { $0.littleEndian }.withUnsafeBytes { Data($0) }
    }
}
