// The cache's files on their own: what a restart finds. Pieces logged after the last sync are read back
// and checked (a piece whose bytes did not reach the disk is dropped); pieces before a sync are trusted
// without a pass over the data. And the range set the entry decides with.

import Foundation
import Glibc
import Testing

@testable import NetCache

@Suite struct CacheFilesTests {
    private func pieces(_ files: CacheFiles, _ ranges: [Range<Int64>]) throws {
        for range in ranges {
            let bytes = [UInt8](repeating: UInt8(range.lowerBound % 251), count: range.count)
            try bytes.withUnsafeBytes { try files.write($0, at: range.lowerBound) }
        }
    }

    @Test func aRestartKeepsSyncedPiecesAndChecksTheRest() throws {
        let directory = NSTemporaryDirectory() + "queued-cachefiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let files = try CacheFiles(directory: directory, key: "k")
            try pieces(files, [0..<1000, 1000..<3000])
            files.sync()
            try pieces(files, [5000..<6000, 6000..<7000])
        }
        // Damage one byte of a synced piece and of an unsynced one, as a lost write would.
        let data = open(directory + "/k.data", O_RDWR)
        var damaged: UInt8 = 0xFF
        _ = pwrite(data, &damaged, 1, 500)
        _ = pwrite(data, &damaged, 1, 6500)
        close(data)
        let (ranges, damagedBytes) = try CacheFiles(directory: directory, key: "k").verifiedRanges()
        #expect(ranges.ranges == [0..<3000, 5000..<6000], "synced pieces trusted, the damaged unsynced one dropped")
        #expect(damagedBytes == 1000, "the damaged piece is counted")
    }

    @Test func rangesMergeAndFindTheirGaps() {
        var ranges = ByteRanges([10..<20, 30..<40])
        ranges.insert(20..<30)
        #expect(ranges.ranges == [10..<40])
        ranges.insert(50..<60)
        #expect(ranges.contiguous(from: 15) == 25)
        #expect(ranges.contiguous(from: 45) == 0)
        #expect(ranges.firstGap(below: 100) == 0)
        #expect(ranges.firstGap(from: 10, below: 100) == 40)
        #expect(!ranges.covers(length: 60))
        ranges.insert(0..<50)
        #expect(ranges.covers(length: 60) && ranges.firstGap(below: 60) == nil && ranges.count == 60)
    }
}
