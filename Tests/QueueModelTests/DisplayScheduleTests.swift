// The screen's calendar: on while any window is open, and the next change found across windows that touch,
// overlap or cross midnight; no windows means always on.

import Testing

@testable import QueueModel

@Suite struct DisplayScheduleTests {
    // 2026-11-23 is a Monday.
    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> LocalDateTime {
        LocalDateTime(date: CivilDate(year: 2026, month: 11, day: day)!, minute: hour * 60 + minute)
    }

    static func window(_ days: Set<Weekday>?, _ from: String, _ until: String) -> ItemSchedule {
        ItemSchedule(days: days, from: TimeOfDay(parsing: from), until: TimeOfDay(parsing: until))
    }

    @Test func noWindowsIsAlwaysOn() {
        let schedule = DisplaySchedule()
        #expect(schedule.isOn(at: Self.at(23, 3)))
        #expect(schedule.nextChange(after: Self.at(23, 3)) == nil)
    }

    @Test func weekdaysByDayAndTheWeekendShorter() {
        let schedule = DisplaySchedule(windows: [
            Self.window([.mon, .tue, .wed, .thu, .fri], "07:00", "22:00"), Self.window([.sat], "09:00", "18:00"),
        ])
        #expect(!schedule.isOn(at: Self.at(23, 6, 59)))
        #expect(schedule.isOn(at: Self.at(23, 7)))
        #expect(!schedule.isOn(at: Self.at(23, 22)))
        #expect(schedule.nextChange(after: Self.at(23, 3)) == Self.at(23, 7))
        #expect(schedule.nextChange(after: Self.at(23, 7)) == Self.at(23, 22))
        // Friday night off until Saturday 09:00, Saturday 18:00 off until Monday 07:00.
        #expect(schedule.nextChange(after: Self.at(27, 22)) == Self.at(28, 9))
        #expect(schedule.nextChange(after: Self.at(28, 12)) == Self.at(28, 18))
        #expect(schedule.nextChange(after: Self.at(28, 18)) == Self.at(30, 7))
    }

    @Test func windowsThatTouchOrOverlapAreOneStretchOn() {
        // 08:00–12:00 and 12:00–20:00 touch; 18:00–23:30 overlaps the second; the screen is on 08:00–23:30.
        let schedule = DisplaySchedule(windows: [
            Self.window(nil, "08:00", "12:00"), Self.window(nil, "12:00", "20:00"), Self.window(nil, "18:00", "23:30"),
        ])
        #expect(schedule.nextChange(after: Self.at(24, 9)) == Self.at(24, 23, 30))
        #expect(schedule.isOn(at: Self.at(24, 12)))
        #expect(schedule.nextChange(after: Self.at(24, 23, 30)) == Self.at(25, 8))
    }

    @Test func aNightWindowCrossesMidnight() {
        // A bar's screen: Friday and Saturday 18:00 to 02:00 the next morning.
        let schedule = DisplaySchedule(windows: [Self.window([.fri, .sat], "18:00", "02:00")])
        #expect(schedule.isOn(at: Self.at(28, 1)))  // Saturday 01:00, Friday's window
        #expect(!schedule.isOn(at: Self.at(28, 2)))
        #expect(schedule.nextChange(after: Self.at(28, 1)) == Self.at(28, 2))
        #expect(schedule.nextChange(after: Self.at(29, 1)) == Self.at(29, 2))  // Sunday 01:00, Saturday's
        let nextFriday = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 4)!, minute: 18 * 60)
        #expect(schedule.nextChange(after: Self.at(29, 2)) == nextFriday)
    }

    @Test func onAllTheTimeHasNoNextChange() {
        let schedule = DisplaySchedule(windows: [ItemSchedule()])
        #expect(schedule.isOn(at: Self.at(25, 0)))
        #expect(schedule.nextChange(after: Self.at(25, 0)) == nil)
    }
}
