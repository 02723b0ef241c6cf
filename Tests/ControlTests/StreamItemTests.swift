// Live streams as items, against real sources on the loopback: the `ffmpeg` CLI publishing a realtime
// test picture with a tone as MPEG-TS over UDP, as SRT (listener), as RTMP (`-listen 1`) and as live HLS
// into a folder nginx serves. A stream plays for its `duration` and the queue goes on; a publisher killed
// and restarted is a stall and a resume in the same play; killed for good, the item still ends at its
// duration; a stream that never answers, a playlist naming local files, and a camera URL with a password
// fail their items with a reason (the password in no log line or event) and the queue plays on.
// Nothing here talks beyond 127.0.0.1.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// A realtime publisher: ffmpeg encoding a test picture (320x240, a keyframe a second) and a tone to
/// `output` in `format`, until stopped.
private final class StreamPublisher {
    let process: ChildProcess
    let logPath: String

    init(format: String, to output: String, extra: [String] = [], log name: String) throws {
        logPath = NSTemporaryDirectory() + "/queued-publisher-\(name)-\(getpid()).log"
        process = try ChildProcess(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "64k",
            ] + extra + ["-f", format, output],
            stdoutPath: logPath, stderrPath: logPath)
    }

    func kill() { _ = process.terminate(signal: SIGKILL) }

    deinit { kill() }
}

/// A daemon on the null outputs (timed) with a client and an event watcher.
private struct StreamDaemon {
    let daemon: RunningDaemon
    let client: QueueClient
    let watcher: QueueClient

    init(_ daemon: RunningDaemon? = nil) throws {
        self.daemon = try daemon ?? RunningDaemon(outputs: .null(untimed: false))
        client = try self.daemon.client()
        watcher = try self.daemon.client()
        _ = try watcher.call(
            API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded, .itemStalled, .itemResumed]))
    }

    func add(_ items: [RPCItemInput]) throws -> [Int64] {
        try client.call(API.QueueAdd.self, .init(items: items)).ids
    }
}

private typealias Notes = [(method: String, params: JSONValue?)]

private func events(_ notes: Notes, _ method: String, _ id: Int64) -> [JSONValue] {
    notes.filter { $0.method == "event.\(method)" && $0.params?["id"]?.intValue == id }.compactMap(\.params)
}

@Suite(.serialized) struct StreamItemTests {
    /// A 2 s file clip that follows the streams (it proves the queue went on).
    static func clip() throws -> String {
        try Fixtures.make(
            "stream-follower.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-f", "lavfi", "-i", "sine=d=2",
                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest",
            ])
    }

    /// Waits (bounded) until the watcher has seen `done`; returns everything seen.
    private static func watch(_ watcher: QueueClient, seconds: Double, until done: (Notes) -> Bool) throws -> Notes {
        try collectNotifications(watcher, timeout: seconds, until: done)
    }

    @Test func aUDPStreamPlaysItsDurationAndTheFileAfterItFollows() throws {
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp")
        defer { publisher.kill() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 6), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        // While it plays, the status measures it: the bits per second it delivers (a 320x240 picture and 64
        // kbit/s of sound: between 64 kbit/s and 20 Mbit/s) and how far behind what it received we hear.
        var measured: RPCStreamStatus?
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.1) {
                guard let status = try? screen.client.call(API.PlayerStatus.self), status.currentId == ids[0],
                    let stream = status.stream, stream.bitrate != nil, stream.latency != nil
                else { return false }
                measured = stream
                return true
            }, "the status measured the stream: \(screen.daemon.log())")
        #expect((64_000...20_000_000).contains(measured?.bitrate ?? 0), "\(String(describing: measured))")
        #expect((0.0...5.0).contains(measured?.latency ?? -1), "\(String(describing: measured))")
        #expect([0.995, 1, 1.005].contains(measured?.pace ?? 0), "\(String(describing: measured))")
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        let started = events(notes, "itemStarted", ids[0]).first
        #expect(started?["width"]?.intValue == 320 && started?["height"]?.intValue == 240, "\(notes)")
        #expect(started?["decoder"]?["codec"]?.stringValue == "h264")
        let ended = events(notes, "itemEnded", ids[0])
        #expect(ended.count == 1 && ended.first?["reason"]?.stringValue == "eof", "\(ended)\n\(screen.daemon.log())")
        // It played its 6 s (less the first keyframe's wait): not cut short, not held beyond.
        let startedAt = started?["at"]?.doubleValue ?? 0
        let next = events(notes, "itemStarted", ids[1]).first?["at"]?.doubleValue ?? 0
        #expect(next - startedAt >= 5.0, "the stream was on screen \(next - startedAt) s")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
        #expect(events(notes, "itemStalled", ids[0]).isEmpty, "no stall while the publisher ran: \(notes)")
    }

    @Test func aLiveStreamBelowItsLatencyIsHeardSlowerResampledAndTheStatusAndLogSaySo() throws {
        // A 440 Hz tone over UDP, asked to be kept 5 s behind: it starts far below that (what the outputs
        // hold), so it plays 0.5 % slower until it gets there — the sound resampled, 437.8 Hz on the
        // speakers, never a dropped or repeated buffer (no stall), and its picture placed by the same map.
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp-pace")
        defer { publisher.kill() }
        let screen = try StreamDaemon(RunningDaemon(outputs: .real(video: true)))
        defer { screen.daemon.stop() }
        let pulse = try #require(screen.daemon.pulse)
        let ids = try screen.add([
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 20, latency: 5), RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var paced: RPCStreamStatus?
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.1) {
                guard let status = try? screen.client.call(API.PlayerStatus.self), status.currentId == ids[0],
                    let stream = status.stream, stream.pace == 0.995
                else { return false }
                paced = stream
                return true
            }, "the stream is played slower: \(screen.daemon.log())")
        #expect((0.0..<3.75).contains(paced?.latency ?? -1), "below its band: \(String(describing: paced))")
        #expect(screen.daemon.log().contains("playing slower (99.5 %)"), "\(screen.daemon.log())")
        // Three seconds of what the speakers play (an observation window, not a synchronisation).
        let recording = NSTemporaryDirectory() + "/queued-pace-\(getpid()).raw"
        defer { unlink(recording) }
        let seconds = 3.0
        let recorder = try ChildProcess(
            "parec",
            [
                "--server=\(pulse.server)", "-d", pulse.monitorSource(), "--raw", "--format=s16le", "--rate=48000",
                "--channels=2", "--latency-msec=20",
            ], stdoutPath: recording)
        defer { _ = recorder.terminate(signal: SIGKILL) }
        let wanted = Int(seconds * 48_000) * 4
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.05) {
                ((try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0) >= wanted
            }, "the monitor recorded \(seconds) s")
        _ = recorder.terminate(signal: SIGKILL)
        let bytes = try #require(FileManager.default.contents(atPath: recording))
        let frames = min(bytes.count, wanted) / 4
        // Rising zero crossings of the left channel (the tone is the only sound), placed between samples; the
        // median period between them is the tone's (a gap from a busy machine moves one period, not the median).
        var crossings: [Double] = []
        bytes.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            for frame in 1..<frames where samples[(frame - 1) * 2] < 0 && samples[frame * 2] >= 0 {
                let before = Double(samples[(frame - 1) * 2])
                let after = Double(samples[frame * 2])
                crossings.append(Double(frame - 1) + -before / (after - before))
            }
        }
        let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }.sorted()
        try #require(periods.count > 100, "the tone was heard: \(periods.count) periods")
        let frequency = 48_000 / periods[periods.count / 2]
        #expect(abs(frequency - 440 * 0.995) < 0.5, "heard \(frequency) Hz: 437.8 Hz played 0.5 % slower, 440 at its own pace")
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemEnded", ids[0]).first?["reason"]?.stringValue == "eof", "\(notes)")
        #expect(events(notes, "itemStalled", ids[0]).isEmpty, "no stall: \(notes)")
    }

    /// A live stream paused for longer than two seconds goes back to its live edge on resume: the same play,
    /// reopened where it was in item time, its latency near its 1 s target again — not the pause behind,
    /// caught up at 0.5 % (200 times the pause). The six-second pause is the scenario, not a synchronisation.
    @Test func aLiveStreamPausedLongResumesAtItsLiveEdgeInTheSamePlay() throws {
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp-pause")
        defer { publisher.kill() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 60)])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var before: RPCStatus?
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.1) {
                guard let status = try? screen.client.call(API.PlayerStatus.self), status.currentId == ids[0],
                    status.stream?.latency != nil, status.position > 2
                else { return false }
                before = status
                return true
            }, "the stream plays, its latency measured: \(screen.daemon.log())")
        _ = try screen.client.call(API.PlayerPause.self)
        let pausedAt = try screen.client.call(API.PlayerStatus.self).position
        Thread.sleep(forTimeInterval: 6)
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var after: RPCStatus?
        #expect(
            waitUntil(timeout: 30, pollInterval: 0.1) {
                guard let status = try? screen.client.call(API.PlayerStatus.self), status.currentId == ids[0],
                    status.stream?.latency != nil, status.position > pausedAt + 11
                else { return false }
                after = status
                return true
            }, "the stream plays on after the pause: \(screen.daemon.log())")
        #expect(after?.play == before?.play, "the same play")
        // Past the latency's 10 s smoothing: near its 1 s target (without going back, 7 s: 6 s of pause more).
        #expect((after?.stream?.latency ?? 99) < 2.5, "back near its live edge: \(String(describing: after?.stream))")
        _ = try screen.client.call(API.PlayerNext.self)
        let notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemEnded", ids[0]).isEmpty }
        #expect(events(notes, "itemStarted", ids[0]).count == 1, "started once: \(notes)")
        #expect(events(notes, "itemStalled", ids[0]).isEmpty, "a resume is not a drop: \(notes)")
    }

    @Test func aStreamAfterAClipIsOpenedInTheClipsLastSecondsAndJoinsAtItsLiveEdge() throws {
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp-ahead")
        defer { publisher.kill() }
        let clip = try Fixtures.make(
            "stream-leader.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=8", "-f", "lavfi", "-i", "sine=d=8",
                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest",
            ])
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        _ = try screen.watcher.call(API.EventsSubscribe.self, .init(events: [.itemLoading]))
        let ids = try screen.add([RPCItemInput(uri: clip), RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 4)])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        func index(_ method: String, _ id: Int64, where check: (JSONValue) -> Bool = { _ in true }) -> Int? {
            notes.firstIndex { $0.method == "event.\(method)" && $0.params?["id"]?.intValue == id && check($0.params!) }
        }
        // Opened (then reading, keeping its last second) while the clip still played — not at its join.
        let loading = index("itemLoading", ids[1]) { $0["status"]?.stringValue == "loading" }
        let clipEnded = index("itemEnded", ids[0])
        let clipStarted = index("itemStarted", ids[0])
        #expect(loading != nil && clipEnded != nil && clipStarted != nil, "\(notes)")
        #expect((loading ?? .max) < (clipEnded ?? 0) && (clipStarted ?? .max) < (loading ?? 0), "\(notes)")
        let started = events(notes, "itemStarted", ids[1]).first
        #expect(started?["width"]?.intValue == 320, "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof", "\(notes)")
        // The clip's end and the stream's start are one moment on the timeline: no gap, no overlap.
        let clipStart = events(notes, "itemStarted", ids[0]).first?["at"]?.doubleValue ?? 0
        let streamStart = started?["at"]?.doubleValue ?? 0
        #expect(abs(streamStart - clipStart - 8) < 0.1, "the stream joined \(streamStart - clipStart) s after the clip began")
        #expect(events(notes, "itemStalled", ids[1]).isEmpty, "\(notes)")
    }

    @Test func aDroppedStreamStallsAndResumesInTheSamePlayAndKilledForGoodEndsAtItsDuration() throws {
        let port = try LoopbackPort.free()
        let target = "udp://127.0.0.1:\(port)?pkt_size=1316"
        var publisher = try StreamPublisher(format: "mpegts", to: target, log: "udp-drop-1")
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 40), RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        try #require(!events(notes, "itemStarted", ids[0]).isEmpty, "\(screen.daemon.log())")

        // Down for longer than the read timeout (5 s): a stall, said once, with why.
        publisher.kill()
        notes += try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStalled", ids[0]).isEmpty }
        let stalled = events(notes, "itemStalled", ids[0])
        #expect(stalled.count == 1 && stalled.first?["reason"]?.stringValue == "no data for 5 s", "\(notes)")
        let waiting = try screen.client.call(API.PlayerStatus.self)
        #expect(waiting.buffering, "the status says it waits")
        #expect(
            waiting.stream?.live == true && waiting.stream?.stalls == 1 && waiting.stream?.down == true,
            "\(String(describing: waiting.stream))")

        // Back: resumed in the same play (play 1, no itemEnded between), and its timeline runs on.
        publisher = try StreamPublisher(format: "mpegts", to: target, log: "udp-drop-2")
        notes += try Self.watch(screen.watcher, seconds: 40) { !events($0, "itemResumed", ids[0]).isEmpty }
        let resumed = events(notes, "itemResumed", ids[0]).first
        #expect(resumed?["play"]?.intValue == 1 && (resumed?["after"]?.doubleValue ?? 0) > 0, "\(notes)")
        #expect(events(notes, "itemEnded", ids[0]).isEmpty, "the drop did not end the play: \(notes)")
        let before = try screen.client.call(API.PlayerStatus.self).position
        #expect(
            waitUntil(timeout: 20) {
                let status = try? screen.client.call(API.PlayerStatus.self)
                return status?.currentId == ids[0] && (status?.position ?? 0) > before + 1.5 && status?.buffering == false
            }, "the play goes on after the resume: \(screen.daemon.log())")
        let back = try screen.client.call(API.PlayerStatus.self).stream
        #expect(back?.live == true && back?.stalls == 1 && back?.down == false, "\(String(describing: back))")

        // Killed for good: the item still ends, by its duration (40 s less what it played and was down), with
        // reason eof, and the file after it plays.
        publisher.kill()
        notes += try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStalled", ids[0]).count == 2, "\(notes)")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof", "\(screen.daemon.log())")
    }

    /// `onStall: black` on a real screen (SDL offscreen): the stream's picture, black while it is down
    /// (nothing on screen: the screenshot says so), its picture again once it is back — the same play.
    @Test func aStreamThatGoesBlackOnStallShowsBlackWhileDownAndItsPictureWhenBack() throws {
        let port = try LoopbackPort.free()
        let target = "udp://127.0.0.1:\(port)?pkt_size=1316"
        var publisher = try StreamPublisher(format: "mpegts", to: target, log: "udp-black-1")
        defer { publisher.kill() }
        let screen = try StreamDaemon(RunningDaemon([], video: true))
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 60, onStall: "black")])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        try #require(!events(notes, "itemStarted", ids[0]).isEmpty, "\(screen.daemon.log())")
        func onScreen() -> Bool? {
            do {
                let shot = try screen.client.call(API.PlayerScreenshot.self, .init())
                let pixels = try PNGPixels.decode(Array(Data(base64Encoded: shot.png ?? "") ?? Data()))
                return stride(from: 0, to: pixels.rgba.count, by: 4).contains { pixels.rgba[$0] > 40 || pixels.rgba[$0 + 1] > 40 }
            } catch ClientError.rpc(let error) where error.code == -32004 {
                return false  // nothing on screen: black
            } catch {
                return nil
            }
        }
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { onScreen() == true }, "the stream's picture")

        publisher.kill()
        notes += try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStalled", ids[0]).isEmpty }
        try #require(!events(notes, "itemStalled", ids[0]).isEmpty, "\(screen.daemon.log())")
        #expect(waitUntil(timeout: 5, pollInterval: 0.1) { onScreen() == false }, "black while it is down")

        publisher = try StreamPublisher(format: "mpegts", to: target, log: "udp-black-2")
        notes += try Self.watch(screen.watcher, seconds: 40) { !events($0, "itemResumed", ids[0]).isEmpty }
        #expect(events(notes, "itemResumed", ids[0]).first?["play"]?.intValue == 1, "\(notes)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { onScreen() == true }, "its picture is back")
        #expect(events(notes, "itemEnded", ids[0]).isEmpty, "the drop did not end the play: \(notes)")
    }

    /// A multi-program TS (two channels in one UDP stream, as a cable head-end sends): `program` picks the
    /// channel (its picture's size tells which), and a program the stream does not have fails its item with
    /// the numbers it has; the queue goes on.
    @Test func aMultiProgramStreamPlaysTheProgramItsItemNames() throws {
        let port = try LoopbackPort.free()
        let log = NSTemporaryDirectory() + "/queued-publisher-programs-\(getpid()).log"
        let publisher = try ChildProcess(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-re",
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
                "-f", "lavfi", "-i", "testsrc2=size=160x128:rate=25", "-f", "lavfi", "-i", "sine=frequency=880",
                "-map", "0:v", "-map", "1:a", "-map", "2:v", "-map", "3:a",
                "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "64k",
                "-program", "program_num=1:title=one:st=0:st=1", "-program", "program_num=2:title=two:st=2:st=3",
                "-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316",
            ],
            stdoutPath: log, stderrPath: log)
        defer { _ = publisher.terminate(signal: SIGKILL) }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 3, program: 1),
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 3, program: 2),
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 3, program: 7),
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 3),
            RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 90) { !events($0, "itemEnded", ids[4]).isEmpty }
        for (index, (width, height)) in [(Int64(320), Int64(240)), (160, 128)].enumerated() {
            let started = events(notes, "itemStarted", ids[index]).first
            #expect(
                started?["width"]?.intValue == width && started?["height"]?.intValue == height,
                "program \(index + 1): \(notes)")
            #expect(events(notes, "itemEnded", ids[index]).first?["reason"]?.stringValue == "eof", "\(screen.daemon.log())")
        }
        let missing = events(notes, "itemEnded", ids[2]).first
        #expect(missing?["reason"]?.stringValue == "error", "\(notes)")
        #expect(
            missing?["error"]?.stringValue?.contains("no program 7 in the stream (it has 1, 2)") == true,
            "\(String(describing: missing))")
        // Without one, the program of the picture FFmpeg finds best — one of the two, whole.
        let either = events(notes, "itemStarted", ids[3]).first
        #expect([160, 320].contains(either?["width"]?.intValue ?? 0), "without a program: \(notes)")
        #expect(events(notes, "itemEnded", ids[3]).first?["reason"]?.stringValue == "eof", "\(notes)")
        #expect(events(notes, "itemEnded", ids[4]).first?["reason"]?.stringValue == "eof")
        #expect(
            (try? screen.client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: "udp://127.0.0.1:\(port)", program: 70_000)]))) == nil,
            "a program number out of range is refused")
    }

    /// An interrupt over a stream: the stream goes on afterwards from what it sends then (not from what piled
    /// up meanwhile), placed where it was left, and plays what is left of its duration — the same play.
    @Test func aStreamInterruptedGoesOnLiveWhereItWasLeft() throws {
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp-interrupt")
        defer { publisher.kill() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 10)])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        _ = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        #expect(waitUntil(timeout: 20) { ((try? screen.client.call(API.PlayerStatus.self))?.position ?? 0) >= 2 })
        let left = try screen.client.call(API.PlayerStatus.self).position
        let interrupt = try screen.client.call(API.QueueInterrupt.self, .init(item: RPCItemInput(uri: Self.clip()))).id
        var notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemEnded", interrupt).isEmpty }
        #expect(
            waitUntil(timeout: 20) {
                let status = try? screen.client.call(API.PlayerStatus.self)
                return status?.currentId == ids[0] && (status?.position ?? 0) > left + 0.5 && status?.play == 1
            }, "the stream goes on from \(left) s: \(screen.daemon.log())")
        // It ends at its duration on the item's timeline: what was played before the interrupt counts.
        var furthest = 0.0
        #expect(
            waitUntil(timeout: 30) {
                guard let status = try? screen.client.call(API.PlayerStatus.self) else { return false }
                if status.currentId == ids[0] { furthest = max(furthest, status.position) }
                return status.currentId != ids[0]
            })
        #expect(furthest > left + 0.5 && furthest <= 10.2, "the play reached \(furthest) s of its 10")
        notes += try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemEnded", ids[0]).isEmpty }
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", interrupt).first?["reason"]?.stringValue == "eof")
    }

    /// `onStall: skip`: the first drop ends the item (reason eof) and the queue goes on at once, long before
    /// its duration; a value other than hold or skip is refused.
    @Test func aStreamThatSkipsOnStallEndsAtItsFirstDrop() throws {
        let port = try LoopbackPort.free()
        let publisher = try StreamPublisher(
            format: "mpegts", to: "udp://127.0.0.1:\(port)?pkt_size=1316", log: "udp-skip")
        defer { publisher.kill() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        #expect(throws: (any Error).self) {
            try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", onStall: "black-ish")])
        }
        let ids = try screen.add([
            RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 60, onStall: "skip"), RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        publisher.kill()
        notes += try Self.watch(screen.watcher, seconds: 40) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStalled", ids[0]).count == 1, "\(notes)")
        #expect(events(notes, "itemResumed", ids[0]).isEmpty)
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
    }

    /// Options an attacker could put in a stream URL's query (an SRT listener: a door into the daemon; a UDP
    /// fifo of gigabytes) are refused with -32003 before anything is queued or opened.
    @Test func streamOptionsThatWouldOpenADoorOrExhaustMemoryAreRefused() throws {
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let port = try LoopbackPort.free()
        for uri in [
            "srt://127.0.0.1:\(port)?mode=listener", "udp://127.0.0.1:\(port)?fifo_size=2000000000",
            "udp://127.0.0.1:\(port)?localport=\(port)&buffer_size=9999999999",
        ] {
            do {
                _ = try screen.add([RPCItemInput(uri: uri, duration: 5)])
                Issue.record("\(uri) was queued")
            } catch let error as ClientError {
                #expect("\(error)".contains("-32003") || "\(error)".contains("URI not allowed"), "\(error)")
            }
        }
        #expect(try screen.client.call(API.QueueList.self, .init(offset: 0, limit: 10)).items.isEmpty)
        #expect(screen.daemon.process.isRunning)
    }

    @Test func streamsThatCannotPlayFailTheirItemsWithAReasonAndThePasswordIsNeverShown() throws {
        let site = try TemporaryDirectory(prefix: "queued-hostile-hls")
        // A playlist whose segment is a local file: the HLS reader may use http(s) only.
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n".write(
            toFile: site.path + "/hostile.m3u8", atomically: true, encoding: .utf8)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let silentPort = try LoopbackPort.free()
        let closedPort = try LoopbackPort.free()
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let camera = "rtsp://admin:hunter2secret@127.0.0.1:\(closedPort)/cam"
        let ids = try screen.add([
            RPCItemInput(uri: "udp://127.0.0.1:\(silentPort)", duration: 30),  // nobody sends
            RPCItemInput(uri: camera, duration: 30),  // nothing listens
            RPCItemInput(uri: nginx.baseURL + "/hostile.m3u8"),
            RPCItemInput(uri: nginx.baseURL + "/missing.m3u8"),
            RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 90) { !events($0, "itemEnded", ids[4]).isEmpty }
        for id in ids.prefix(4) {
            let ended = events(notes, "itemEnded", id)
            #expect(ended.count == 1 && ended.first?["reason"]?.stringValue == "error", "item \(id): \(ended)")
        }
        #expect(
            events(notes, "itemEnded", ids[0]).first?["error"]?.stringValue?.contains("no answer within 10 s") == true,
            "\(notes)")
        #expect(events(notes, "itemEnded", ids[4]).first?["reason"]?.stringValue == "eof", "\(screen.daemon.log())")
        #expect(!nginx.responses().contains { $0.uri.contains("passwd") })
        let everything = screen.daemon.log() + notes.map { "\($0.params ?? .null)" }.joined()
        #expect(!everything.contains("hunter2secret"), "the camera's password was shown")
        #expect(screen.daemon.log().contains("rtsp://***@127.0.0.1:\(closedPort)/cam"), "\(screen.daemon.log())")
    }

    /// A playlist whose 400 segments all fail (404): FFmpeg's HLS reader skips a failed segment and asks for
    /// the next at once, as its DASH reader walks segment numbers on 404s — thousands of requests a second
    /// at a server, fleet-wide. The request fuse (60 in 2 s) ends the item with the reason instead.
    @Test func aPlaylistThatAsksForRequestsInALoopFailsItsItemAfterAFew() throws {
        let site = try TemporaryDirectory(prefix: "queued-storm-hls")
        let segments = (0..<400).map { "#EXTINF:1,\nmissing-\($0).ts" }.joined(separator: "\n")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(segments)\n#EXT-X-ENDLIST\n".write(
            toFile: site.path + "/storm.m3u8", atomically: true, encoding: .utf8)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: nginx.baseURL + "/storm.m3u8"), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        let ended = events(notes, "itemEnded", ids[0]).first
        #expect(ended?["reason"]?.stringValue == "error", "\(notes)")
        #expect(ended?["error"]?.stringValue?.contains("the playlist loops") == true, "\(String(describing: ended))")
        let requests = nginx.responses().filter { $0.uri.hasPrefix("/missing-") }.count
        #expect(requests > 0 && requests <= 61, "\(requests) segment requests")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
    }

    /// Live HLS and live DASH (SegmentTimeline, as FFmpeg's muxer writes it) written by ffmpeg into a folder
    /// nginx serves, segments rolling over: each plays its duration, never through the cache.
    @Test(arguments: ["hls", "dash"]) func liveHTTPStreamsServedByNginxPlayTheirDuration(format: String) throws {
        let site = try TemporaryDirectory(prefix: "queued-live-\(format)")
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let manifest = format == "hls" ? "live.m3u8" : "live.mpd"
        let publisher = try StreamPublisher(
            format: format, to: site.path + "/" + manifest,
            extra: format == "hls"
                ? ["-hls_time", "1", "-hls_list_size", "4", "-hls_flags", "delete_segments"]
                : ["-seg_duration", "1", "-window_size", "5", "-use_template", "1", "-use_timeline", "1"],
            log: format)
        defer { publisher.kill() }
        #expect(
            waitUntil(timeout: 30) {
                let text = (try? String(contentsOfFile: site.path + "/" + manifest, encoding: .utf8)) ?? ""
                return text.components(separatedBy: format == "hls" ? "#EXTINF" : "<S ").count > 3
            }, "the publisher writes its manifest")
        let cache = try TemporaryDirectory(prefix: "queued-live-cache")
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--cache-dir", cache.path])
        let screen = try StreamDaemon(daemon)
        defer { screen.daemon.stop() }
        let ids = try screen.add([
            RPCItemInput(uri: nginx.baseURL + "/" + manifest, duration: 4), RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStarted", ids[0]).first?["width"]?.intValue == 320, "\(screen.daemon.log())")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
        if format == "hls" {
            // The playlist fetched over and over as it rolled: the reader followed the live edge.
            #expect(nginx.responses().filter { $0.uri == "/live.m3u8" }.count >= 2, "\(nginx.responses())")
        }
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".data") }
        #expect(cached.isEmpty, "a stream is never cached: \(cached)")
    }

    /// A camera: GStreamer's RTSP server behind basic authentication (Tests/streams/rtsp_server.py). The
    /// password in the item's URL opens it; a wrong one fails the item with the server's 401; neither
    /// password shows in the log or the events.
    @Test func anRTSPCameraWithAPasswordPlaysAndAWrongPasswordFailsItsItem() throws {
        let port = try LoopbackPort.free()
        let script = BuiltProduct.packageRoot + "/Tests/streams/rtsp_server.py"
        let camera = try ChildProcess("/usr/bin/python3", [script, String(port), "viewer", "s3cretpass"])
        defer { _ = camera.terminate(signal: SIGKILL) }
        #expect(waitUntil(timeout: 20) { LoopbackPort.accepts(port) }, "the RTSP server listens")
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([
            RPCItemInput(uri: "rtsp://viewer:wrongpass1@127.0.0.1:\(port)/live", duration: 3),
            RPCItemInput(uri: "rtsp://viewer:s3cretpass@127.0.0.1:\(port)/live", duration: 4),
            RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[2]).isEmpty }
        let refused = events(notes, "itemEnded", ids[0]).first
        #expect(refused?["reason"]?.stringValue == "error", "\(notes)")
        #expect(refused?["error"]?.stringValue?.contains("401") == true, "\(String(describing: refused))")
        let started = events(notes, "itemStarted", ids[1]).first
        #expect(started?["width"]?.intValue == 320 && started?["decoder"]?["codec"]?.stringValue == "h264", "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).map { $0["reason"]?.stringValue } == ["eof"], "\(screen.daemon.log())")
        #expect(events(notes, "itemEnded", ids[2]).first?["reason"]?.stringValue == "eof")
        let everything = screen.daemon.log() + notes.map { "\($0.params ?? .null)" }.joined()
        #expect(!everything.contains("s3cretpass") && !everything.contains("wrongpass1"), "a password was shown")
    }

    /// The camera's password survives a restart without being written into the state files: the snapshot,
    /// the journals and the proof-of-play log hold the URL redacted (with a token), `credentials` — readable
    /// by its owner only — holds the URL, and the restarted daemon plays the camera through it.
    @Test func aCamerasPasswordStaysOutOfTheStateFilesAndItsItemPlaysAfterARestart() throws {
        let port = try LoopbackPort.free()
        let script = BuiltProduct.packageRoot + "/Tests/streams/rtsp_server.py"
        let camera = try ChildProcess("/usr/bin/python3", [script, String(port), "viewer", "s3cretpass"])
        defer { _ = camera.terminate(signal: SIGKILL) }
        #expect(waitUntil(timeout: 20) { LoopbackPort.accepts(port) }, "the RTSP server listens")
        let state = try TemporaryDirectory(prefix: "queued-credentials")
        let url = "rtsp://viewer:s3cretpass@127.0.0.1:\(port)/live"
        let first = try StreamDaemon(RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path]))
        let ids = try first.add([RPCItemInput(uri: url, duration: 3), RPCItemInput(uri: Self.clip())])
        // It plays once before the restart: its play is in the proof-of-play log too.
        _ = try first.client.call(API.PlayerPlay.self, .init())
        let before = try Self.watch(first.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(before, "itemEnded", ids[0]).first?["reason"]?.stringValue == "eof", "\(first.daemon.log())")
        #expect(first.daemon.stop() == 0, "\(first.daemon.log())")

        var sealed = false
        for name in try FileManager.default.subpathsOfDirectory(atPath: state.path) where name != "credentials" {
            guard let data = FileManager.default.contents(atPath: state.path + "/" + name) else { continue }
            #expect(data.range(of: Data("s3cretpass".utf8)) == nil, "\(name) holds the camera's password")
            if data.range(of: Data("rtsp://***@127.0.0.1:\(port)/live#queued-credentials=".utf8)) != nil { sealed = true }
        }
        #expect(sealed, "the state files name the camera, redacted, with its token")
        var info = stat()
        #expect(stat(state.path + "/credentials", &info) == 0 && info.st_mode & 0o777 == 0o600, "credentials is 0600")
        let kept = FileManager.default.contents(atPath: state.path + "/credentials") ?? Data()
        #expect(kept.range(of: Data(url.utf8)) != nil, "credentials holds the camera's URL")

        let second = try StreamDaemon(RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state.path]))
        defer { second.daemon.stop() }
        let listed = try second.client.call(API.QueueList.self, .init()).items
        #expect(listed.map(\.id) == ids, "\(listed)")
        #expect(listed.first.map { !$0.uri.contains("s3cretpass") } == true, "\(listed)")
        _ = try second.client.call(API.PlayerPlay.self, .init(id: ids[0]))
        let after = try Self.watch(second.watcher, seconds: 60) { !events($0, "itemEnded", ids[0]).isEmpty }
        let started = events(after, "itemStarted", ids[0]).first
        #expect(started?["width"]?.intValue == 320, "the camera plays after the restart: \(after)\n\(second.daemon.log())")
        #expect(events(after, "itemEnded", ids[0]).first?["reason"]?.stringValue == "eof", "\(after)")
        let everything = first.daemon.log() + second.daemon.log() + (before + after).map { "\($0.params ?? .null)" }.joined()
        #expect(!everything.contains("s3cretpass"), "the password was shown")
    }

    /// A live HLS playlist that stops updating (its publisher killed: no ENDLIST): one stall, then the
    /// item waits out its time and ends once — reopening the frozen playlist gives its last segments again,
    /// and those are not played twice.
    @Test func aLivePlaylistThatStopsUpdatingIsOneStallNotALoop() throws {
        let site = try TemporaryDirectory(prefix: "queued-frozen-hls")
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let publisher = try StreamPublisher(
            format: "hls", to: site.path + "/live.m3u8",
            extra: ["-hls_time", "1", "-hls_list_size", "4", "-hls_flags", "delete_segments"], log: "hls-frozen")
        defer { publisher.kill() }
        #expect(
            waitUntil(timeout: 30) {
                ((try? String(contentsOfFile: site.path + "/live.m3u8", encoding: .utf8)) ?? "")
                    .components(separatedBy: "#EXTINF").count > 3
            })
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([
            RPCItemInput(uri: nginx.baseURL + "/live.m3u8", duration: 20), RPCItemInput(uri: Self.clip()),
        ])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        var notes = try Self.watch(screen.watcher, seconds: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        publisher.kill()
        notes += try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStalled", ids[0]).count == 1, "\(notes)")
        #expect(events(notes, "itemResumed", ids[0]).isEmpty, "the old segments did not count as the stream back")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
    }

    /// A damaged MPEG-TS sent over UDP at its own pace (one byte in every 700 flipped, past the first
    /// kilobytes): no crash, no hang, the item plays its duration and ends once, and the file after it plays.
    @Test func aDamagedTransportStreamPlaysOnAndEndsOnce() throws {
        let source = try Fixtures.make(
            "stream-damaged-source.ts",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=12", "-f", "lavfi", "-i", "sine=d=12",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-shortest", "-f", "mpegts",
            ])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
        var generator = SeededGenerator(seed: 38)
        for offset in stride(from: 20_000, to: bytes.count, by: 700) {
            bytes[offset + Int.random(in: 0..<200, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
        }
        let folder = try TemporaryDirectory(prefix: "queued-damaged-ts")
        let damaged = folder.path + "/damaged.ts"
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let port = try LoopbackPort.free()
        // 12 s of stream sent in 12 s, in datagrams of 7 TS packets.
        let sender = try ChildProcess(
            "/usr/bin/python3",
            [
                "-c",
                """
                import socket, sys, time
                data = open(sys.argv[1], 'rb').read(); s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                chunks = [data[i:i + 1316] for i in range(0, len(data), 1316)]; start = time.monotonic()
                for n, chunk in enumerate(chunks):
                    time.sleep(max(0, start + 12.0 * n / len(chunks) - time.monotonic()))
                    s.sendto(chunk, ('127.0.0.1', int(sys.argv[2])))
                """,
                damaged, String(port),
            ])
        defer { _ = sender.terminate(signal: SIGKILL) }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: "udp://127.0.0.1:\(port)", duration: 5), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemEnded", ids[0]).count == 1, "\(notes)\n\(screen.daemon.log())")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
        #expect(screen.daemon.process.isRunning, "the daemon lives on")
    }

    /// An on-demand HLS presentation with a segment gone (404): played to its end past the hole, ended once.
    @Test func anOnDemandPlaylistWithASegmentMissingPlaysToItsEndOnce() throws {
        let site = try TemporaryDirectory(prefix: "queued-vod-hls")
        let made = try ChildProcess.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=5",
                "-f", "lavfi", "-i", "sine=d=5", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac",
                "-shortest", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_filename",
                site.path + "/part%d.ts", site.path + "/vod.m3u8",
            ], timeout: 60)
        try #require(made.status == 0, "\(made.stderr)")
        try FileManager.default.removeItem(atPath: site.path + "/part2.ts")
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: nginx.baseURL + "/vod.m3u8"), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStarted", ids[0]).count == 1, "\(notes)")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
        #expect(nginx.responses().contains { $0.uri == "/part2.ts" && $0.status == 404 })
        #expect(nginx.responses().contains { $0.uri == "/part4.ts" }, "read on past the hole")
    }

    /// An HLS master playlist with two variants: the larger picture is played, with its own sound, and the
    /// other variant's segments are not fetched beyond what finding the tracks read.
    @Test func anHLSMasterPlaylistFetchesOnlyTheVariantItPlays() throws {
        let site = try TemporaryDirectory(prefix: "queued-variants")
        let made = try ChildProcess.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=8",
                "-f", "lavfi", "-i", "sine=d=8", "-map", "0:v", "-map", "0:v", "-map", "1:a", "-map", "1:a",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-b:v:0", "800k", "-b:v:1", "200k", "-s:v:1",
                "160x120", "-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1", "-hls_segment_filename",
                site.path + "/v%v_%d.ts", site.path + "/v%v.m3u8",
            ], timeout: 60)
        try #require(made.status == 0, "\(made.stderr)")
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        let ids = try screen.add([RPCItemInput(uri: nginx.baseURL + "/master.m3u8"), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStarted", ids[0]).first?["width"]?.intValue == 320, "\(notes)")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        let fetched = nginx.responses().map(\.uri)
        #expect(fetched.filter { $0.hasPrefix("/v0_") }.count == 8, "\(fetched)")
        #expect(fetched.filter { $0.hasPrefix("/v1_") }.count <= 2, "the other variant: \(fetched)")
    }

    /// SRT (ffmpeg as the listener, the daemon calls), RTMP (ffmpeg `-listen 1` serves one player) and RTP
    /// (MPEG-TS in RTP to a loopback port).
    @Test(arguments: ["srt", "rtmp", "rtp"]) func aSessionStreamPlaysItsDuration(scheme: String) throws {
        let port = try LoopbackPort.free()
        let (format, publish, play) =
            switch scheme {
            case "srt": ("mpegts", "srt://127.0.0.1:\(port)?mode=listener&pkt_size=1316", "srt://127.0.0.1:\(port)")
            case "rtmp": ("flv", "rtmp://127.0.0.1:\(port)/live/test", "rtmp://127.0.0.1:\(port)/live/test")
            default: ("rtp_mpegts", "rtp://127.0.0.1:\(port)", "rtp://127.0.0.1:\(port)")
            }
        let publisher = try StreamPublisher(
            format: format, to: publish, extra: scheme == "rtmp" ? ["-listen", "1"] : [], log: scheme)
        defer { publisher.kill() }
        let screen = try StreamDaemon()
        defer { screen.daemon.stop() }
        // Not probed: ffmpeg's RTMP listener serves one connection. A refused first connect (the publisher's
        // encoder still starting) is tried again within the item's open time.
        let ids = try screen.add([RPCItemInput(uri: play, duration: 3), RPCItemInput(uri: Self.clip())])
        _ = try screen.client.call(API.PlayerPlay.self, .init())
        let notes = try Self.watch(screen.watcher, seconds: 60) { !events($0, "itemEnded", ids[1]).isEmpty }
        #expect(events(notes, "itemStarted", ids[0]).first?["width"]?.intValue == 320, "\(screen.daemon.log())")
        #expect(events(notes, "itemEnded", ids[0]).map { $0["reason"]?.stringValue } == ["eof"], "\(notes)")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
    }
}
