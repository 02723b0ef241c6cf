// What the cache keeps is what the server sent, against Debian's nginx on 127.0.0.1: a cached file whose
// bytes were damaged on disk behind the daemon's back is read back at its first play after a restart,
// and only the damaged pieces are fetched again; an item carrying a `sha256` makes its file complete only
// when it matches — a mismatch is fetched again once, then the item fails with both digests and the
// queue plays on, with no third download.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct NetworkIntegrityTests {
    @Test func aDamagedCachedFileIsFetchedAgainWhereItIsDamaged() throws {
        let site = try TemporaryDirectory(prefix: "queued-site")
        let size = try NetworkFaultTests.clip(in: site.path, named: "kept.mp4", seconds: 4)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let cache = site.path + "-cache"
        let url = nginx.baseURL + "/kept.mp4"
        do {
            let daemon = try RunningDaemon(outputs: .null(untimed: true), ["--cache-dir", cache])
            defer { daemon.stop() }
            let client = try daemon.client()
            _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: url)]))
            _ = try client.call(API.PlayerPlay.self, .init())
            let complete = waitUntil(timeout: 30) { NetworkItemTests.cachedBytes(in: cache) >= size }
            try #require(complete, "the file was not cached; log:\n\(daemon.log())")
        }
        let requestsBefore = nginx.responses().count

        // 64 KiB in the middle of the cached data go bad, behind the daemon's back.
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        let dataPath = cache + "/" + (try #require(names.first { $0.hasSuffix(".data") }))
        let damageAt = size / 2
        let handle = try #require(FileHandle(forWritingAtPath: dataPath))
        try handle.seek(toOffset: UInt64(damageAt))
        handle.write(Data(repeating: 0x5A, count: 64 << 10))
        try handle.close()

        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemEnded, .cacheComplete]))
        let id = try #require(try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: url)])).ids.first)
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) {
            !NetworkFaultTests.ended($0, id).isEmpty && !NetworkFaultTests.events($0, "event.cacheComplete").isEmpty
        }
        #expect(NetworkFaultTests.ended(notes, id).first?["reason"]?.stringValue == "eof", "\(daemon.log())")
        #expect(!NetworkFaultTests.events(notes, "event.cacheComplete", id: id).isEmpty)

        // (A HEAD revalidating the file at its first play after start-up carries no Range.)
        let again = nginx.responses().dropFirst(requestsBefore).filter { $0.range.hasPrefix("bytes=") }
        #expect(again.count == 1, "one request for the damaged pieces: \(Array(again))")
        let start = again.first.flatMap { Int($0.range.dropFirst("bytes=".count).prefix { $0.isNumber }) }
        #expect(
            start.map { $0 > 0 && $0 <= damageAt && damageAt - $0 < 1 << 20 } == true,
            "asked from the damaged piece on: \(Array(again))")
        let cached = try Data(contentsOf: URL(fileURLWithPath: dataPath))
        let original = try Data(contentsOf: URL(fileURLWithPath: site.path + "/kept.mp4"))
        let same = cached == original
        #expect(same, "the cached file is the server's again")
        #expect(daemon.log().contains("no longer match their checksum"), "\(daemon.log())")
    }

    @Test func aFileIsCompleteOnlyWithTheDigestItsItemCarries() throws {
        let rig = try NetworkFaultTests.Rig(
            clips: [("right.mp4", 0, 2), ("wrong.mp4", 120, 2)],
            events: [.itemEnded, .cacheComplete, .cacheError])
        let size = try rig.size("wrong.mp4")
        let rightDigest = try Self.sha256(of: rig.site.path + "/right.mp4")
        let wrongDigest = String(repeating: "0f", count: 32)
        let ids = try rig.client.call(
            API.QueueAdd.self,
            .init(items: [
                RPCItemInput(uri: rig.url("right.mp4"), sha256: rightDigest.uppercased()),
                RPCItemInput(uri: rig.url("wrong.mp4"), sha256: wrongDigest),
            ])
        ).ids
        try #require(ids.count == 2)
        #expect(
            throws: (any Error).self, "a digest that is not 64 hex digits is refused",
            performing: {
                try rig.client.call(
                    API.QueueAdd.self, .init(items: [RPCItemInput(uri: rig.url("right.mp4"), sha256: "12ab")]))
            })

        // Queued, the files download at once: the wrong one is downloaded, found wrong, downloaded again,
        // found wrong again, and refused.
        let notes = try collectNotifications(rig.watcher, timeout: 40) { notes in
            let errors = NetworkFaultTests.events(notes, "event.cacheError", id: ids[1])
            return errors.count >= 2 && !NetworkFaultTests.events(notes, "event.cacheComplete", id: ids[0]).isEmpty
        }
        let errors = NetworkFaultTests.events(notes, "event.cacheError", id: ids[1]).compactMap {
            $0["reason"]?.stringValue
        }
        try #require(errors.count >= 2, "\(errors)\n\(rig.daemon.log())")
        #expect(errors[0].contains("sha256 mismatch") && errors[0].contains("fetching it again"), "\(errors)")
        #expect(errors[1].contains("sha256 mismatch") && !errors[1].contains("fetching it again"), "\(errors)")
        #expect(NetworkFaultTests.events(notes, "event.cacheComplete", id: ids[1]).isEmpty)

        let items = try rig.client.call(API.QueueList.self, .init()).items
        #expect(items.first { $0.id == ids[0] }?.cache?.state == "complete")
        #expect(items.first { $0.id == ids[0] }?.sha256 == rightDigest, "stored lowercase")
        let refused = items.first { $0.id == ids[1] }?.cache
        #expect(
            refused?.state == "error" && refused?.error?.contains(wrongDigest) == true, "\(String(describing: refused))"
        )
        let wrongBytes = { rig.nginx.responses().filter { $0.uri == "/wrong.mp4" }.reduce(0) { $0 + $1.bodyBytes } }
        #expect(wrongBytes() >= 2 * size && wrongBytes() <= 2 * size + 512 * 1024, "\(wrongBytes()) for \(size)")
        let before = wrongBytes()

        // Played: the right one plays, the wrong one fails with the reason and nothing is downloaded again.
        _ = try rig.client.call(API.PlayerPlay.self, .init())
        let played = try collectNotifications(rig.watcher, timeout: 20) { !NetworkFaultTests.ended($0, ids[1]).isEmpty }
        #expect(NetworkFaultTests.ended(played, ids[0]).first?["reason"]?.stringValue == "eof")
        let failure = NetworkFaultTests.ended(played, ids[1]).first
        #expect(failure?["reason"]?.stringValue == "error")
        #expect(failure?["error"]?.stringValue?.contains("sha256 mismatch") == true, "\(played)\n\(rig.daemon.log())")
        #expect(wrongBytes() == before)
    }

    /// What a fleet bridge relies on before it swaps a queue: `cache.fetch` with digests says `complete`
    /// only for a file that matches, and `error` with both digests for one that never does.
    @Test func cacheFetchWithDigestsIsCompleteOnlyWhenTheFileMatches() throws {
        let rig = try NetworkFaultTests.Rig(clips: [("right.mp4", 0, 2), ("wrong.mp4", 120, 2)], events: [.itemEnded])
        let rightDigest = try Self.sha256(of: rig.site.path + "/right.mp4")
        let wrongDigest = String(repeating: "0f", count: 32)
        let uris = [rig.url("right.mp4"), rig.url("wrong.mp4")]
        let params = API.CacheFetch.Params(uris: uris, sha256: [uris[0]: rightDigest.uppercased(), uris[1]: wrongDigest])
        var states: [String: [String]] = [:]
        var last: API.CacheFetch.Result?
        let settled = try waitUntil(timeout: 40, pollInterval: 0.05) {
            let result = try rig.client.call(API.CacheFetch.self, params)
            last = result
            for item in result.items where states[item.uri]?.last != item.cache.state {
                states[item.uri, default: []].append(item.cache.state)
            }
            return result.items[0].cache.state == "complete" && result.items[1].cache.state == "error"
        }
        #expect(settled, "\(String(describing: last))\n\(rig.daemon.log())")
        #expect(!(states[uris[1]] ?? []).contains("complete"), "the wrong file is never called complete: \(states)")
        #expect(last?.items[1].cache.error?.contains(wrongDigest) == true, "\(String(describing: last))")
        #expect(try rig.client.call(API.QueueList.self, .init()).items.isEmpty, "nothing was queued")
        #expect(
            throws: (any Error).self, "a digest for a URL not asked for is refused",
            performing: {
                try rig.client.call(API.CacheFetch.self, .init(uris: [uris[0]], sha256: [uris[1]: wrongDigest]))
            })
    }

    /// `sha256sum` of a file (coreutils), lowercase hex.
    static func sha256(of path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output.prefix(64), as: UTF8.self)
    }
}
