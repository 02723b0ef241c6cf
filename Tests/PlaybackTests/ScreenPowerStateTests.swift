// The screen's power as decisions, without threads: an injected clock crosses the schedule's edges and the
// state answers the presenter (darken once, then long waits; wake once), the decode thread (hold, keeping
// its play) and the owner (cork without a flush, the operator's command, uncork only for a moving run).

import Foundation
import QueueModel
import Testing

@testable import Playback

@Suite struct ScreenPowerStateTests {
    /// On 07:00–22:00 every day.
    let daytime = DisplaySchedule(windows: [
        ItemSchedule(from: TimeOfDay(parsing: "07:00"), until: TimeOfDay(parsing: "22:00"))
    ])

    func state(at clock: MovableClock, commands: Bool = true) throws -> EngineState {
        var queue = PlayQueue(loops: 0)
        _ = try queue.append([MediaItem(uri: "/a.wav"), MediaItem(uri: "/b.wav")])
        var state = EngineState(
            queue: queue, sampleRate: 100, progressInterval: 0, localClock: clock.localClock,
            displaySchedule: daytime)
        state.noteScreenPowerSupport(.unsupported("offscreen"), commands: commands)
        return state
    }

    func ask(_ state: inout EngineState, _ screen: inout ScreenShows) -> PresenterStep {
        state.presenterNext(heard: 0, now: 0, wallClock: 0, screen: &screen)
    }

    func told(_ actions: [EngineAction]) -> [Bool] {
        actions.compactMap { if case .tellScreen(let on) = $0 { on } else { nil } }
    }

    func corks(_ actions: [EngineAction]) -> [Bool] {
        actions.compactMap { if case .setAudioPaused(let paused) = $0 { paused } else { nil } }
    }

    @Test func theScheduleDarkensAndWakesAtItsEdges() throws {
        let clock = MovableClock("2026-11-24", "21:59")
        var state = try state(at: clock)
        var screen = ScreenShows()
        try state.play(id: nil)
        _ = state.takeActions()
        _ = ask(&state, &screen)
        // The first decision tells the screen "on" (a restart after a crash in the dark wakes it).
        #expect(told(state.takeActions()) == [true])
        #expect(state.status.display.on && state.status.display.source == .schedule)
        #expect(state.status.display.nextChange == MovableClock.instant("2026-11-24", "22:00"))

        clock.set("2026-11-24", "21:59")
        _ = ask(&state, &screen)
        #expect(told(state.takeActions()).isEmpty)  // nothing to decide before the edge

        clock.set("2026-11-24", "22:00")
        guard case .darken(let tellScreen) = ask(&state, &screen) else {
            Issue.record("no darken at 22:00")
            return
        }
        #expect(!tellScreen)  // the commands tell it, not the presenter
        let off = state.takeActions()
        #expect(told(off) == [false])
        #expect(corks(off) == [true])
        #expect(!off.contains(.requestAudioFlush))  // nothing dropped: the morning resumes from the next sample
        #expect(!state.status.display.on)
        #expect(state.status.state == .playing)  // what the user asked for stays
        #expect(state.status.display.nextChange == MovableClock.instant("2026-11-25", "07:00"))
        guard case .wait(let wait) = ask(&state, &screen) else {
            Issue.record("the dark screen is drawn again")
            return
        }
        #expect(wait == 0.5)
        #expect(state.decoderNext(generation: state.decoderGeneration, serial: 0, activeSerial: state.serial)
            == .hold(wait: 0.5))

        clock.set("2026-11-25", "07:00")
        guard case .wake = ask(&state, &screen) else {
            Issue.record("no wake at 07:00")
            return
        }
        let on = state.takeActions()
        #expect(told(on) == [true])
        #expect(corks(on) == [false])
        #expect(state.status.display.on)
        #expect(state.status.display.nextChange == MovableClock.instant("2026-11-25", "22:00"))
        #expect(state.screenPower.info.changes == 2)
    }

    @Test func aManualSettingLastsUntilTheNextEdgeAndAutoEndsIt() throws {
        let clock = MovableClock("2026-11-24", "10:00")
        var state = try state(at: clock)
        var screen = ScreenShows()
        _ = ask(&state, &screen)
        state.setScreenPower(.off)
        #expect(!state.status.display.on && state.status.display.source == .manual)
        clock.set("2026-11-24", "21:00")
        _ = ask(&state, &screen)
        #expect(!state.status.display.on)  // still the operator's
        clock.set("2026-11-24", "22:00")
        _ = ask(&state, &screen)
        #expect(!state.status.display.on && state.status.display.source == .schedule)  // the schedule again
        state.setScreenPower(.on)
        #expect(state.status.display.on && state.status.display.source == .manual)
        state.setScreenPower(.auto)
        #expect(!state.status.display.on && state.status.display.source == .schedule)
    }

    @Test func aPauseInTheDarkStaysAPauseAndPlayDoesNotUncork() throws {
        let clock = MovableClock("2026-11-24", "10:00")
        var state = try state(at: clock, commands: false)
        var screen = ScreenShows()
        try state.play(id: nil)
        _ = ask(&state, &screen)
        _ = state.takeActions()
        state.setScreenPower(.off)
        state.pause()
        try state.play(id: nil)  // resumes the run, but the output stays corked while dark
        #expect(corks(state.takeActions()) == [true, true])
        state.pause()
        _ = state.takeActions()
        state.setScreenPower(.on)
        let on = state.takeActions()
        #expect(corks(on).isEmpty)  // paused: nothing uncorks
        #expect(told(on).isEmpty)  // no commands: the output's own way, asked by the presenter
        #expect(state.status.state == .paused)
    }

    @Test func theWallClockSetBackDecidesAgainAtOnce() throws {
        let clock = MovableClock("2026-11-24", "23:00")
        var state = try state(at: clock)
        var screen = ScreenShows()
        _ = ask(&state, &screen)
        #expect(!state.status.display.on)
        clock.set("2026-11-24", "12:00")  // an operator fixed a clock an hour ahead… and half a day
        _ = ask(&state, &screen)
        #expect(state.status.display.on)
    }
}
