// Damaged media through the real daemon: thousands of seeded mutations of our own fixtures of every kind,
// played untimed (as fast as they decode) and a few hundred in real time on the null outputs. For every
// item the event rule holds (EventRuleChecker), no item takes long, and at the end the daemon is alive
// with the descriptors it had and without having grown. The counts are printed for the closing note.
// QUEUED_FUZZ_COUNT and QUEUED_FUZZ_SEED change the size and the seed (a failure names its seed).

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct MediaFuzzTests {
    struct Case {
        let seed: UInt64
        let kind: String
        let path: String
        let mutations: [MediaMutation]
    }

    struct Report {
        var items = 0
        var eof = 0
        var error = 0
        var seconds = 0.0
        var slowest: (took: Double, description: String) = (0, "")
        var residentBefore = 0
        var residentAfter = 0
        var descriptorsBefore = 0
        var descriptorsAfter = 0
    }

    static var baseSeed: UInt64 {
        ProcessInfo.processInfo.environment["QUEUED_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0xF0CC_5EED
    }

    static func count(_ standard: Int) -> Int {
        ProcessInfo.processInfo.environment["QUEUED_FUZZ_COUNT"].flatMap { Int($0) } ?? standard
    }

    @Test func fiveThousandDamagedFilesUntimed() throws {
        let report = try run(count: Self.count(5000), untimed: true, batchSize: 500, seedOffset: 0, itemLimit: 30)
        #expect(report.items >= Self.count(5000))
    }

    @Test func oneHundredTwentyDamagedFilesInRealTime() throws {
        let report = try run(
            count: max(120, Self.count(5000) / 40), untimed: false, batchSize: 120, seedOffset: 1 << 32, itemLimit: 30)
        #expect(report.items >= 120)
    }

    /// Plays `count` mutated files in batches (each added, played through, cleared), checking the rule on
    /// the event stream. `itemLimit`: the most seconds any one item may take.
    func run(count: Int, untimed: Bool, batchSize: Int, seedOffset: UInt64, itemLimit: Double) throws -> Report {
        let seeds = try Fixtures.fuzzSeeds()
        let originals = try seeds.map { seed -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: seed.path) else {
                throw TestSupportError.io("cannot read \(seed.path)")
            }
            return Array(data)
        }
        let daemon = try RunningDaemon(
            outputs: .null(untimed: untimed), ["--still-duration", "0.1"], logLevel: "warning")
        defer { daemon.stop() }
        let control = try daemon.client(timeout: 30)
        let watcher = try daemon.client(timeout: 30)
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        let files = try TemporaryDirectory(prefix: "queued-fuzz")

        var report = Report()
        let started = Date()
        var next = 0
        var batchNumber = 0
        while next < count {
            let cases = (next..<min(count, next + batchSize)).map { index -> Case in
                let seed = Self.baseSeed &+ seedOffset &+ UInt64(index)
                let which = index % seeds.count
                let (bytes, mutations) = MediaMutator.mutate(originals[which], seed: seed)
                let ext = (seeds[which].path as NSString).pathExtension
                let path = "\(files.path)/\(index)-\(seeds[which].kind).\(ext)"
                FileManager.default.createFile(atPath: path, contents: Data(bytes))
                return Case(seed: seed, kind: seeds[which].kind, path: path, mutations: mutations)
            }
            next += cases.count
            let added = try control.call("queue.add", ["items": .array(cases.map { .string($0.path) })])
            let ids = added["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
            try #require(ids.count == cases.count)
            let caseFor = Dictionary(uniqueKeysWithValues: zip(ids, cases))
            func describe(_ id: Int64?) -> String {
                guard let id, let found = caseFor[id] else { return "item \(id.map(String.init) ?? "?")" }
                return
                    "item \(id) (\(found.kind), seed \(found.seed): \(found.mutations.map(\.description).joined(separator: ", ")))"
            }

            var checker = EventRuleChecker(order: ids)
            _ = try control.call("player.play")
            while !checker.allEnded {
                guard let note = try watcher.nextNotification(timeout: itemLimit) else {
                    Issue.record("no event for \(itemLimit) s: stuck on \(describe(checker.waitingFor))")
                    break
                }
                checker.observe(note.method, note.params)
            }
            for violation in checker.violations { Issue.record("\(violation)") }
            #expect(checker.violations.isEmpty, "event rule broken (first: \(checker.violations.first ?? ""))")
            for ended in checker.ended {
                report.items += 1
                if ended.reason == "eof" { report.eof += 1 } else if ended.reason == "error" { report.error += 1 }
                if ended.took > report.slowest.took {
                    report.slowest = (
                        ended.took, "\(describe(ended.id)) → \(ended.reason)\(ended.error.map { ": " + $0 } ?? "")"
                    )
                }
                #expect(ended.took < itemLimit, "\(describe(ended.id)) took \(ended.took) s")
            }
            _ = try control.call("queue.clear")
            for found in cases { unlink(found.path) }
            // Measured after the first batch (warm-up: allocator arenas, codec tables) and after the last.
            if batchNumber == 0 {
                report.residentBefore = daemon.residentBytes
                report.descriptorsBefore = daemon.descriptorCount
            }
            batchNumber += 1
            if checker.violations.count > 20 || !checker.allEnded { break }
        }
        report.seconds = Date().timeIntervalSince(started)
        report.residentAfter = daemon.residentBytes
        report.descriptorsAfter = daemon.descriptorCount
        let info = try control.call("daemon.info")
        print(
            """
            media fuzz \(untimed ? "untimed" : "real time") (seed \(Self.baseSeed &+ seedOffset)): \(report.items) items, \
            \(report.eof) eof, \(report.error) error in \(String(format: "%.1f", report.seconds)) s \
            (\(String(format: "%.1f", Double(report.items) / report.seconds)) items/s); RSS \(report.residentBefore / 1024) KiB \
            -> \(report.residentAfter / 1024) KiB, fds \(report.descriptorsBefore) -> \(report.descriptorsAfter); \
            slowest \(String(format: "%.2f", report.slowest.took)) s: \(report.slowest.description)
            """)
        #expect(daemon.isRunning)
        #expect(info["pid"]?.intValue == Int64(daemon.process.pid))
        #expect(report.descriptorsAfter == report.descriptorsBefore)
        #expect(report.residentAfter - report.residentBefore < 10 * 1024 * 1024)
        return report
    }
}
