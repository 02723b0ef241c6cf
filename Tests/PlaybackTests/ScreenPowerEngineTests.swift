// The screen's power through the whole engine, its threads running: the schedule's edge (an injected
// clock) darkens the screen, the operator's command runs with its words, the picture goes black and stays
// so, the listener's clock stands, and the decode thread stops burning CPU even for a video-only clip
// (whose full picture queue would otherwise be polled); the morning's edge wakes it all where it was.

import Foundation
import Media
import Playback
import QueueModel
import SystemSupport
import TestSupport
import Testing

/// Records the commands the engine would run.
final class CommandLog: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [[String]] = []
    var all: [[String]] { lock.withLock { runs } }
    func run(_ words: [String], _ timeout: Double) -> ChildCommand.Outcome {
        lock.withLock { runs.append(words) }
        return words.first == "false" ? .exited(status: 1, output: "no TV answered") : .exited(status: 0, output: "")
    }
}

/// The CPU ticks (utime + stime) and wake-ups (voluntary context switches) of this process's threads named
/// `name`, by thread id.
func threadCost(named name: String) -> [String: (ticks: Int, wakeups: Int)] {
    var cost: [String: (ticks: Int, wakeups: Int)] = [:]
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    for tid in tasks {
        let task = "/proc/self/task/\(tid)"
        guard let comm = try? String(contentsOfFile: "\(task)/comm", encoding: .utf8),
            comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
            let stat = try? String(contentsOfFile: "\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let status = try? String(contentsOfFile: "\(task)/status", encoding: .utf8)
        else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
        let switches = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        cost[tid] = (user + system, switches)
    }
    return cost
}

@Suite(.serialized) struct ScreenPowerEngineTests {
    let daytime = DisplaySchedule(windows: [
        ItemSchedule(from: TimeOfDay(parsing: "07:00"), until: TimeOfDay(parsing: "22:00"))
    ])

    func displayOn(_ on: Bool) -> ([PlayerEvent]) -> Bool {
        { events in
            events.last {
                if case .statusChanged = $0 { true } else { false }
            }.map {
                if case .statusChanged(let s) = $0 { s.display.on == on } else { false }
            } ?? false
        }
    }

    @Test func theScheduleDarkensTheScreenParksDecodingAndTheMorningGoesOnWhereItWas() throws {
        let clock = MovableClock("2026-11-24", "21:59")
        let clip = try Fixtures.video(seconds: 20, fps: 25, hue: .red)  // video only: the polling case
        let audio = NullAudioSink(mode: .realtime(buffer: 0.2))
        let video = ShowLog()
        let commands = CommandLog()
        let decodersBefore = Set(threadCost(named: "queued.decode").keys)
        let (engine, recorder) = try makeEngine(audio: audio, video: video, untimed: false, queueLoops: 0) {
            $0.localClock = clock.localClock
            $0.displaySchedule = daytime
            $0.displayCommands = ScreenPowerCommands(off: ["cec-off", "a b"], on: ["cec-on"], timeout: 5)
            $0.displayCommandRunner = { commands.run($0, $1) }
        }
        defer { engine.shutdown() }
        var ours = Set<String>()
        #expect(
            waitUntil(timeout: 5) {  // the thread names itself once it runs
                ours = Set(threadCost(named: "queued.decode").keys).subtracting(decodersBefore)
                return ours.count == 1
            })
        try engine.add([MediaItem(uri: clip)])
        try engine.play()
        #expect(waitUntil(timeout: 10) { recorder.presented.count >= 10 })
        #expect(waitUntil(timeout: 5) { commands.all == [["cec-on"]] })  // the first decision tells "on"

        clock.set("2026-11-24", "22:00")
        #expect(recorder.wait(timeout: 5, until: displayOn(false)))
        #expect(waitUntil(timeout: 5) { video.all.last == "black" })
        #expect(waitUntil(timeout: 5) { commands.all == [["cec-on"], ["cec-off", "a b"]] })
        let status = engine.status()
        #expect(status.state == .playing && !status.display.on && status.display.source == .schedule)
        #expect(status.display.nextChange == MovableClock.instant("2026-11-25", "07:00"))
        // Let anything already under way settle, then watch 2 s of dark.
        _ = waitUntil(timeout: 0.3) { false }
        let presented = recorder.presented.count
        let shown = video.all.count
        let heard = audio.playedFrames()
        let written = audio.writtenFrames()
        let before = threadCost(named: "queued.decode").filter { ours.contains($0.key) }
        #expect(!waitUntil(timeout: 2) { recorder.presented.count > presented || video.all.count > shown })
        #expect(audio.playedFrames() == heard)
        #expect(audio.writtenFrames() == written)
        let after = threadCost(named: "queued.decode").filter { ours.contains($0.key) }
        let ticks = before.keys.map { (after[$0]?.ticks ?? 0) - (before[$0]?.ticks ?? 0) }.reduce(0, +)
        let wakeups = before.keys.map { (after[$0]?.wakeups ?? 0) - (before[$0]?.wakeups ?? 0) }.reduce(0, +)
        // Parked, it wakes twice a second to look again; polling a full queue or a corked output would be
        // hundreds of times.
        #expect(ticks <= 3, "the decode thread ran \(ticks) ticks in 2 s of dark")
        #expect(wakeups <= 12, "the decode thread woke \(wakeups) times in 2 s of dark")
        let positionInTheDark = engine.status().position

        clock.set("2026-11-25", "07:00")
        #expect(recorder.wait(timeout: 5, until: displayOn(true)))
        #expect(waitUntil(timeout: 5) { recorder.presented.count > presented + 5 })
        #expect(commands.all.last == ["cec-on"])
        let ended = recorder.ended
        #expect(ended.isEmpty)  // nothing skipped or restarted: the same play went on
        let morning = engine.status()
        #expect(morning.display.on && morning.currentID != nil)
        #expect(morning.position >= positionInTheDark && morning.position < positionInTheDark + 2)
    }

    @Test func aFailingCommandIsReportedInTheStatus() throws {
        let clock = MovableClock("2026-11-24", "10:00")
        let commands = CommandLog()
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .realtime(buffer: 0.2)), untimed: false) {
            $0.localClock = clock.localClock
            $0.displayCommands = ScreenPowerCommands(off: ["false"], on: ["true"], timeout: 5)
            $0.displayCommandRunner = { commands.run($0, $1) }
        }
        defer { engine.shutdown() }
        engine.setScreenPower(.off)
        #expect(
            recorder.wait(timeout: 5) { events in
                events.contains { if case .statusChanged(let s) = $0 { s.display.error != nil } else { false } }
            })
        #expect(engine.status().display.error == "display off: false exited with status 1: no TV answered")
        #expect(engine.screenPowerInfo().failures == 1)
        #expect(engine.screenPowerInfo().method == .command)
        engine.setScreenPower(.on)
        #expect(recorder.wait(timeout: 5) { _ in engine.status().display.error == nil })
    }

    @Test func theSoundAfterTheDarkIsTheNextSampleNothingLostNothingTwice() throws {
        let tone = try Fixtures.tone(frequency: 440, seconds: 2, format: .wav)
        let reference = NullAudioSink(mode: .untimed, keepSamples: true)
        do {
            let (engine, recorder) = try makeEngine(audio: reference, untimed: true)
            defer { engine.shutdown() }
            try engine.add([MediaItem(uri: tone)])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 20))
        }
        let audio = NullAudioSink(mode: .realtime(buffer: 0.2), keepSamples: true)
        let (engine, recorder) = try makeEngine(audio: audio, untimed: false)
        defer { engine.shutdown() }
        try engine.add([MediaItem(uri: tone)])
        try engine.play()
        #expect(waitUntil(timeout: 10) { audio.playedFrames() > 24_000 })
        engine.setScreenPower(.off)
        let heard = audio.playedFrames()
        #expect(!waitUntil(timeout: 0.6) { audio.playedFrames() != heard })
        engine.setScreenPower(.on)
        #expect(recorder.waitUntilDone(timeout: 20))
        let played = audio.capturedSamples()
        let expected = reference.capturedSamples()
        #expect(played.count == expected.count)
        #expect(played == expected)
    }
}
