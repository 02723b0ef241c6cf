// Dayparting through the whole engine with an injected clock (a fixed zone and a `now` the test moves):
// items outside their window are skipped with `itemSkipped` (not failed, still queued); when none is open
// the status says so and the fallback picture goes up; moving the clock into a window resumes play; a
// window closing mid-loop skips the item from its next turn. No waiting on wall time: the decode thread
// looks at the clock twice a second while it waits, and the test waits on events with deadlines.

import Foundation
import Media
import Playback
import QueueModel
import TestSupport
import Testing

/// A wall clock the test sets by hand.
final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Double

    init(_ date: String, _ time: String) { instant = Self.instant(date, time) }

    var now: Double { lock.withLock { instant } }
    func set(_ date: String, _ time: String) { lock.withLock { instant = Self.instant(date, time) } }

    /// UTC seconds of a date and HH:MM.
    static func instant(_ date: String, _ time: String) -> Double {
        Double(CivilDate(parsing: date)!.dayNumber * 86_400 + TimeOfDay(parsing: time)!.minutes * 60)
    }

    var localClock: LocalClock { LocalClock(timeZone: TimeZone(identifier: "UTC")!) { [self] in now } }
}

/// A video output that notes what it was asked to show: a picture's size, or "black".
final class ShowLog: VideoSink, @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [String] = []
    var all: [String] { lock.withLock { shown } }
    func open() throws {}
    func show(_ frame: VideoFrame) { lock.withLock { shown.append("\(frame.width)x\(frame.height)") } }
    func showBlack() { lock.withLock { shown.append("black") } }
    func pump() {}
    func setFit(_ fit: VideoFit) {}
    func setFullscreen(_ fullscreen: Bool) {}
    func setRotation(_ rotation: VideoRotation) {}
    func screenshot(_ request: ScreenshotRequest) -> Screenshot? { nil }
    func close() {}
}

@Suite(.serialized) struct DaypartingEngineTests {
    func skipped(_ events: [PlayerEvent]) -> [(ItemID, SkipReason)] {
        events.compactMap {
            if case .itemSkipped(let id, _, let reason) = $0 { return (id, reason) }
            return nil
        }
    }

    func starts(_ events: [PlayerEvent]) -> [ItemID] {
        events.compactMap {
            if case .itemStarted(let id, _, _, _, _, _, _, _, _) = $0 { return id }
            return nil
        }
    }

    func schedule(days: Set<Weekday>? = nil, _ from: String? = nil, _ until: String? = nil) -> ItemSchedule {
        ItemSchedule(
            days: days, from: from.flatMap(TimeOfDay.init(parsing:)), until: until.flatMap(TimeOfDay.init(parsing:)))
    }

    @Test func itemsOutsideTheirWindowAreSkippedNotFailed() throws {
        let clock = MovableClock("2026-11-24", "10:00")  // a Tuesday
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .wav)
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .untimed), untimed: true) {
            $0.localClock = clock.localClock
        }
        defer { engine.shutdown() }
        let ids = try engine.add([
            MediaItem(uri: tone, title: "always"),
            MediaItem(uri: tone, title: "saturdays", schedule: schedule(days: [.sat])),
            MediaItem(uri: tone, title: "mornings", schedule: schedule("09:00", "11:00")),
            MediaItem(uri: tone, title: "evenings", schedule: schedule("18:00", "23:00")),
        ])
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 20))
        #expect(recorder.started.map(\.id) == [ids[0], ids[2]])
        #expect(skipped(recorder.all).map(\.0) == [ids[1], ids[3]])
        #expect(skipped(recorder.all).allSatisfy { $0.1 == .schedule })
        #expect(recorder.ended.allSatisfy { $0.reason == .eof })
        let states = engine.queue().entries.map(\.state)
        #expect(states == [.played, .queued, .played, .queued])
        #expect(recorder.lastStatus?.waitingForSchedule == false)
    }

    @Test func noItemInWindowShowsTheFallbackUntilAWindowOpens() throws {
        let clock = MovableClock("2026-11-24", "10:00")
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .wav)
        let video = ShowLog()
        let still = try #require(VideoFrame.solid(width: 24, height: 8, y: 200, u: 128, v: 128))
        let (engine, recorder) = try makeEngine(
            audio: NullAudioSink(mode: .untimed), video: video, untimed: true, queueLoops: 0
        ) {
            $0.localClock = clock.localClock
            $0.scheduleFallback = .still(still)
        }
        defer { engine.shutdown() }
        let ids = try engine.add([
            MediaItem(uri: tone, title: "lunch", schedule: schedule("12:00", "13:00")),
            MediaItem(uri: tone, title: "afternoon", schedule: schedule("12:00", "18:00")),
        ])
        try engine.play()
        // Both closed: each reported once, nothing starts, the status waits and the still goes up.
        #expect(
            recorder.wait(timeout: 10) { events in
                events.contains {
                    if case .statusChanged(let s) = $0 { return s.waitingForSchedule } else { return false }
                }
            })
        #expect(skipped(recorder.all).map(\.0) == ids)
        #expect(engine.status().state == .playing && engine.status().currentID == nil)
        #expect(waitUntil(timeout: 5) { video.all.contains("24x8") })
        #expect(recorder.started.isEmpty)
        // Still waiting after several looks at the clock: nothing more is reported.
        let eventsBefore = recorder.all.count
        #expect(!recorder.wait(timeout: 1.2) { $0.count > eventsBefore })

        // 12:00: both open; lunch (the first) plays, and the wait is over.
        clock.set("2026-11-24", "12:00")
        #expect(recorder.wait(timeout: 10) { starts($0).count >= 2 })
        #expect(recorder.started.first?.id == ids[0])
        #expect(engine.status().waitingForSchedule == false)

        // 14:00: lunch closes; from its next turn on, only the afternoon item plays.
        clock.set("2026-11-24", "14:00")
        let skipsBefore = skipped(recorder.all).count
        #expect(recorder.wait(timeout: 10) { skipped($0).count > skipsBefore })
        // (A lunch play decoded ahead before 14:00 may still be announced after the skip: untimed, the
        // decode thread runs a play ahead of what is announced.)
        let startsAfterClose = recorder.started.count
        #expect(recorder.wait(timeout: 10) { starts($0).count >= startsAfterClose + 4 })
        #expect(recorder.started.suffix(3).allSatisfy { $0.id == ids[1] })
        #expect(skipped(recorder.all)[skipsBefore...].allSatisfy { $0.0 == ids[0] })
        #expect(engine.queue().entries.allSatisfy { if case .failed = $0.state { false } else { true } })
    }

    @Test func aRestoredPlayWhoseWindowClosedIsSkipped() throws {
        let clock = MovableClock("2026-11-24", "20:00")
        let tone = try Fixtures.tone(frequency: 440, seconds: 0.3, format: .wav)
        var queue = PlayQueue(loops: 1)
        let ids = try queue.append([
            MediaItem(uri: tone, title: "day", schedule: schedule("08:00", "18:00")),
            MediaItem(uri: tone, title: "any"),
        ])
        let recorder = EventRecorder()
        var config = EngineConfig()
        config.untimed = true
        config.progressInterval = 0
        config.localClock = clock.localClock
        let engine = PlayerEngine(
            config: config, audio: NullAudioSink(mode: .untimed), video: nil, queue: queue,
            logger: .init(label: "test")
        ) { recorder.record($0) }
        engine.restore(
            PlayerSnapshot(state: .playing, current: Cursor(id: ids[0], play: 1, pass: 1), position: 0.1),
            resumeAt: 0.1)
        try engine.start()
        defer { engine.shutdown() }
        #expect(recorder.waitUntilDone(timeout: 20))
        #expect(recorder.started.map(\.id) == [ids[1]])
        #expect(skipped(recorder.all).map(\.0) == [ids[0]])
    }

    /// The play decoded ahead is the first open one after a skip: an edit elsewhere in the queue must not
    /// take it for a changed successor and feed the current play again (a re-buffer the user would hear).
    @Test func anEditDoesNotRefeedWhenTheNextItemIsSkipped() throws {
        let clock = MovableClock("2026-11-24", "10:00")
        let tone = try Fixtures.tone(frequency: 440, seconds: 1.5, format: .wav)
        let (engine, recorder) = try makeEngine(audio: NullAudioSink(mode: .realtime(buffer: 0.5)), untimed: false) {
            $0.localClock = clock.localClock
        }
        defer { engine.shutdown() }
        let ids = try engine.add([
            MediaItem(uri: tone, title: "now"),
            MediaItem(uri: tone, title: "tonight", schedule: schedule("20:00", "23:00")),
            MediaItem(uri: tone, title: "after"),
        ])
        try engine.play()
        #expect(recorder.wait(timeout: 10) { starts($0).count == 1 })
        // Let the decode thread get to the skip and open the play after it, then edit the queue.
        #expect(recorder.wait(timeout: 10) { skipped($0).count == 1 })
        _ = try engine.add([MediaItem(uri: tone, title: "appended")])
        #expect(recorder.wait(timeout: 10) { starts($0).count == 2 })
        let openings = recorder.all.filter {
            if case .itemLoading(let id, 1, .loading, _, _) = $0 { return id == ids[0] }
            return false
        }
        #expect(openings.count == 1, "the current play was opened again: a re-feed")
        #expect(starts(recorder.all) == [ids[0], ids[2]])
    }
}
