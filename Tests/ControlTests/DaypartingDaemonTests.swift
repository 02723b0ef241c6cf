// Dayparting through the real daemon (null outputs, TZ=UTC so the test knows the box's local time):
// `schedule` on queue.add is checked field by field, a closed item is skipped with `event.itemSkipped`
// while an open one plays, queue.list says which are in their window and when the next window opens,
// queue.update changes or clears a schedule, `queuectl add --days/--from` and `queuectl save` carry it
// through a playlist, and schedules survive a restart. Every message is checked against the OpenRPC
// document. Windows are placed hours around the current UTC time, so the test needs no waiting.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct DaypartingDaemonTests {
    /// "HH:MM" in UTC, `hours` from now.
    static func clock(hoursFromNow hours: Double, now: Double) -> String {
        let minutes = Int(((now + hours * 3600) / 60).rounded(.down)) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    @Test func schedulesSkipListPersistAndTravelThroughPlaylists() throws {
        let state = try TemporaryDirectory(prefix: "queued-daypart-state")
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
        let now = Date().timeIntervalSince1970
        let openWindow: JSONValue = [
            "from": .string(Self.clock(hoursFromNow: -2, now: now)),
            "until": .string(Self.clock(hoursFromNow: 2, now: now)),
        ]
        let closedFrom = Self.clock(hoursFromNow: 3, now: now)
        let closedWindow: JSONValue = [
            "from": .string(closedFrom), "until": .string(Self.clock(hoursFromNow: 4, now: now)),
        ]
        let transcript = Transcript()
        var closedID: Int64 = 0
        do {
            let daemon = try RunningDaemon(
                outputs: .null(untimed: false), ["--state-dir", state.path], environment: ["TZ": "UTC"])
            defer { daemon.stop() }
            let control = RecordingClient(try daemon.client(), transcript)
            let watcher = RecordingClient(try daemon.client(), transcript)
            _ = try watcher.call("events.subscribe", ["events": ["itemSkipped", "itemStarted"]])

            // Bad schedules: each refused, naming the field.
            let bad: [(JSONValue, String)] = [
                (["from": "25:00"], "items[0].schedule.from"), (["days": ["funday"]], "items[0].schedule.days"),
                (["start": "2026-02-30"], "items[0].schedule.start"),
                (["start": "2026-12-02", "end": "2026-12-01"], "items[0].schedule.end"),
                (["at": "noon"], "items[0].schedule.at"), ("weekdays", "items[0].schedule"),
            ]
            for (schedule, param) in bad {
                let error = control.failure("queue.add", ["items": [["uri": .string(tone), "schedule": schedule]]])
                #expect(error?.code == -32602, "\(schedule)")
                #expect(error?.data?["param"]?.stringValue == param, "\(String(describing: error))")
            }

            let added = try control.call(
                "queue.add",
                [
                    "items": [
                        ["uri": .string(tone), "title": "closed", "schedule": closedWindow],
                        ["uri": .string(tone), "title": "open", "schedule": openWindow],
                    ]
                ])
            let idList = added["ids"]?.arrayValue?.compactMap(\.intValue)
            let ids = try #require(idList)
            closedID = ids[0]
            _ = try control.call("player.play")
            let seen = try watcher.notifications(timeout: 20) { notes in
                notes.contains { $0.method == "event.itemStarted" }
            }
            let skip = seen.first { $0.method == "event.itemSkipped" }
            #expect(skip?.params?["id"]?.intValue == ids[0] && skip?.params?["reason"]?.stringValue == "schedule")
            #expect(seen.first { $0.method == "event.itemStarted" }?.params?["id"]?.intValue == ids[1])

            let listed = try #require(try control.call("queue.list")["items"]?.arrayValue)
            #expect(listed[0]["inWindow"]?.boolValue == false && listed[0]["state"]?.stringValue == "queued")
            #expect(listed[0]["schedule"]?["from"]?.stringValue == closedFrom)
            // The next opening is `from` today or tomorrow: three hours from now, to the minute.
            let expected = (now / 60).rounded(.down) * 60 + 3 * 3600
            let next = try #require(listed[0]["nextWindow"]?.doubleValue)
            #expect(abs(next - expected) < 61, "next window \(next), expected about \(expected)")
            #expect(listed[1]["inWindow"]?.boolValue == true && listed[1]["nextWindow"]?.isNull == true)

            // queue.update: null lets the open item always play; a new schedule replaces the old.
            let cleared = try control.call("queue.update", ["id": .int(ids[1]), "schedule": .null])
            #expect(cleared["item"]?["schedule"]?.isNull == true && cleared["item"]?["inWindow"]?.boolValue == true)
            let weekends = try control.call(
                "queue.update", ["id": .int(ids[1]), "schedule": ["days": ["sun", "sat"]]])
            #expect(weekends["item"]?["schedule"]?["days"] == ["sat", "sun"])
            #expect(
                control.failure("queue.update", ["id": .int(ids[1]), "schedule": ["until": "7:00"]])?.code == -32602)

            // queuectl: options in, a playlist out and back in.
            let directory = try TemporaryDirectory(prefix: "queued-daypart-list")
            let queuectlAdd = try daemon.queuectl(
                ["add", "--days", "mon,fri", "--from", "09:00", "--until", "17:30", "--end-date", "2027-01-31", tone])
            #expect(queuectlAdd.status == 0, "\(queuectlAdd.stderr)")
            let playlist = directory.path + "/saved.m3u"
            let save = try daemon.queuectl(["save", playlist])
            #expect(save.status == 0, "\(save.stderr)")
            let text = try String(contentsOfFile: playlist, encoding: .utf8)
            #expect(text.contains("#EXTQUEUED:schedule=days=mon,fri;from=09:00;until=17:30;end=2027-01-31"), "\(text)")
            let again = try control.call("queue.add", ["items": [.string(playlist)]])
            let againList = again["ids"]?.arrayValue?.compactMap(\.intValue)
            let againIDs = try #require(againList)
            let reread = try #require(
                try control.call("queue.get", ["ids": .array(againIDs.map(JSONValue.int))])["items"]?.arrayValue)
            let original = try #require(try control.call("queue.list")["items"]?.arrayValue)
            #expect(reread.map { $0["schedule"] } == original.prefix(reread.count).map { $0["schedule"] })
            let table = try daemon.queuectl(["ls"])
            #expect(
                table.stdout.contains("SCHEDULE") && table.stdout.contains("closed \(closedFrom)-"), "\(table.stdout)")
        }
        // After a restart the schedules are still there.
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", state.path], environment: ["TZ": "UTC"])
        defer { daemon.stop() }
        let control = RecordingClient(try daemon.client(), transcript)
        let restored = try #require(try control.call("queue.list")["items"]?.arrayValue)
        #expect(restored.first?["id"]?.intValue == closedID)
        #expect(restored.first?["schedule"]?["from"]?.stringValue == closedFrom)
        #expect(restored[1]["schedule"]?["days"] == ["sat", "sun"])

        let directory = try TemporaryDirectory()
        let validation = try validateTranscript(transcript, in: directory.path)
        if validation.failed != 0 { print(validation.output) }
        #expect(validation.failed == 0)
        #expect(validation.passed > 10)
    }
}
