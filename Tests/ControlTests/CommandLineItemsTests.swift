// The daemon's command line queues what queue.add would: `queued DIR list.m3u8` plays the directory's media
// files in natural order (not its hidden files, text files or playlists) and then the playlist's entries,
// relative ones resolved against the playlist and titled by #EXTINF.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite struct CommandLineItemsTests {
    @Test func directoriesAndPlaylistsOnTheCommandLineExpandLikeQueueAdd() throws {
        let root = try TemporaryDirectory(prefix: "queued-cli-items")
        let music = root.path + "/music"
        let lists = root.path + "/lists"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: lists + "/jingles", withIntermediateDirectories: true)
        let tone = try Fixtures.make("cli-tone-1s.wav", ["-f", "lavfi", "-i", "sine=f=440:d=1"])
        for name in ["track10.wav", "track2.wav", "track1.wav", ".hidden.wav"] {
            try FileManager.default.copyItem(atPath: tone, toPath: music + "/" + name)
        }
        try FileManager.default.copyItem(atPath: tone, toPath: lists + "/jingles/morning.wav")
        try FileManager.default.copyItem(atPath: tone, toPath: lists + "/noon.wav")
        try "notes".write(toFile: music + "/notes.txt", atomically: true, encoding: .utf8)
        try "#EXTM3U\n".write(toFile: music + "/all.m3u", atomically: true, encoding: .utf8)
        let playlist = """
            #EXTM3U
            #EXTINF:1,Morning jingle
            jingles/morning.wav
            #EXTINF:1,Noon
            \(lists)/noon.wav

            """
        try playlist.write(toFile: lists + "/day.m3u8", atomically: true, encoding: .utf8)

        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--loops", "2", music, lists + "/day.m3u8"])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemEnded]))
        let items = try client.call(API.QueueList.self, .init()).items
        #expect(
            items.map(\.uri) == [
                music + "/track1.wav", music + "/track2.wav", music + "/track10.wav", lists + "/jingles/morning.wav",
                lists + "/noon.wav",
            ], "\(items.map(\.uri))\n\(daemon.log())")
        #expect(items.map(\.title) == [nil, nil, nil, "Morning jingle", "Noon"])

        // They play, in that order, on the second pass too.
        let ids = items.map(\.id)
        let notes = try collectNotifications(watcher, timeout: 30) { notes in
            let ended = notes.filter { $0.method == "event.itemEnded" }
            return ended.count >= ids.count && ended.last?.params?["id"]?.intValue == ids.last
        }
        let ended = notes.filter { $0.method == "event.itemEnded" }.compactMap(\.params)
        let lastPass = Array(ended.suffix(ids.count))
        #expect(lastPass.compactMap { $0["id"]?.intValue } == ids, "\(ended)")
        #expect(lastPass.allSatisfy { $0["reason"]?.stringValue == "eof" }, "\(ended)\n\(daemon.log())")
    }
}
