// queuectl's scripting commands: the pure formatter and playlist writer, then `current`, `wait`, `crop`
// and `save` → `add` against the real daemon.

import Foundation
import QueueClient
import QueueRPC
import QueuectlPresentation
import TestSupport
import Testing

@Suite struct CurrentLineAndPlaylistTests {
    @Test func currentLineFillsPlaceholders() {
        let status = PlayerStatusView(
            state: "playing", currentId: 7, position: 75.5, duration: 130, play: 2,
            volume: 80, title: nil, uri: "/srv/a b/lobby.mp4", loops: 0)
        #expect(CurrentLine.render(CurrentLine.defaultFormat, status: status) == "7 lobby.mp4 1:15/2:10")
        #expect(
            CurrentLine.render(
                "{state} {{#{id}}} play {play}/{loops} {positionSeconds}s of {durationSeconds}s {volume}% {uri}",
                status: status)
                == "playing {#7} play 2/∞ 75.5s of 130s 80% /srv/a b/lobby.mp4")
        #expect(CurrentLine.render("{id}", status: PlayerStatusView()) == nil, "nothing current: no line")
        #expect(CurrentLine.problem(in: "{id} {nope}")?.contains("unknown placeholder {nope}") == true)
        #expect(CurrentLine.problem(in: "{id") != nil)
        #expect(CurrentLine.problem(in: "{{ {title} }}") == nil)
    }

    @Test func playlistKeepsTitlesLoopsWindowsAndTrackEnds() {
        var clip = QueueItemView(
            id: 3, uri: "/srv/clip.mp4", title: "Clip, the first\nline two", loops: 0, duration: 12.5)
        clip.start = 1.5
        clip.end = 9
        clip.trackEnd = "shortest"
        let plain = QueueItemView(id: 4, uri: "/srv/tone.flac")
        #expect(
            ExtendedM3U.render([clip, plain]) == """
                #EXTM3U
                #EXTINF:12.5,Clip, the first line two
                #EXTVLCOPT:start-time=1.5
                #EXTVLCOPT:stop-time=9
                #EXTQUEUED:loops=0
                #EXTQUEUED:track-end=shortest
                /srv/clip.mp4
                #EXTINF:-1,
                /srv/tone.flac

                """)
    }
}

@Suite(.serialized) struct QueuectlScriptingTests {
    @Test func currentWaitCropAndSaveAgainstTheDaemon() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let tone = try Fixtures.tone(frequency: 440, seconds: 6, format: .wav)
        let clip = try Fixtures.video(seconds: 2, fps: 25, hue: .green, withAudio: .aacMP4)
        let still = try Fixtures.still(hue: .red, format: .png)
        func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            try daemon.queuectl(arguments)
        }
        let control = try daemon.client()
        let added = try control.call(
            "queue.add",
            [
                "items": [
                    ["uri": .string(tone), "title": "Tone, long", "loops": 3], ["uri": .string(clip)],
                    ["uri": .string(still), "title": "Still", "loops": 0, "trackEnd": "longest"],
                    ["uri": .string(clip), "start": 0.5, "end": 1.5],
                ]
            ])
        let ids = added["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
        try #require(ids.count == 4)

        // current: nothing before playing; then the formatted line.
        #expect(try ctl("current") == (0, "", ""))
        #expect(try ctl("current", "--format", "{bogus}").status == 2)

        // wait: a timeout is exit 4; a match prints the event and exits 0.
        let timedOut = try ctl("wait", "itemStarted", "--timeout", "0.3")
        #expect(timedOut.status == 4 && timedOut.stderr.contains("no itemStarted"), "\(timedOut)")
        _ = try control.call("player.play")
        let waiter = try ChildProcess(
            BuiltProduct.path("queuectl"),
            ["--socket", daemon.socket, "--json", "wait", "itemStarted", "--id", String(ids[0]), "--timeout", "20"],
            stdoutPath: daemon.directory.path + "/wait.out")
        // Only events after it subscribed count, and that moment is not visible from here: start the item
        // again (each start is an itemStarted) until the waiter has seen one. Bounded.
        var starts = 0
        while waiter.isRunning && starts < 40 {
            _ = try control.call("player.play", ["id": .int(ids[0])])
            _ = try waitUntil(timeout: 0.5) { !waiter.isRunning }
            starts += 1
        }
        #expect(waiter.wait() == 0)
        let waited = try JSON.parse(
            (try? String(contentsOfFile: daemon.directory.path + "/wait.out", encoding: .utf8)) ?? "")
        #expect(waited["method"]?.stringValue == "event.itemStarted")
        #expect(waited["params"]?["id"]?.intValue == ids[0])

        let line = try ctl("current", "--format", "{id}|{title}|{play}/{loops}|{state}")
        #expect(line.stdout == "\(ids[0])|Tone, long|1/3|playing\n", "\(line)")

        // save → clear → add: the same uris, titles, loop counts and order.
        let playlist = daemon.directory.path + "/saved.m3u8"
        #expect(try ctl("save", playlist).status == 0)
        let before = try control.call("queue.list")["items"]?.arrayValue ?? []
        // crop: every other item goes, the current one plays on (no itemEnded for it).
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemEnded", "itemStarted"]])
        let cropped = try ctl("crop")
        #expect(cropped.status == 0 && cropped.stdout.contains("removed 3 items"), "\(cropped)")
        let left = try control.call("queue.list")["items"]?.arrayValue?.compactMap { $0["id"]?.intValue }
        #expect(left == [ids[0]])
        let events = try collectNotifications(watcher, timeout: 1.5) { _ in false }
        #expect(!events.contains { $0.method == "event.itemEnded" }, "crop interrupted the current item: \(events)")
        #expect(try control.call("player.status")["currentId"]?.intValue == ids[0])

        _ = try control.call("queue.clear")
        #expect(try ctl("add", playlist).status == 0)
        let after = try control.call("queue.list")["items"]?.arrayValue ?? []
        func shape(_ items: [JSONValue]) -> [String] {
            items.map { item in
                ["uri", "title", "loops", "start", "end", "trackEnd"].map { key in
                    item[key].map { JSON.string($0) } ?? "?"
                }.joined(separator: " ")
            }
        }
        #expect(shape(after) == shape(before), "\(shape(after)) vs \(shape(before))")
    }

    /// A stream's play time and options are the item's: `queue.list` shows them and `queuectl save` keeps
    /// them, so a saved queue added back plays its camera as long, on the same program, at the same latency.
    @Test func aStreamsDurationAndOptionsSurviveSaveAndAddBack() throws {
        let daemon = try RunningDaemon(outputs: .null(untimed: true))
        defer { daemon.stop() }
        let control = try daemon.client()
        // Never played (the port has no sender): only the items are compared.
        _ = try control.call(
            "queue.add",
            [
                "items": [
                    [
                        "uri": "udp://127.0.0.1:5999", "duration": 600, "onStall": "black", "program": 2,
                        "latency": 2.5,
                    ],
                    ["uri": "srt://127.0.0.1:6001?mode=caller", "onStall": "skip"],
                ]
            ])
        let keys = ["uri", "duration", "onStall", "program", "latency"]
        func shape(_ items: [JSONValue]) -> [String] {
            items.map { item in keys.map { item[$0].map { JSON.string($0) } ?? "?" }.joined(separator: " ") }
        }
        let before = try control.call("queue.list")["items"]?.arrayValue ?? []
        let camera = try #require(before.first)
        #expect(camera["duration"]?.doubleValue == 600 && camera["onStall"]?.stringValue == "black", "\(camera)")
        #expect(camera["program"]?.intValue == 2 && camera["latency"]?.doubleValue == 2.5, "\(camera)")
        #expect(before.count == 2 && before[1]["onStall"]?.stringValue == "skip" && before[1]["latency"]?.isNull == true)
        let playlist = daemon.directory.path + "/streams.m3u8"
        let saved = try daemon.queuectl(["save", playlist])
        #expect(saved.status == 0, "\(saved)")
        let text = (try? String(contentsOfFile: playlist, encoding: .utf8)) ?? ""
        #expect(text.contains("#EXTQUEUED:duration=600\n#EXTQUEUED:on-stall=black\n#EXTQUEUED:program=2\n#EXTQUEUED:latency=2.5\nudp://"), "\(text)")
        _ = try control.call("queue.clear")
        let added = try daemon.queuectl(["add", playlist])
        #expect(added.status == 0, "\(added)")
        let after = try control.call("queue.list")["items"]?.arrayValue ?? []
        #expect(shape(after) == shape(before), "\(shape(after)) vs \(shape(before))")
    }
}
