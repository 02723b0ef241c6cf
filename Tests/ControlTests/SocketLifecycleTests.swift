// The socket file's life: a second daemon on a live socket exits with a clear message and leaves the
// first alone; a stale socket left by a killed daemon is replaced; playlists and file:// URLs expand.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct SocketLifecycleTests {
    @Test func liveSocketsAreKeptAndStaleOnesReplaced() throws {
        let first = try RunningDaemon([], video: false)
        defer { first.stop() }
        let second = try ChildProcess.run(
            BuiltProduct.path("queued"), ["--socket", first.socket, "--audio", "null", "--video", "none", "--no-state"], timeout: 30)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already running"), "\(second.stderr)")
        #expect(try first.client().call("player.status")["state"] != nil, "the first daemon is untouched")

        // A daemon killed outright leaves its socket file behind; the next one replaces it.
        kill(first.process.pid, SIGKILL)
        _ = first.process.wait()
        var info = stat()
        #expect(lstat(first.socket, &info) == 0, "the stale socket file is still there")
        let log = first.directory.path + "/third.log"
        let third = try ChildProcess(
            BuiltProduct.path("queued"), ["--socket", first.socket, "--audio", "null", "--video", "none", "--no-state"],
            stderrPath: log)
        defer { _ = third.terminate() }
        #expect(
            try waitUntil(timeout: 30, pollInterval: 0.02) {
                (try? QueueClient(socketPath: first.socket, timeout: 2)) != nil
            })
        #expect(try QueueClient(socketPath: first.socket).call("daemon.info")["pid"]?.intValue == Int64(third.pid))
        #expect(third.terminate() == 0, "SIGTERM shuts the daemon down cleanly")
        #expect(lstat(first.socket, &info) != 0, "a clean shutdown removes the socket file")
    }

    @Test func playlistsAndFileURLsExpand() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let folder = daemon.directory.path + "/media dir"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        try FileManager.default.copyItem(atPath: tone, toPath: folder + "/a.wav")
        let playlist = folder + "/list.m3u8"
        try
            "#EXTM3U\n#EXTINF:1,First tone\na.wav\n\n\(tone)\n#EXTINF:-1,Third\nfile://\(folder.replacingOccurrences(of: " ", with: "%20"))/a.wav\n"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let client = try daemon.client()
        let ids = try client.call("queue.add", ["items": [.string(playlist)]])["ids"]?.arrayValue ?? []
        #expect(ids.count == 3)
        let items = try client.call("queue.list")["items"]?.arrayValue ?? []
        #expect(items.map { $0["title"]?.stringValue } == ["First tone", nil, "Third"])
        #expect(items.map { $0["uri"]?.stringValue } == [folder + "/a.wav", tone, folder + "/a.wav"])
        let url = try client.call(
            "queue.add", ["items": [.string("file://" + folder.replacingOccurrences(of: " ", with: "%20") + "/a.wav")]])
        #expect(url["ids"]?.arrayValue?.count == 1)
    }
}
