// http(s) items when the network misbehaves, through TestSupport's FaultProxy in front of Debian's nginx
// (both on 127.0.0.1 only): a stalled transfer is `buffering` (nothing skipped, commands answered at once)
// and plays on; a connection cut at 40 % resumes with Range and no byte comes twice; HTTP errors fail the
// item with a reason while the queue plays on; a server that ignores Range is still cached; a file
// changed on the server is used from the next play, never mixed; the cache cap evicts only what no queued
// item uses; a full disk (a file-size limit) fails the item, not the daemon.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct NetworkFaultTests {
    /// nginx serving a fresh site, a proxy in front of it, a daemon caching into its own directory.
    final class Rig {
        let site: TemporaryDirectory
        let cache: String
        let nginx: NginxServer
        let proxy: FaultProxy
        let daemon: RunningDaemon
        let client: QueueClient
        let watcher: QueueClient

        init(
            clips: [(name: String, hue: Int, seconds: Int)], extra: [String] = [], events: [EventName],
            launcher: [String] = []
        ) throws {
            site = try TemporaryDirectory(prefix: "queued-site")
            cache = site.path + "-cache"
            for clip in clips {
                _ = try NetworkFaultTests.clip(in: site.path, named: clip.name, hue: clip.hue, seconds: clip.seconds)
            }
            nginx = try NginxServer(root: site.path)
            proxy = try FaultProxy(upstream: nginx)
            daemon = try RunningDaemon(
                outputs: .null(untimed: false), ["--cache-dir", cache] + extra, launcher: launcher)
            client = try daemon.client()
            watcher = try daemon.client()
            _ = try watcher.call(API.EventsSubscribe.self, .init(events: events))
        }

        func url(_ name: String) -> String { proxy.baseURL + "/" + name }

        /// The size of a file the site serves.
        func size(_ name: String) throws -> Int { try NetworkFaultTests.fileSize(site.path + "/" + name) }

        func add(_ names: [String], loops: Int64 = 1) throws -> [Int64] {
            try client.call(API.QueueAdd.self, .init(items: names.map { RPCItemInput(uri: url($0), loops: loops) })).ids
        }

        deinit {
            daemon.stop()
            proxy.stop()
            nginx.stop()
        }
    }

    /// A 320x240 A/V clip with its index at the front (one transfer from byte 0 plays it); about 250 KB/s.
    static func clip(in directory: String, named name: String, hue: Int = 0, seconds: Int = 4) throws -> Int {
        let source = try Fixtures.make(
            "netfault-\(hue)-\(seconds).mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds),hue=h=\(hue)", "-f", "lavfi",
                "-i", "sine=f=\(440 + hue):d=\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "2M",
                "-c:a", "aac", "-shortest", "-movflags", "+faststart",
            ])
        let target = directory + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return try NetworkFaultTests.fileSize(target)
    }

    static func fileSize(_ path: String) throws -> Int {
        Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber ?? 0)
    }

    static func events(_ notes: [(method: String, params: JSONValue?)], _ name: String, id: Int64? = nil) -> [JSONValue]
    {
        notes.filter { $0.method == name && (id == nil || $0.params?["id"]?.intValue == id) }.compactMap(\.params)
    }

    static func ended(_ notes: [(method: String, params: JSONValue?)], _ id: Int64) -> [JSONValue] {
        events(notes, "event.itemEnded", id: id)
    }

    @Test func aStalledTransferIsBufferingAndPlaysOnWithCommandsAnswered() throws {
        let rig = try Rig(
            clips: [("stall.mp4", 0, 4)], extra: ["--net-timeout", "3"],
            events: [.buffering, .itemEnded, .status])
        let size = try rig.size("stall.mp4")
        // Throttled to about real time, so the play catches up with the download; then 6 s of nothing.
        rig.proxy.updateFaults {
            $0.throttle = size / 3
            $0.stall = .init(afterBytes: size / 2, seconds: 6)
        }
        let id = try #require(try rig.add(["stall.mp4"]).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let dry = try collectNotifications(rig.watcher, timeout: 20) {
            Self.events($0, "event.buffering", id: id).contains { $0["bufferEmpty"]?.boolValue == true }
        }
        let waits = Self.events(dry, "event.buffering", id: id)
        try #require(
            waits.contains { $0["bufferEmpty"]?.boolValue == true && $0["likelyToKeepUp"]?.boolValue == false },
            "no buffering with an empty buffer: \(waits)\n\(rig.daemon.log())")
        // The daemon answers while the play waits.
        let asked = MonotonicClock.seconds()
        let status = try rig.client.call(API.PlayerStatus.self)
        let answeredIn = MonotonicClock.seconds() - asked
        print("player.status during the stall answered in \(Int(answeredIn * 1000)) ms")
        // Answered while the play still waits on the stalled download (still buffering): a command that waited
        // for the download would have come back after the stall, no longer buffering. How fast is a figure.
        #expect(status.buffering && status.state == "playing", "a command waited on the stalled download: \(status)")
        let rest = try collectNotifications(rig.watcher, timeout: 30) { !Self.ended($0, id).isEmpty }
        #expect(
            Self.events(rest, "event.buffering", id: id).contains { $0["likelyToKeepUp"]?.boolValue == true },
            "buffering never ended")
        let end = Self.ended(rest, id).first
        #expect(
            end?["reason"]?.stringValue == "eof",
            "plays through after the stall: \(String(describing: end))\n\(rig.daemon.log())")
        let exchanges = rig.proxy.exchanges().filter { $0.path == "/stall.mp4" }
        #expect(exchanges.contains { $0.stalled }, "the proxy stalled: \(exchanges)")
        let fetched = exchanges.reduce(0) { $0 + $1.bodyBytes }
        #expect(fetched <= size + 256 * 1024, "fetched \(fetched) for \(size)")
    }

    @Test func aConnectionCutAtFortyPercentResumesWithRangeAndNothingTwice() throws {
        let rig = try Rig(clips: [("cut.mp4", 30, 4)], events: [.itemEnded, .cacheError, .cacheComplete])
        let size = try rig.size("cut.mp4")
        rig.proxy.cut(afterBytes: size * 2 / 5)
        let id = try #require(try rig.add(["cut.mp4"]).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(rig.watcher, timeout: 30) {
            !Self.ended($0, id).isEmpty && !Self.events($0, "event.cacheComplete", id: id).isEmpty
        }
        #expect(Self.ended(notes, id).first?["reason"]?.stringValue == "eof", "\(rig.daemon.log())")
        #expect(!Self.events(notes, "event.cacheError", id: id).isEmpty, "the cut was reported")
        let exchanges = rig.proxy.exchanges().filter { $0.path == "/cut.mp4" && $0.method == "GET" }
        #expect(exchanges.first?.cut == true)
        #expect(
            exchanges.dropFirst().first?.range == "bytes=\(size * 2 / 5)-", "resumed where it was cut: \(exchanges)")
        let fetched = exchanges.reduce(0) { $0 + $1.bodyBytes }
        #expect(fetched == size, "the server sent \(fetched) bytes for a \(size)-byte file: \(exchanges)")
        let status = try rig.client.call(API.CacheStatus.self, .init(ids: [id]))
        #expect(status.items.first?.cache.state == "complete" && status.items.first?.cache.bytes == Int64(size))
    }

    @Test func httpErrorsFailTheItemWithAReasonAndTheQueuePlaysOn() throws {
        let rig = try Rig(
            clips: [("a.mp4", 0, 2), ("b.mp4", 60, 2)], events: [.itemEnded, .itemLoading, .cacheError])
        rig.proxy.updateFaults { $0.status = 500 }
        let ids = try rig.add(["a.mp4"])
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let failed = try collectNotifications(rig.watcher, timeout: 20) { !Self.ended($0, ids[0]).isEmpty }
        let end = Self.ended(failed, ids[0]).first
        #expect(end?["reason"]?.stringValue == "error")
        #expect(end?["error"]?.stringValue?.contains("HTTP 500") == true, "\(String(describing: end))")
        #expect(Self.events(failed, "event.itemLoading", id: ids[0]).contains { $0["status"]?.stringValue == "failed" })
        #expect(
            Self.events(failed, "event.cacheError", id: ids[0]).contains {
                $0["reason"]?.stringValue?.contains("500") == true
            })
        // The server recovers; a missing file fails with 404 and the next item plays.
        rig.proxy.clearFaults()
        let more = try rig.add(["missing.mp4", "b.mp4"])
        _ = try rig.client.call(API.PlayerPlay.self, .init(id: more[0]))
        let notes = try collectNotifications(rig.watcher, timeout: 20) { !Self.ended($0, more[1]).isEmpty }
        #expect(Self.ended(notes, more[0]).first?["error"]?.stringValue?.contains("HTTP 404") == true)
        #expect(Self.ended(notes, more[1]).first?["reason"]?.stringValue == "eof", "\(rig.daemon.log())")
    }

    @Test func aServerThatIgnoresRangeIsReadFromTheStartAndCached() throws {
        let rig = try Rig(clips: [("plain.mp4", 90, 2)], events: [.itemEnded, .cacheComplete])
        rig.proxy.updateFaults { $0.ignoreRange = true }
        let id = try #require(try rig.add(["plain.mp4"], loops: 2).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(rig.watcher, timeout: 30) { Self.ended($0, id).count >= 2 }
        #expect(Self.ended(notes, id).map { $0["reason"]?.stringValue } == ["eof", "eof"], "\(rig.daemon.log())")
        let exchanges = rig.proxy.exchanges().filter { $0.path == "/plain.mp4" && $0.method == "GET" }
        #expect(exchanges.allSatisfy { $0.status == 200 }, "\(exchanges)")
        let item = try rig.client.call(API.QueueGet.self, .init(ids: [id])).items.first
        #expect(item?.cache?.state == "complete", "\(String(describing: item))")
    }

    @Test func aFileChangedOnTheServerIsUsedFromTheNextPlayNeverMixed() throws {
        let rig = try Rig(
            clips: [("loop.mp4", 0, 3)], extra: ["--revalidate", "0"], events: [.itemEnded, .cacheComplete])
        let id = try #require(try rig.add(["loop.mp4"]).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let first = try collectNotifications(rig.watcher, timeout: 30) {
            !Self.ended($0, id).isEmpty && !Self.events($0, "event.cacheComplete", id: id).isEmpty
        }
        try #require(Self.ended(first, id).first?["reason"]?.stringValue == "eof", "\(rig.daemon.log())")
        // A new version: another picture, tone and length.
        let newSize = try Self.clip(in: rig.site.path, named: "loop.mp4", hue: 120, seconds: 2)
        let served = try Data(contentsOf: URL(fileURLWithPath: rig.site.path + "/loop.mp4"))
        _ = try rig.client.call(API.CacheRevalidate.self, .init(ids: [id]))
        let replaced = try collectNotifications(rig.watcher, timeout: 30) {
            !Self.events($0, "event.cacheComplete", id: id).isEmpty
        }
        try #require(!replaced.isEmpty, "the new version was not fetched: \(rig.daemon.log())")
        let status = try rig.client.call(API.CacheStatus.self, .init(ids: [id])).items.first?.cache
        #expect(status?.state == "complete" && status?.length == Int64(newSize), "\(String(describing: status))")
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: rig.cache).filter {
            $0.hasSuffix(".data") && !$0.contains(".next")
        }
        #expect(dataFiles.count == 1)
        let cached = try Data(contentsOf: URL(fileURLWithPath: rig.cache + "/" + (dataFiles.first ?? "")))
        let same = cached == served  // a Bool: Testing would diff two mismatched Data byte by byte
        #expect(same, "the cached file is exactly the new version (\(cached.count) bytes, \(served.count) served)")
        // The next play is the new version: its length.
        _ = try rig.client.call(API.PlayerPlay.self, .init(id: id))
        let second = try collectNotifications(rig.watcher, timeout: 30) { !Self.ended($0, id).isEmpty }
        #expect(Self.ended(second, id).first?["reason"]?.stringValue == "eof")
        let duration = try rig.client.call(API.QueueGet.self, .init(ids: [id])).items.first?.duration ?? 0
        #expect(abs(duration - 2) < 0.3, "the second play is the 2 s version: \(duration)")
    }

    @Test func theCacheCapEvictsOnlyWhatNoQueuedItemUses() throws {
        let rig = try Rig(
            clips: [("one.mp4", 0, 2), ("two.mp4", 60, 2)], extra: ["--cache-size", "100K"],
            events: [.itemEnded, .cacheComplete])
        let first = try #require(try rig.add(["one.mp4"]).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(rig.watcher, timeout: 30) {
            !Self.ended($0, first).isEmpty && !Self.events($0, "event.cacheComplete", id: first).isEmpty
        }
        // Over the cap, but queued: kept.
        #expect(try rig.client.call(API.CacheStatus.self, .init(ids: [first])).items.first?.cache.state == "complete")
        _ = try rig.client.call(API.QueueRemove.self, .init(ids: [first]))
        let second = try #require(try rig.add(["two.mp4"]).first)
        _ = try rig.client.call(API.PlayerPlay.self, .init(id: second))
        _ = try collectNotifications(rig.watcher, timeout: 30) {
            !Self.ended($0, second).isEmpty && !Self.events($0, "event.cacheComplete", id: second).isEmpty
        }
        let evicted = waitUntil(timeout: 10) {
            let usage = try? rig.client.call(API.CacheUsage.self)
            return usage.map { $0.bytes == $0.pinned } ?? false
        }
        let usage = try rig.client.call(API.CacheUsage.self)
        #expect(evicted, "the unqueued file was evicted: \(usage)\n\(rig.daemon.log())")
        // (Seen once on an idle run: pinned 0 here while the item's status said complete — the message carries
        // what the cache then held, for the next time.)
        let secondStatus = try rig.client.call(API.CacheStatus.self, .init(ids: [second])).items.first?.cache
        #expect(
            usage.cap == 100 * 1024 && usage.pinned > 0,
            "\(usage); the queued item's entry: \(String(describing: secondStatus)); files: \((try? FileManager.default.contentsOfDirectory(atPath: rig.cache)) ?? [])\n\(rig.daemon.log())")
        #expect(secondStatus?.state == "complete")
    }

    @Test func aFullDiskFailsTheItemNotTheDaemon() throws {
        // A file-size limit of 300 KB (about a third of the clip): the cache's write fails with EFBIG.
        let rig = try Rig(
            clips: [("big.mp4", 0, 4)], events: [.itemEnded, .cacheError],
            launcher: ["prlimit", "--fsize=300000", "--"])
        let ids = try rig.add(["big.mp4"])
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(rig.watcher, timeout: 30) { !Self.ended($0, ids[0]).isEmpty }
        let end = Self.ended(notes, ids[0]).first
        #expect(end?["reason"]?.stringValue == "error", "\(String(describing: end))\n\(rig.daemon.log())")
        #expect(end?["error"]?.stringValue?.contains("File too large") == true, "\(String(describing: end))")
        #expect(rig.daemon.process.isRunning)
        #expect(try rig.client.call(API.PlayerStatus.self).state != "", "the daemon still answers")
    }
}
