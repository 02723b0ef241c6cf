// The byte ranges of a file that are present in the cache: sorted, disjoint, half-open, adjacent ones
// merged. A value type owned by its CacheEntry (under the entry's lock).

public struct ByteRanges: Sendable, Equatable {
    /// Sorted by start; no two overlap or touch.
    public private(set) var ranges: [Range<Int64>] = []

    public init() {}

    public init(_ ranges: [Range<Int64>]) {
        for range in ranges { insert(range) }
    }

    /// Bytes present in total.
    public var count: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    public mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var merged = range
        var kept: [Range<Int64>] = []
        kept.reserveCapacity(ranges.count + 1)
        for existing in ranges {
            if existing.upperBound < merged.lowerBound || existing.lowerBound > merged.upperBound {
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        let index = kept.firstIndex { $0.lowerBound > merged.lowerBound } ?? kept.count
        kept.insert(merged, at: index)
        ranges = kept
    }

    /// How many bytes are present from `offset` on without a gap (0: `offset` is missing).
    public func contiguous(from offset: Int64) -> Int64 {
        guard let range = ranges.first(where: { $0.contains(offset) }) else { return 0 }
        return range.upperBound - offset
    }

    /// Whether every byte of `0..<length` is present.
    public func covers(length: Int64) -> Bool {
        length == 0 || (ranges.first.map { $0.lowerBound == 0 && $0.upperBound >= length } ?? false)
    }

    /// The first missing byte at or after `offset`, below `length`; nil when none is missing.
    public func firstGap(from offset: Int64 = 0, below length: Int64) -> Int64? {
        var candidate = offset
        for range in ranges where range.upperBound > candidate {
            if range.lowerBound > candidate { break }
            candidate = range.upperBound
        }
        return candidate < length ? candidate : nil
    }

    /// The bytes present in both.
    public func intersection(_ other: ByteRanges) -> ByteRanges {
        var result = ByteRanges()
        for mine in ranges {
            for theirs in other.ranges where theirs.lowerBound < mine.upperBound && mine.lowerBound < theirs.upperBound
            {
                result.insert(max(mine.lowerBound, theirs.lowerBound)..<min(mine.upperBound, theirs.upperBound))
            }
        }
        return result
    }
}
