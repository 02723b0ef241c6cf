// queue.interrupt end to end. With a real PulseAudio server (its null sink's monitor recorded): during
// item A, at 3.0 s, B interrupts twice; the recording must be A's samples up to a point, B's twice, then
// A's again from exactly that point — bit-exact, so nothing was dropped, repeated or inserted — and the
// events must say B's plays were an interrupt and never end A early. On the null outputs, queuectl
// interrupt with a file that cannot play: the interrupt fails with a reason and A plays on.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct InterruptDaemonTests {
    /// A rising chirp and a falling one: no stretch of either repeats, so a sample-exact match pins where
    /// each piece sits in the recording (a steady tone would match again a period later). `video`: with
    /// pictures, H.264 and PCM in QuickTime, whose audio clock counts samples (Matroska's counts
    /// milliseconds, so a resume there lands up to a millisecond off the exact sample).
    static func chirp(_ name: String, seconds: Double, expression: String, video: Bool = false) throws -> String {
        let audio = ["-f", "lavfi", "-i", "aevalsrc=exprs=\(expression)|\(expression):s=48000:d=\(seconds)"]
        guard video else {
            return try Fixtures.make("\(name).wav", audio + ["-ar", "48000", "-ac", "2", "-c:a", "pcm_s16le"])
        }
        return try Fixtures.make(
            "\(name).mov",
            ["-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=\(seconds)"] + audio
                + ["-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le"])
    }

    /// With the default server buffer (0.1 s) and with `--audio-buffer 0.025`: the server takes back what it
    /// held beyond the splice, so the interrupt is heard within a frame of the request at both.
    /// With pictures (A and B videos on the offscreen output) B's first pictures are decoded before the splice
    /// is placed, so it is no later than without them, and just as seamless.
    @Test(arguments: [(0.1, false), (0.025, false), (0.1, true)])
    func anInterruptPlaysTwiceAndTheItemGoesOnFromTheSampleWhereItStopped(audioBuffer: Double, video: Bool) throws {
        let chirpA = "0.4*sin(2*PI*(300*t+40*t*t))", chirpB = "0.3*sin(2*PI*(900*t-200*t*t))"
        let a = try Self.chirp("interrupted-a", seconds: 8, expression: chirpA, video: video)
        let b = try Self.chirp("interrupt-b", seconds: 1, expression: chirpB, video: video)
        let referenceA = try Fixtures.decodePCM(a)
        let referenceB = try Fixtures.decodePCM(b)

        let daemon = try RunningDaemon(["--audio-buffer", String(audioBuffer)], video: video)
        defer { daemon.stop() }
        let pulse = try #require(daemon.pulse)
        let recorder = try SinkRecorder(server: pulse.server)
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded, .progress]))
        // A silent item after A keeps the output from draining when A ends (a drain is an underflow).
        let trailer = try Fixtures.make(
            "interrupt-trailer.wav", ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=3", "-c:a", "pcm_s16le"])
        let ids = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: a), RPCItemInput(uri: trailer)])).ids
        let underrunsBefore = try client.call(API.DaemonHealth.self).audioUnderruns
        _ = try client.call(API.PlayerPlay.self, .init())

        // At 3.0 s into A (its progress events come every 50 ms), B interrupts, twice.
        let atThree = try collectNotifications(watcher, timeout: 20) { notes in
            notes.contains { $0.method == "event.progress" && ($0.params?["position"]?.doubleValue ?? 0) >= 3.0 }
        }
        try #require(
            atThree.contains { $0.method == "event.progress" && ($0.params?["position"]?.doubleValue ?? 0) >= 3.0 },
            "A did not reach 3 s: \(daemon.log())")
        let requestedAt = try client.call(API.PlayerStatus.self).position
        let interrupt = try client.call(API.QueueInterrupt.self, .init(item: RPCItemInput(uri: b), loops: 2)).id
        let during = try client.call(API.PlayerStatus.self)
        #expect(during.state == "playing")

        let rest = try collectNotifications(watcher, timeout: 30) { notes in
            notes.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == ids[0] }
        }
        let underruns = try client.call(API.DaemonHealth.self).audioUnderruns - underrunsBefore
        let events = (atThree + rest).filter { [ids[0], interrupt].contains($0.params?["id"]?.intValue ?? -1) }
        func items(_ method: String) -> [(id: Int64?, play: Int64?, interrupt: Bool)] {
            events.filter { $0.method == method }.map {
                ($0.params?["id"]?.intValue, $0.params?["play"]?.intValue, $0.params?["interrupt"]?.boolValue ?? false)
            }
        }
        let started = items("event.itemStarted")
        let ended = items("event.itemEnded")
        #expect(started.map(\.id) == [ids[0], interrupt, interrupt], "\(started)")
        #expect(started.map(\.play) == [1, 1, 2] && started.map(\.interrupt) == [false, true, true], "\(started)")
        #expect(ended.map(\.id) == [interrupt, interrupt, ids[0]], "A ends once, at its end: \(ended)")
        #expect(ended.map(\.interrupt) == [true, true, false], "\(ended)")
        #expect(
            rest.filter { $0.method == "event.itemEnded" }.allSatisfy { $0.params?["reason"]?.stringValue == "eof" },
            "\(rest)")
        let item = try #require(client.call(API.QueueGet.self, .init(ids: ids)).items.first)
        #expect(item.plays == 1, "A's one play counted once: \(item)")

        // The recording: A from its start up to the splice, B, B, then A from the splice on — unless the server
        // ran dry meanwhile (it says so: an underrun, the machine too busy to feed it), which puts a gap in
        // the recording that no splice made; then the events above are what this run proves.
        print("interrupt (audio buffer \(audioBuffer) s\(video ? ", video" : "")): \(underruns) underruns while A played")
        guard underruns == 0 else {
            print("interrupt: the server ran dry \(underruns) times (a loaded machine): sample checks skipped")
            #expect(daemon.stop() == 0, "the daemon exits cleanly: \(daemon.log())")
            return
        }
        let heard = try #require(waitUntil(timeout: 10) { recorder.recordedFrames > 0 } ? recorder.stop() : nil)
        let start = try #require(
            AudioAlignment.locate(referenceA.prefix(4096 * 2), in: heard, tolerance: 0), "A not found in the recording")
        let before = AudioAlignment.compare(expected: referenceA, actual: heard, atFrame: start, tolerance: 0)
        let splice = before.matchedFrames
        let lengthB = referenceB.count / 2
        // A rewrite that reached the server after its sink had read past the cut (a machine too busy to send
        // it in time; the daemon checks with the server and says so) leaves A played `missed` frames past the
        // cut and B's first `missed` frames unheard: A up to cut + missed, B from `missed`, B, A from the cut.
        // Then the first whole B is where that many frames are.
        let late = daemon.log().contains("audio splice late")
        var missed = 0
        if late, let whole = AudioAlignment.locate(referenceB.prefix(4096 * 2), in: heard, tolerance: 0,
            searchFrom: start + splice + 1)
        {
            missed = max(0, start + splice + lengthB - whole)
            print("interrupt: the daemon said its splice was late; B's first \(missed) frames went unheard")
        }
        let first = AudioAlignment.compare(
            expected: Array(referenceB[(missed * 2)...]), actual: heard, atFrame: start + splice, tolerance: 0)
        let second = AudioAlignment.compare(
            expected: referenceB, actual: heard, atFrame: start + splice + lengthB - missed, tolerance: 0)
        let after = AudioAlignment.compare(
            expected: Array(referenceA[(splice * 2)...]), actual: heard, atFrame: start + splice + 2 * lengthB,
            tolerance: 0)
        let spliceSeconds = Double(splice - missed) / 48000
        print(
            "interrupt (audio buffer \(audioBuffer) s\(video ? ", video" : "")): requested at A \(String(format: "%.3f", requestedAt)) s, spliced at A \(String(format: "%.4f", spliceSeconds)) s (\(String(format: "%.1f", (spliceSeconds - requestedAt) * 1000)) ms later); B×2 then A from that sample"
        )
        #expect(first.matches && second.matches, "B twice right after A's \(splice)th frame: \(first) / \(second)")
        #expect(after.matches, "A goes on from frame \(splice): \(after)")
        // Where it stopped: at 3.0 s ± one frame (40 ms at 25 fps) — not where the server's buffer ended.
        #expect(
            abs(spliceSeconds - requestedAt) <= 0.04,
            "requested at \(requestedAt) s, spliced at \(spliceSeconds) s")
        // Nothing silent from A's start to its end (an inserted gap of even 1 ms would show here).
        let span = Array(heard[(start * 2)..<((start + referenceA.count / 2 + 2 * lengthB) * 2)])
        #expect(AudioAlignment.silentRuns(span, minimumFrames: 48).isEmpty, "a silence was inserted")
        #expect(daemon.stop() == 0, "the daemon exits cleanly: \(daemon.log())")
    }

    @Test func anInterruptThatCannotPlayFailsWithAReasonAndTheQueueGoesOn() throws {
        let a = try Fixtures.tone(frequency: 440, seconds: 3, format: .wav)
        let daemon = try RunningDaemon(outputs: .null(untimed: false))
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded, .itemLoading]))
        // A silent item after A keeps the output from draining when A ends (a drain is an underflow).
        let trailer = try Fixtures.make(
            "interrupt-trailer.wav", ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=3", "-c:a", "pcm_s16le"])
        let ids = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: a), RPCItemInput(uri: trailer)])).ids
        let underrunsBefore = try client.call(API.DaemonHealth.self).audioUnderruns
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(watcher, timeout: 10) { $0.contains { $0.method == "event.itemStarted" } }

        let missing = daemon.directory.path + "/no such announcement.wav"
        let ran = try daemon.queuectl(["interrupt", missing])
        #expect(ran.status == 0 && ran.stdout.hasPrefix("interrupting with #"), "\(ran)")
        let events = try collectNotifications(watcher, timeout: 20) { notes in
            notes.contains { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == ids[0] }
        }
        let failed = events.first { $0.method == "event.itemEnded" && $0.params?["interrupt"]?.boolValue == true }
        #expect(failed?.params?["reason"]?.stringValue == "error", "\(events)")
        #expect(failed?.params?["error"]?.stringValue?.isEmpty == false, "\(events)")
        let loading = events.filter { $0.method == "event.itemLoading" && $0.params?["interrupt"]?.boolValue == true }
        #expect(loading.contains { $0.params?["status"]?.stringValue == "failed" }, "\(events)")
        let endsOfA = events.filter { $0.method == "event.itemEnded" && $0.params?["id"]?.intValue == ids[0] }
        #expect(endsOfA.map { $0.params?["reason"]?.stringValue } == ["eof"], "A plays on to its end: \(events)")
        #expect(!events.contains { $0.method == "event.itemStarted" && $0.params?["id"]?.intValue == ids[0] })

        // Refusals: a count out of range (queuectl and the daemon), a schedule, no item.
        #expect(try daemon.queuectl(["interrupt", a, "--loops", "0"]).status == 2)
        let raw = try daemon.client()
        for params in [
            #"{"item":"\#(a)","loops":0}"#, #"{"item":{"uri":"\#(a)","schedule":{"days":["mon"]}}}"#, #"{}"#,
        ] {
            try raw.sendRaw(
                Array(#"{"jsonrpc":"2.0","id":7,"method":"queue.interrupt","params":\#(params)}"#.utf8) + [10])
            let reply = try #require(try raw.readLine(timeout: 10)).map { Character(UnicodeScalar($0)) }
            #expect(String(reply).contains("-32602"), "\(params) → \(String(reply))")
        }
        // Idle once A's last sample is heard and its last picture shown (its itemEnded may come first).
        #expect(waitUntil(timeout: 10) { (try? client.call(API.PlayerStatus.self).state) == "idle" })
    }
}
