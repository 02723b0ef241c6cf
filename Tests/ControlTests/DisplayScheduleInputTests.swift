// `--display-schedule`'s text: windows in the playlist's schedule form separated by "|", read into the
// screen's calendar, and a mistake named by its window and field.

import QueueModel
import QueueRPC
import QueueServer
import Testing

@Suite struct DisplayScheduleInputTests {
    @Test func windowsAreReadInOrder() throws {
        let schedule = try DisplayScheduleInput.parse(
            "days=mon,tue,wed,thu,fri;from=07:00;until=22:00 | days=sat;from=09:00;until=18:00")
        #expect(
            schedule.windows == [
                ItemSchedule(days: [.mon, .tue, .wed, .thu, .fri], from: TimeOfDay(parsing: "07:00"), until: TimeOfDay(parsing: "22:00")),
                ItemSchedule(days: [.sat], from: TimeOfDay(parsing: "09:00"), until: TimeOfDay(parsing: "18:00")),
            ])
        let dated = try DisplayScheduleInput.parse("from=18:00;until=02:00;start=2026-12-01;end=2026-12-31")
        #expect(dated.windows.count == 1 && dated.windows[0].end == CivilDate(year: 2026, month: 12, day: 31))
    }

    @Test func aMistakeNamesItsWindowAndField() {
        func reason(_ text: String) -> String? {
            do {
                _ = try DisplayScheduleInput.parse(text)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(reason("days=mon;from=07:00 | days=sat;from=25:00") == "invalid params: 'display-schedule[2].from' must be a time HH:MM from 00:00 to 24:00 (got 25:00)")
        #expect(reason("days=mon | days=someday") == "invalid params: 'display-schedule[2].days' must be a list of mon, tue, wed, thu, fri, sat, sun (got someday)")
        #expect(reason("days=mon || days=sat")?.hasPrefix("invalid params: 'display-schedule[2]' must be fields") == true)
        #expect(reason("colour=red")?.hasPrefix("invalid params: 'display-schedule[1]' must be fields") == true)
        #expect(reason("start=2026-12-31;end=2026-12-01") == "invalid params: 'display-schedule[1].end' must not be before start (2026-12-31)")
    }
}
