// http(s) items against Debian's nginx on a loopback port: a URL plays while it downloads (the first
// picture comes before the download ends, and an MP4 with its index at the end costs one small tail
// request, not the whole file), the bytes are fetched once, a complete item replays with the server
// gone, a dead server fails its item and the queue plays on, a download cut by kill -9 resumes where it
// stopped, and hostile redirects and unknown schemes are refused. Nothing here talks beyond 127.0.0.1.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// A web site serving one clip, and a daemon caching into its own directory with a client and an event
/// watcher; stops both when released.
private final class ServedDaemon {
    let site: TemporaryDirectory
    let size: Int
    let nginx: NginxServer
    let daemon: RunningDaemon
    let client: QueueClient
    let watcher: QueueClient

    /// `downloadSeconds`: the throttle on `/slow/` (nil: nginx's default rate).
    init(clip name: String, indexAtEnd: Bool, downloadSeconds: Int? = nil, events: [EventName]) throws {
        let site = try TemporaryDirectory(prefix: "queued-site")
        let size = try NetworkItemTests.clip(in: site.path, named: name, indexAtEnd: indexAtEnd)
        self.site = site
        self.size = size
        if let downloadSeconds {
            nginx = try NginxServer(root: site.path, slowRate: size / downloadSeconds)
        } else {
            nginx = try NginxServer(root: site.path)
        }
        daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", site.path + "-cache"])
        client = try daemon.client()
        watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: events))
    }

    deinit {
        daemon.stop()
        nginx.stop()
    }
}

@Suite(.serialized) struct NetworkItemTests {
    /// A 4 s 320x240 A/V clip of about 1 MB; `indexAtEnd`: the MP4's moov after the media (ffmpeg's
    /// default), else moved to the front.
    static func clip(in directory: String, named name: String, indexAtEnd: Bool, hue: Int = 0) throws -> Int {
        let source = try Fixtures.make(
            "net-clip-\(hue)-\(indexAtEnd ? "end" : "front").mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4,hue=h=\(hue)", "-f", "lavfi", "-i",
                "sine=f=\(440 + hue):d=4", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "2M", "-c:a", "aac",
                "-shortest",
            ] + (indexAtEnd ? [] : ["-movflags", "+faststart"]))
        let target = directory + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return try NetworkFaultTests.fileSize(target)
    }

    private func ended(_ notes: [(method: String, params: JSONValue?)], _ id: Int64) -> [JSONValue] {
        notes.filter { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == id }.compactMap(\.params)
    }

    @Test func aURLPlaysWhileItDownloadsIsFetchedOnceAndReplaysOffline() throws {
        // About 4 s to download a 4 s clip: the first picture can only come early by playing what arrived.
        let served = try ServedDaemon(
            clip: "clip.mp4", indexAtEnd: true, downloadSeconds: 4, events: [.itemStarted, .itemEnded])
        let (size, nginx, daemon, client, watcher) =
            (served.size, served.nginx, served.daemon, served.client, served.watcher)
        let url = nginx.baseURL + "/slow/clip.mp4"
        let id = try #require(
            try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: url, loops: 2)])).ids.first)
        _ = try client.call(API.PlayerPlay.self, .init())

        let started = try collectNotifications(watcher, timeout: 20) {
            $0.contains { $0.method == "event.itemStarted" }
        }
        try #require(started.contains { $0.method == "event.itemStarted" }, "no itemStarted; log:\n\(daemon.log())")
        let finishedAtStart = nginx.responses().filter { $0.uri == "/slow/clip.mp4" && $0.range == "bytes=0-" }
        #expect(finishedAtStart.isEmpty, "the first picture came only after the whole file: \(finishedAtStart)")
        let tail = nginx.responses().filter { $0.uri == "/slow/clip.mp4" && $0.range != "bytes=0-" }
        #expect(
            tail.count == 1 && (tail.first?.bodyBytes ?? size) < size / 10,
            "one small tail request for the index: \(tail)")

        let notes = try collectNotifications(watcher, timeout: 30) { self.ended($0, id).count >= 2 }
        let ends = ended(notes, id)
        #expect(ends.count == 2 && ends.allSatisfy { $0["reason"]?.stringValue == "eof" }, "\(ends)\n\(daemon.log())")
        let fetched = nginx.responses().filter { $0.uri == "/slow/clip.mp4" }.reduce(0) { $0 + $1.bodyBytes }
        // What the socket buffers held when the tail was already cached may be sent twice; nothing more.
        #expect(fetched >= size && fetched <= size + 256 * 1024, "fetched \(fetched) bytes for a \(size)-byte file")
        let requestsBefore = nginx.responses().count

        // The server goes away: the cached item plays again; an uncached one fails and the queue goes on.
        nginx.stop()
        let more = try client.call(
            API.QueueAdd.self,
            .init(items: [
                RPCItemInput(uri: nginx.baseURL + "/other.mp4"), RPCItemInput(uri: url),
            ])
        ).ids
        try #require(more.count == 2)
        _ = try client.call(API.PlayerPlay.self, .init(id: more[0]))
        let offline = try collectNotifications(watcher, timeout: 30) { !self.ended($0, more[1]).isEmpty }
        let failed = ended(offline, more[0]).first
        #expect(failed?["reason"]?.stringValue == "error")
        #expect(failed?["error"]?.stringValue?.contains("cannot connect") == true, "\(String(describing: failed))")
        #expect(ended(offline, more[1]).first?["reason"]?.stringValue == "eof", "the cached item plays offline")
        #expect(nginx.responses().count == requestsBefore)
    }

    @Test func aDownloadCutByKillNineResumesWhereItStopped() throws {
        let site = try TemporaryDirectory(prefix: "queued-site")
        let size = try Self.clip(in: site.path, named: "resume.mp4", indexAtEnd: false)
        let nginx = try NginxServer(root: site.path, slowRate: size / 5)
        let cache = site.path + "-cache"
        defer { nginx.stop() }
        let url = nginx.baseURL + "/slow/resume.mp4"
        do {
            let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache])
            let client = try daemon.client()
            _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: url)]))
            _ = try client.call(API.PlayerPlay.self, .init())
            // Kill it once about 40 % is on disk (the ranges log lists what was written).
            let arrived = waitUntil(timeout: 20, pollInterval: 0.05) { Self.cachedBytes(in: cache) >= size * 2 / 5 }
            try #require(arrived, "the download did not progress; log:\n\(daemon.log())")
            daemon.process.terminate(signal: SIGKILL)
        }
        let kept = Self.cachedBytes(in: cache)
        #expect(kept < size)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemEnded]))
        let id = try #require(try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: url)])).ids.first)
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !self.ended($0, id).isEmpty }
        #expect(ended(notes, id).first?["reason"]?.stringValue == "eof", "\(daemon.log())")
        #expect(waitUntil(timeout: 10) { Self.cachedBytes(in: cache) >= size }, "the file completes")
        let responses = nginx.responses().filter { $0.uri == "/slow/resume.mp4" }
        let resumed = responses.dropFirst()
        #expect(resumed.first?.range.hasPrefix("bytes=") == true && resumed.first?.range != "bytes=0-", "\(responses)")
        let fetched = responses.reduce(0) { $0 + $1.bodyBytes }
        // The bytes nginx had handed to the socket but queued never read are fetched again; nothing else.
        #expect(fetched <= size + 256 * 1024, "fetched \(fetched) bytes for a \(size)-byte file: \(responses)")
    }

    @Test func hostileRedirectsAndUnknownSchemesAreRefused() throws {
        let served = try ServedDaemon(clip: "fine.mp4", indexAtEnd: false, events: [.itemEnded])
        let (nginx, daemon, client, watcher) = (served.nginx, served.daemon, served.client, served.watcher)
        // Schemes queued does not play are refused (HLS and DASH are streams now: StreamItemTests).
        for refused in ["ftp://127.0.0.1/a.mp4", "gopher://127.0.0.1/a", "rtsp://127.0.0.1/a b"] {
            #expect(throws: (any Error).self) {
                try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: refused)]))
            }
        }
        let ids = try client.call(
            API.QueueAdd.self,
            .init(items: [
                RPCItemInput(uri: nginx.baseURL + "/redirect-file"), RPCItemInput(uri: nginx.baseURL + "/fine.mp4"),
            ])
        ).ids
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !self.ended($0, ids[1]).isEmpty }
        let redirect = ended(notes, ids[0]).first
        #expect(redirect?["reason"]?.stringValue == "error")
        #expect(redirect?["error"]?.stringValue?.contains("redirect to file:///etc/passwd refused") == true)
        #expect(
            ended(notes, ids[1]).first?["reason"]?.stringValue == "eof",
            "the queue plays on: \(ended(notes, ids[1]))\n\(daemon.log())")
    }

    @Test func craftedFilesCannotMakeFFmpegOpenAnythingElse() throws {
        let served = try ServedDaemon(clip: "target.mp4", indexAtEnd: false, events: [.itemEnded])
        let (site, nginx, daemon, client, watcher) =
            (served.site.path, served.nginx, served.daemon, served.client, served.watcher)
        // An HLS playlist named like an MP4 (FFmpeg's probe goes by content) whose segment is a real clip on
        // the same server that no item names, and an ffconcat list beside a real clip: each would play if
        // FFmpeg could open the file it names.
        try FileManager.default.copyItem(atPath: site + "/target.mp4", toPath: site + "/segment.mp4")
        let playlist = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:0
            #EXTINF:4.0,
            \(nginx.baseURL)/segment.mp4
            #EXT-X-ENDLIST

            """
        try playlist.write(toFile: site + "/crafted-hls.mp4", atomically: true, encoding: .utf8)
        try "ffconcat version 1.0\nfile target.mp4\n".write(
            toFile: site + "/crafted-concat.mp4", atomically: true, encoding: .utf8)
        let ids = try client.call(
            API.QueueAdd.self,
            .init(items: [
                RPCItemInput(uri: nginx.baseURL + "/crafted-hls.mp4"), RPCItemInput(uri: site + "/crafted-concat.mp4"),
                RPCItemInput(uri: nginx.baseURL + "/target.mp4"),
            ])
        ).ids
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !self.ended($0, ids[2]).isEmpty }
        for id in ids.prefix(2) {
            #expect(ended(notes, id).first?["reason"]?.stringValue == "error", "\(ended(notes, id))\n\(daemon.log())")
        }
        #expect(ended(notes, ids[2]).first?["reason"]?.stringValue == "eof", "the queue plays on")
        #expect(!nginx.responses().contains { $0.uri == "/segment.mp4" }, "FFmpeg fetched the segment itself")
        #expect(nginx.responses().contains { $0.uri == "/crafted-hls.mp4" }, "the playlist itself was fetched")
    }

    /// Bytes the cache's ranges logs name (what a restart would find).
    static func cachedBytes(in directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".ranges") }.reduce(0) { total, name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
            return total
                + text.split(separator: "\n").reduce(0) {
                    $0 + (Int($1.split(separator: " ").dropFirst().first ?? "") ?? 0)
                }
        }
    }
}

/// Asking about URL items that were never fetched opens nothing: a page listing a long queue of URLs, again
/// and again, once ran the daemon out of file descriptors (each status made the URL's cache entry, which
/// kept its files open).
@Suite struct CacheStatusDescriptorTests {
    @Test func statusOfUnfetchedURLsOpensNoFiles() throws {
        let cache = try TemporaryDirectory(prefix: "queued-status-fds")
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache.path, "--prefetch", "0"])
        let client = try daemon.client()
        // Nothing listens on port 9 of the loopback: nothing is fetched; the items stay queued (not played).
        let items = (0..<500).map { RPCItemInput(uri: "http://127.0.0.1:9/never-\($0)/v.mp4") }
        let ids = try client.call(API.QueueAdd.self, .init(items: items)).ids
        func descriptors() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.pid)/fd").count
        }
        let before = try descriptors()
        for _ in 0..<3 {
            let statuses = try client.call(API.CacheStatus.self, .init(ids: ids)).items
            #expect(statuses.count == 500 && statuses.allSatisfy { $0.cache.state == "none" })
            _ = try client.call(API.QueueList.self, .init(offset: 0, limit: 500))
        }
        let after = try descriptors()
        #expect(after < before + 20, "descriptors \(before) -> \(after)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.filter { $0.hasSuffix(".data") || $0.hasSuffix(".ranges") }.count <= 2, "\(files.count) files")
    }

    /// 400 URLs downloaded ahead (the whole queue, the default): each cached, but the daemon keeps no more
    /// than about 128 of them open — it held two descriptors for every URL it had ever fetched, so a long
    /// loop of URL items ran out of descriptors under systemd's 1,024. A closed one still reads as complete,
    /// and plays.
    @Test func manyDownloadedURLsKeepOnlySomeFilesOpen() throws {
        let site = try TemporaryDirectory(prefix: "queued-many-urls")
        try Data(repeating: 0x5A, count: 2048).write(to: URL(fileURLWithPath: site.path + "/blob.bin"))
        _ = try NetworkItemTests.clip(in: site.path, named: "clip.mp4", indexAtEnd: false)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let cache = try TemporaryDirectory(prefix: "queued-many-urls-cache")
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache.path])
        defer { daemon.stop() }
        let client = try daemon.client()
        func descriptors() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.pid)/fd").count
        }
        let before = try descriptors()
        let base = "http://127.0.0.1:\(nginx.port)"
        // The clip first: it is downloaded first, so it is among the first closed.
        let items = [RPCItemInput(uri: "\(base)/clip.mp4")] + (1..<400).map { RPCItemInput(uri: "\(base)/blob.bin?copy=\($0)") }
        let ids = try client.call(API.QueueAdd.self, .init(items: items)).ids
        var states: [String] = []
        let cached = waitUntil(timeout: 120) {
            states = (try? client.call(API.CacheStatus.self, .init(ids: ids)).items.map(\.cache.state)) ?? []
            return states.count == 400 && states.allSatisfy { $0 == "complete" }
        }
        #expect(cached, "\(Dictionary(grouping: states, by: { $0 }).mapValues(\.count))")
        let after = try descriptors()
        // 128 kept, up to a quarter more before a sweep closes the oldest: 2 descriptors each.
        #expect(after < before + 2 * (128 + 32) + 40, "descriptors \(before) -> \(after) for 400 cached URLs")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.filter { $0.hasSuffix(".data") }.count >= 400, "every URL stays cached: \(files.count) files")

        // The first URL (closed long ago) opens again from its files and plays from the cache.
        nginx.stop()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded]))
        let clip = [ids[0]]
        _ = try client.call(API.PlayerPlay.self, .init())
        let ended = try collectNotifications(watcher, timeout: 30) { notes in
            notes.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == clip[0] }
        }
        let end = ended.first { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == clip[0] }
        #expect(end?.params?["reason"]?.stringValue == "eof", "\(ended)")
    }
}
