// Transitions and moving stills through the real daemon's control surface: set per item (queue.add, a playlist tag,
// `queuectl add --transition`, queue.update), reported in queue.list, kept across a kill -9 and restart,
// written back by `queuectl save`; bad values refused with the field named. A crossfade on the daemon's
// clock: the events of the two overlapping plays in order, and proof-of-play records that overlap by the
// crossfade. (What a fade or crossfade looks and sounds like is FadeTests' and CrossfadeTests', through the
// engine on SDL's offscreen output and a capture sink.)

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct TransitionDaemonTests {
    @Test func setEverywhereReportedKeptAndSavedBadValuesRefused() throws {
        let state = try TemporaryDirectory(prefix: "queued-transition-state")
        let scratch = try TemporaryDirectory(prefix: "queued-transition")
        let still = try Fixtures.make(
            "transition-still.png", ["-f", "lavfi", "-i", "color=c=red:s=64x48:d=1", "-frames:v", "1", "-update", "1"])
        let playlist = scratch.file("list.m3u")
        try "#EXTM3U\n#EXTQUEUED:transition=dip:0.8:#FF8800\n#EXTQUEUED:motion=0,0,1,1>0.25,0.2,0.5,0.5\n\(still)\n".write(
            toFile: playlist, atomically: true, encoding: .utf8)
        var ids: [Int64] = []
        do {
            let daemon = try RunningDaemon(
                outputs: .null(untimed: false), ["--state-dir", state.path, "--transition", "fade:2"])
            let client = try daemon.client()
            ids += try client.call(
                API.QueueAdd.self,
                .init(items: [
                    RPCItemInput(uri: still, transition: RPCTransition(type: "fade", duration: 1.5), motion: .auto)
                ])
            ).ids
            ids += try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: playlist)])).ids
            let added = try daemon.queuectl(["add", "--transition", "cut", "--motion", "auto", still])
            #expect(added.status == 0, "\(added)")
            _ = try daemon.queuectl(["add", still])  // no transition of its own: the daemon's default
            let rows = try client.call(API.QueueList.self, .init()).items
            ids = rows.map(\.id)
            #expect(rows.map(\.transition) == [
                RPCTransition(type: "fade", duration: 1.5), RPCTransition(type: "dip", duration: 0.8, color: "#ff8800"),
                RPCTransition(type: "cut"), nil,
            ])
            let glide = RPCMotion(
                from: .init(x: 0, y: 0, width: 1, height: 1), to: .init(x: 0.25, y: 0.2, width: 0.5, height: 0.5))
            #expect(rows.map(\.motion) == [.auto, glide, .auto, nil])
            // A frame outside the picture is the model's refusal, named.
            let outside = RPCMotion(
                from: .init(x: 0, y: 0, width: 1, height: 1), to: .init(x: 0.6, y: 0, width: 0.5, height: 0.5))
            #expect(throws: ClientError.self) {
                _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: still, motion: outside)]))
            }
            let updated = try client.call(
                API.QueueUpdate.self, .init(id: ids[2], transition: .set(RPCTransition(type: "crossfade", duration: 3))))
            #expect(updated.item.transition == RPCTransition(type: "crossfade", duration: 3))
            // Refused, with the field named; nothing changes.
            let refusals: [(JSONValue, String)] = [
                (["type": "wipe", "duration": 1], "items[0].transition.type"),
                (["type": "crossfade", "duration": 1, "color": "#ffffff"], "items[0].transition.color"),
                (["type": "fade", "duration": 9], "items[0].transition.duration"),
            ]
            for (bad, param) in refusals {
                var refusal: RPCError?
                do {
                    _ = try client.call("queue.add", ["items": [["uri": .string(still), "transition": bad]]])
                } catch {
                    if case .rpc(let error) = error { refusal = error }
                }
                #expect(refusal?.code == -32602 && refusal?.data?["param"]?.stringValue == param, "\(String(describing: refusal))")
            }
            #expect(try client.call(API.QueueList.self, .init()).items.count == 4)
            let refused = try daemon.queuectl(["add", "--transition", "wipe:1", still])
            #expect(refused.status != 0 && refused.stderr.contains("--transition"))
            daemon.process.terminate(signal: SIGKILL)
        }
        let again = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path])
        defer { again.stop() }
        let client = try again.client()
        let kept = try client.call(API.QueueList.self, .init()).items
        #expect(kept.map(\.transition) == [
            RPCTransition(type: "fade", duration: 1.5), RPCTransition(type: "dip", duration: 0.8, color: "#ff8800"),
            RPCTransition(type: "crossfade", duration: 3), nil,
        ])
        #expect(kept.map(\.motion).map { $0 != nil } == [true, true, true, false])
        let saved = scratch.file("saved.m3u")
        #expect(try again.queuectl(["save", saved]).status == 0)
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("#EXTQUEUED:transition=fade:1.5\n") && text.contains("#EXTQUEUED:transition=dip:0.8:#ff8800\n")
            && text.contains("#EXTQUEUED:transition=crossfade:3\n")
            && text.contains("#EXTQUEUED:motion=auto\n") && text.contains("#EXTQUEUED:motion=0,0,1,1>0.25,0.2,0.5,0.5\n"))
        let bad = try ChildProcess.run(
            BuiltProduct.path("queued"), ["--no-state", "--audio", "null", "--video", "null", "--transition", "fade:9"],
            timeout: 30)
        #expect(bad.status == 64 && bad.stderr.contains("--transition"), "\(bad)")
    }

    @Test func aCrossfadeOverlapsThePlaysEventsAndProofOfPlayRecords() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 2, format: .wav)
        let b = try Fixtures.tone(frequency: 660, seconds: 2, format: .wav)
        let state = try TemporaryDirectory(prefix: "queued-crossfade-state")
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false), ["--state-dir", state.path, "--transition", "crossfade:1"])
        defer { daemon.stop() }
        let transcript = Transcript()
        let control = RecordingClient(try daemon.client(timeout: 30), transcript)
        let watcher = RecordingClient(try daemon.client(timeout: 30), transcript)
        try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded", "played"]])
        try control.call("queue.add", ["items": [.string(a), .string(b)]])
        try control.call("player.play")
        let seen = try watcher.notifications(timeout: 30) { seen in
            seen.filter { $0.method == "event.played" }.count == 2
        }
        let order = seen.compactMap { note -> String? in
            let id = note.params?["id"]?.intValue ?? 0
            switch note.method {
            case "event.itemStarted": return "started \(id)"
            case "event.itemEnded": return "ended \(id)"
            default: return nil
            }
        }
        #expect(order == ["started 1", "started 2", "ended 1", "ended 2"], "\(order)")
        // B comes in a second after A started (2 s less the 1 s overlap), on the wall clock.
        let starts = seen.filter { $0.method == "event.itemStarted" }.compactMap { $0.params?["at"]?.doubleValue }
        #expect(starts.count == 2 && abs((starts.last ?? 0) - (starts.first ?? 0) - 1) < 0.3, "\(starts)")
        // The records: A ends about a second after B starts (the overlap), each lasting its own 2 s.
        let records = try control.call("plays.list")["records"]?.arrayValue ?? []
        let spans = records.compactMap { record -> (start: Date, end: Date, seconds: Double)? in
            let parser = ISO8601DateFormatter()
            parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let start = record["start"]?.stringValue.flatMap(parser.date(from:)),
                let end = record["end"]?.stringValue.flatMap(parser.date(from:)),
                let seconds = record["seconds"]?.doubleValue
            else { return nil }
            return (start, end, seconds)
        }
        #expect(spans.count == 2, "\(records)")
        if spans.count == 2 {
            let overlap = spans[0].end.timeIntervalSince(spans[1].start)
            #expect(abs(overlap - 1) < 0.3, "overlap \(overlap) s")
            #expect(spans.allSatisfy { abs($0.seconds - 2) < 0.3 }, "\(spans.map(\.seconds))")
        }
    }
}
