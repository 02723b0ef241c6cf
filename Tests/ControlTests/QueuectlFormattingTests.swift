// The pure parts of QueueClient that queuectl prints with: durations and seek positions, the `ls` table,
// the status block, `watch` lines, lenient decoding of items and statuses, socket-path precedence,
// and the expansion of `add` arguments into absolute paths.

import Glibc
import MediaPaths
import QueueClient
import QueueRPC
import QueuectlPresentation
import TestSupport
import Testing

@Suite("queuectl formatting and argument helpers")
struct QueuectlFormattingTests {
    @Test func clockFormat() {
        #expect(DurationFormat.clock(0) == "0:00")
        #expect(DurationFormat.clock(42) == "0:42")
        #expect(DurationFormat.clock(130.9) == "2:10")
        #expect(DurationFormat.clock(599.99) == "9:59")
        #expect(DurationFormat.clock(3723) == "1:02:03")
        #expect(DurationFormat.clock(-5) == "-0:05")
        #expect(DurationFormat.clock(.nan) == "-:--")
        #expect(DurationFormat.loops(0) == "∞")
        #expect(DurationFormat.loops(3) == "3")
    }

    @Test func clockParsing() {
        #expect(DurationFormat.parse("42") == 42)
        #expect(DurationFormat.parse("42.5") == 42.5)
        #expect(DurationFormat.parse("1:30") == 90)
        #expect(DurationFormat.parse("0:05.5") == 5.5)
        #expect(DurationFormat.parse("1:02:03") == 3723)
        #expect(DurationFormat.parse("90:00") == 5400)
        for bad in ["", "abc", "1:75", "1:60:00", "1:", ":30", "-5", "1.2.3", "1:2:3:4", ".5", "5."] {
            #expect(DurationFormat.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func decimals() {
        #expect(DurationFormat.decimal(1, maxFractionDigits: 2, minFractionDigits: 1) == "1.0")
        #expect(DurationFormat.decimal(1.25) == "1.25")
        #expect(DurationFormat.decimal(0.5) == "0.5")
        #expect(DurationFormat.decimal(10) == "10")
        #expect(DurationFormat.decimal(-0.75) == "-0.75")
        #expect(DurationFormat.seconds(0.3) == "0.3")
    }

    @Test func seekTargets() {
        #expect(SeekTarget("42") == SeekTarget(seconds: 42, relative: false))
        #expect(SeekTarget("1:30") == SeekTarget(seconds: 90, relative: false))
        #expect(SeekTarget("+10") == SeekTarget(seconds: 10, relative: true))
        #expect(SeekTarget("-1:00") == SeekTarget(seconds: -60, relative: true))
        #expect(SeekTarget("+") == nil)
        #expect(SeekTarget("--5") == nil)
        #expect(SeekTarget("x") == nil)
        #expect(SeekTarget("-10")?.params.json == ["position": -10.0, "relative": true])
        #expect(SeekTarget("5")?.params.json == ["position": 5.0])
    }

    @Test func socketPathPrecedence() throws {
        let all = ["QUEUED_SOCKET": "/env.sock", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(try SocketPath.resolve(explicit: "/explicit.sock", environment: all) == "/explicit.sock")
        #expect(try SocketPath.resolve(explicit: nil, environment: all) == "/env.sock")
        #expect(try SocketPath.resolve(explicit: "", environment: all) == "/env.sock")
        #expect(
            try SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
                == "/run/user/1000/queued/queued.sock")
        #expect(
            try SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"])
                == "/run/user/1000/queued/queued.sock")
        #expect(
            try SocketPath.resolve(explicit: nil, environment: ["QUEUED_SOCKET": "", "XDG_RUNTIME_DIR": "/r"])
                == "/r/queued/queued.sock")
        #expect {
            _ = try SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": ""])
        } throws: { error in
            guard error is SocketPathError else { return false }
            let message = String(describing: error)
            return message.contains("--socket") && message.contains("QUEUED_SOCKET")
                && message.contains("XDG_RUNTIME_DIR")
        }
    }

    static let items = [
        QueueItemView(id: 1, uri: "/media/intro.mp4", loops: 1, plays: 1, duration: 12.5, state: "played"),
        QueueItemView(id: 3, uri: "/media/clip.mp4", loops: 0, plays: 1, duration: 130.2, state: "playing"),
        QueueItemView(id: 4, uri: "file:///media/My%20Song.flac", title: "Song", loops: 3, duration: 3725),
        QueueItemView(id: 12, uri: "file:///media/broken%20file.mp4", state: "failed", error: "not media"),
    ]

    /// With an http(s) item in the queue, `ls` shows how much of it is cached.
    @Test func queueTableCacheColumn() {
        let items = [
            QueueItemView(id: 1, uri: "/srv/a.mp4", duration: 12),
            QueueItemView(
                id: 2, uri: "http://127.0.0.1/b.mp4", duration: 30,
                cache: RPCCacheStatus(state: "partial", bytes: 250, length: 1000)),
            QueueItemView(
                id: 3, uri: "http://127.0.0.1/c.mp4", cache: RPCCacheStatus(state: "complete", bytes: 9, length: 9)),
        ]
        let lines = QueueTable.render(items, currentId: nil).split(separator: "\n").map(String.init)
        #expect(lines[0].contains("LENGTH  CACHE  TITLE"), "\(lines)")
        #expect(lines[1].contains(" -  ") && lines[2].contains("25%") && lines[3].contains("✓"), "\(lines)")
        #expect(QueueTable.cacheCell(RPCCacheStatus(state: "error", error: "HTTP 404")) == "error")
        #expect(!QueueTable.render([items[0]], currentId: nil).contains("CACHE"), "no column without http(s) items")
    }

    @Test func queueTable() {
        let expected = """
              ID  STATE    PLAYS   LENGTH  TITLE
               1  played     1/1     0:12  intro.mp4
            ▶  3  playing    1/∞     2:10  clip.mp4
               4  queued     0/3  1:02:05  Song
              12  failed     0/1        -  broken file.mp4  (not media)
            """
        #expect(QueueTable.render(Self.items, currentId: 3) == expected)
        #expect(QueueTable.render([], currentId: nil) == "queue is empty")
        #expect(!QueueTable.render(Self.items, currentId: nil).contains(QueueTable.currentMarker))
    }

    @Test func statusBlock() {
        let status = PlayerStatusView(
            state: "playing", currentId: 3, position: 42.7, duration: 130.2, play: 2,
            volume: 80, rate: 1, queueLoops: 0)
        #expect(
            StatusBlock.render(status, item: Self.items[1], barWidth: 20) == """
                [playing] #3 clip.mp4 (play 2 of ∞)
                0:42/2:10 (32%)  [######--------------]
                volume: 80%  loop: forever  rate: 1.0
                """)
        // Without the item (not found) only the id; unknown duration: no percentage, no bar.
        let live = PlayerStatusView(
            state: "paused", currentId: 7, position: 61, muted: true, rate: 1.25,
            queueLoops: 3, error: "boom")
        #expect(
            StatusBlock.render(live, item: nil) == """
                [paused] #7
                1:01
                volume: 100% (muted)  loop: 3  rate: 1.25
                error: boom
                """)
        #expect(StatusBlock.render(PlayerStatusView(), item: nil) == "[idle]\nvolume: 100%  loop: off  rate: 1.0")
        #expect(StatusBlock.bar(0.5, width: 10) == "[#####-----]")
        #expect(StatusBlock.bar(2, width: 4) == "[####]")
        #expect(StatusBlock.bar(.nan, width: 4) == "[----]")
    }

    @Test func eventLines() {
        func line(_ method: String, _ params: JSONValue?) -> String {
            EventLine.render(method: method, params: params, clock: "12:00:01")
        }
        #expect(line("event.itemStarted", ["id": 3, "play": 2, "at": 1.5]) == "12:00:01 itemStarted #3 play 2")
        #expect(
            line("event.itemEnded", ["id": 3, "play": 2, "reason": "eof", "error": nil])
                == "12:00:01 itemEnded #3 play 2 eof")
        #expect(
            line("event.itemEnded", ["id": 5, "play": 1, "reason": "error", "error": "x.mp4: bad"])
                == "12:00:01 itemEnded #5 play 1 error: x.mp4: bad")
        #expect(
            line("event.progress", ["id": 3, "position": 42.2, "duration": 130, "play": 1])
                == "12:00:01 progress #3 0:42/2:10 play 1")
        #expect(line("event.queueChanged", ["version": 8]) == "12:00:01 queueChanged version 8")
        #expect(
            line("event.itemStalled", ["id": 4, "play": 1, "reason": "no data for 5 s"])
                == "12:00:01 itemStalled #4 play 1: no data for 5 s")
        #expect(line("event.itemResumed", ["id": 4, "play": 1, "after": 3.24]) == "12:00:01 itemResumed #4 play 1 back after 3.2 s")
        #expect(
            line(
                "event.status",
                [
                    "state": "playing", "currentId": 3, "position": 1, "duration": nil,
                    "volume": 80, "muted": true,
                ])
                == "12:00:01 status playing #3 0:01 volume 80% muted")
        #expect(
            line("event.status", ["state": "idle", "currentId": nil, "volume": 50])
                == "12:00:01 status idle volume 50%")
        #expect(line("event.somethingNew", ["a": 1]) == #"12:00:01 somethingNew {"a":1}"#)
        #expect(line("event.bare", nil) == "12:00:01 bare")
    }

    @Test func wallClockIsHoursMinutesSeconds() {
        let text = WallClock.localTime(WallClock.now())
        #expect(text.count == 8 && text.filter { $0 == ":" }.count == 2)
    }

    @Test func lenientDecoding() throws {
        let item = try #require(
            QueueItemView(json: [
                "id": 4, "uri": "/a/b.mp3", "title": nil, "loops": 0, "plays": 2, "start": nil, "end": nil,
                "duration": 3.5, "state": "playing", "error": nil, "somethingNew": true,
            ]))
        #expect(item == QueueItemView(id: 4, uri: "/a/b.mp3", loops: 0, plays: 2, duration: 3.5, state: "playing"))
        #expect(item.displayName == "b.mp3")
        #expect(QueueItemView(json: ["uri": "/a"]) == nil)
        #expect(QueueItemView(json: ["id": 1, "uri": "/a", "title": ""])?.displayName == "a")

        let status = try #require(
            PlayerStatusView(json: [
                "state": "paused", "currentId": 2, "position": 1.5, "duration": nil, "play": 1, "volume": 30,
                "muted": false, "rate": 2.0, "fit": "fill", "fullscreen": true, "queueLoops": 0, "queueVersion": 9,
                "error": nil,
            ]))
        #expect(
            status
                == PlayerStatusView(
                    state: "paused", currentId: 2, position: 1.5, play: 1, volume: 30,
                    rate: 2, queueLoops: 0, fit: "fill", fullscreen: true, queueVersion: 9))
        #expect(PlayerStatusView(json: ["volume": 3]) == nil)
    }

    @Test func theDisplayLineSaysWhatTheScreenDoesAndUntilWhen() {
        let clock: (Double) -> String = { "t\(Int($0))" }
        #expect(DisplayLine.render(RPCDisplay(), clock: clock) == "display: on (schedule)")
        #expect(
            DisplayLine.render(RPCDisplay(power: "off", source: "schedule", nextChange: 7), clock: clock)
                == "display: off (schedule; on at t7)")
        #expect(
            DisplayLine.render(RPCDisplay(power: "on", source: "manual", nextChange: 9, error: "display on: no TV"), clock: clock)
                == "display: on (manual until t9) — display on: no TV")
        #expect(!DisplayLine.isWorthAStatusLine(RPCDisplay()))
        let live = RPCStatus(state: "playing", stream: RPCStreamStatus(live: true, stalls: 2, down: true))
        #expect(StatusBlock.render(live, item: nil).hasSuffix("\nstream: live, 2 drops — down, reconnecting"))
        let onDemand = RPCStatus(state: "playing", stream: RPCStreamStatus(live: false, stalls: 0, down: false))
        #expect(StatusBlock.render(onDemand, item: nil).hasSuffix("\nstream: on demand"))
        let measured = RPCStatus(
            state: "playing", stream: RPCStreamStatus(live: true, stalls: 1, down: false, bitrate: 2_456_789, latency: 1.26))
        #expect(StatusBlock.render(measured, item: nil).hasSuffix("\nstream: live, 2.4 Mbit/s, 1.3 s behind, 1 drop"))
        let paced = RPCStatus(
            state: "playing",
            stream: RPCStreamStatus(live: true, stalls: 0, down: false, bitrate: 900_000, latency: 0.41, pace: 0.995))
        #expect(StatusBlock.render(paced, item: nil).hasSuffix("\nstream: live, 900 kbit/s, 0.4 s behind, playing 0.5 % slower"))
        let dark = RPCStatus(state: "playing", display: RPCDisplay(power: "off"))
        #expect(StatusBlock.render(dark, item: nil).hasSuffix("\ndisplay: off (schedule)"))
    }

    /// The server encodes and the client decodes the same type: a value survives the round trip whole.
    @Test func wireShapesRoundTrip() {
        let status = RPCStatus(
            state: "playing", currentId: 8, position: 12.5, duration: 30, play: 2, volume: 80, muted: true,
            rate: 1.25, queueLoops: 0, error: "x", title: "Lobby", uri: "/srv/lobby.mp4", loops: 0,
            fit: "fill", fullscreen: true, rotate: 270, queueVersion: 14, droppedFrames: 3, buffering: true,
            waitingForSchedule: true, startsAt: 1_795_000_000.25, stream: RPCStreamStatus(live: true, stalls: 2, down: true),
            web: RPCWebStatus(loaded: true, url: "http://127.0.0.1:9/board", title: "Board"),
            display: RPCDisplay(power: "off", source: "manual", nextChange: 1_795_003_600, error: "display off: x"))
        #expect(RPCStatus(json: status.json) == status)
        let item = RPCQueueItem(
            id: 9, uri: "/srv/a.mp4", title: "A", loops: 0, plays: 2, duration: 8, state: "failed",
            error: "broken", start: 1, end: 5, trackEnd: "longest", sha256: String(repeating: "a", count: 64),
            cache: RPCCacheStatus(state: "partial", bytes: 10, length: 20, error: nil),
            schedule: RPCSchedule(days: ["mon", "fri"], from: "09:00", until: "17:00", start: "2026-12-01"),
            inWindow: false, nextWindow: 1_795_000_000, width: 1080, height: 1920, onStall: "black", program: 2,
            latency: 2.5, web: RPCWebOptions(reload: "keep", zoom: 1.5, viewport: (800, 600), interval: 60, loadTimeout: 5))
        #expect(RPCQueueItem(json: item.json) == item)
        #expect(
            status.json.objectValue?.count == 27 && item.json.objectValue?.count == 25,
            "every key of the schema, always")
    }

    @Test func absolutePaths() {
        #expect(MediaPaths.absolute("a/../b.mp4", cwd: "/x/y") == "/x/y/b.mp4")
        #expect(MediaPaths.absolute("./c.mp4", cwd: "/x/") == "/x/c.mp4")
        #expect(MediaPaths.absolute("/abs/./c//d.mp4", cwd: "/x") == "/abs/c/d.mp4")
        #expect(MediaPaths.absolute("../../../e", cwd: "/x") == "/e")
        #expect(MediaPaths.fileExtension("A.MP4") == "mp4")
        #expect(MediaPaths.fileExtension(".hidden") == "")
        #expect(MediaPaths.isPlaylist("/a/list.M3U8"))
    }

    @Test func addArgumentExpansion() throws {
        let directory = try TemporaryDirectory(prefix: "queuectl-add")
        let media = directory.file("media")
        try makeDirectory(media)
        try makeDirectory(media + "/sub")
        for name in ["10.mp4", "2.mp4", "1.flac", "Cover.PNG", "notes.txt", ".hidden.mp3", "list.m3u", "sub/x.mp4"] {
            try touch(media + "/" + name)
        }
        #expect(
            try MediaPaths.mediaFiles(in: media) == ["1.flac", "2.mp4", "10.mp4", "Cover.PNG"].map { media + "/" + $0 })
        // Relative to the cwd; a directory expands in place; a playlist and URLs pass through.
        let uris = try MediaPaths.expand(
            ["media/sub", "media/list.m3u", "file:///x.mp4", "http://127.0.0.1/a.mp3"],
            cwd: directory.path)
        #expect(uris == [media + "/sub/x.mp4", media + "/list.m3u", "file:///x.mp4", "http://127.0.0.1/a.mp3"])
        #expect(throws: MediaPathError.noMediaFiles(directory: "empty")) {
            try makeDirectory(directory.file("empty"))
            _ = try MediaPaths.expand(["empty"], cwd: directory.path)
        }
        #expect {
            _ = try MediaPaths.expand(["missing.mp4"], cwd: directory.path)
        } throws: { error in
            guard case .notFound(let path, _) = error as? MediaPathError else { return false }
            return path == "missing.mp4"
        }
    }

    private func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw TestSupportError.io("mkdir \(path)") }
    }

    private func touch(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw TestSupportError.io("create \(path)") }
        close(fd)
    }
}
