// Dayparting windows as pure values: civil-date arithmetic, parsing, open/closed at a wall-clock time,
// the next opening and the closing — across midnight, weekdays, date ranges and a leap day.

import Testing

@testable import QueueModel

struct ItemScheduleTests {
    func at(_ date: String, _ time: String) -> LocalDateTime {
        LocalDateTime(date: CivilDate(parsing: date)!, minute: TimeOfDay(parsing: time)!.minutes)
    }

    @Test func civilDatesCountDaysAndWeekdays() throws {
        #expect(CivilDate(parsing: "1970-01-01")?.dayNumber == 0)
        #expect(CivilDate(parsing: "2026-11-24")?.weekday == .tue)
        #expect(CivilDate(parsing: "2000-02-29")?.weekday == .tue)
        #expect(CivilDate(parsing: "1969-12-31")?.weekday == .wed)
        for number in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(dayNumber: number).dayNumber == number)
        }
        #expect(CivilDate(parsing: "2028-02-28")?.adding(days: 1).description == "2028-02-29")
        #expect(CivilDate(parsing: "2026-02-28")?.adding(days: 1).description == "2026-03-01")
        #expect(CivilDate(parsing: "2026-02-29") == nil && CivilDate(parsing: "2026-4-01") == nil)
        #expect(CivilDate(parsing: "2026-04-31") == nil && CivilDate(parsing: "2026-13-01") == nil)
        #expect(TimeOfDay(parsing: "24:00")?.minutes == 1440 && TimeOfDay(parsing: "24:01") == nil)
        #expect(TimeOfDay(parsing: "7:30") == nil && TimeOfDay(parsing: "07:60") == nil)
        #expect(TimeOfDay(parsing: "07:05")?.description == "07:05")
        #expect(LocalDateTime(date: CivilDate(parsing: "2026-12-31")!, minute: 1440) == at("2027-01-01", "00:00"))
    }

    @Test func aDaytimeWindowOnWeekdays() {
        let office = ItemSchedule(
            days: [.mon, .tue, .wed, .thu, .fri], from: TimeOfDay(parsing: "08:00"), until: TimeOfDay(parsing: "18:00"))
        #expect(office.isOpen(at: at("2026-11-24", "08:00")))
        #expect(office.isOpen(at: at("2026-11-24", "17:59")))
        #expect(!office.isOpen(at: at("2026-11-24", "18:00")))
        #expect(!office.isOpen(at: at("2026-11-28", "12:00")), "Saturday")
        #expect(office.nextOpening(after: at("2026-11-24", "07:00")) == at("2026-11-24", "08:00"))
        #expect(
            office.nextOpening(after: at("2026-11-27", "18:00")) == at("2026-11-30", "08:00"), "Friday evening → Monday"
        )
        #expect(office.nextOpening(after: at("2026-11-24", "09:00")) == at("2026-11-24", "09:00"), "open now")
        #expect(office.closing(after: at("2026-11-24", "09:00")) == at("2026-11-24", "18:00"))
        #expect(office.closing(after: at("2026-11-24", "19:00")) == nil)
    }

    @Test func aWindowAcrossMidnightBelongsToTheDayItOpens() {
        let late = ItemSchedule(days: [.fri], from: TimeOfDay(parsing: "22:00"), until: TimeOfDay(parsing: "02:00"))
        #expect(late.isOpen(at: at("2026-11-27", "23:00")), "Friday night")
        #expect(late.isOpen(at: at("2026-11-28", "01:59")), "Saturday small hours")
        #expect(!late.isOpen(at: at("2026-11-28", "02:00")))
        #expect(!late.isOpen(at: at("2026-11-27", "01:00")), "Friday small hours belong to Thursday")
        #expect(late.closing(after: at("2026-11-28", "01:00")) == at("2026-11-28", "02:00"))
        #expect(late.closing(after: at("2026-11-27", "22:30")) == at("2026-11-28", "02:00"))
        #expect(late.nextOpening(after: at("2026-11-28", "03:00")) == at("2026-12-04", "22:00"))
        // from == until: a whole day from that time.
        let fromSix = ItemSchedule(from: TimeOfDay(parsing: "06:00"), until: TimeOfDay(parsing: "06:00"))
        #expect(fromSix.isOpen(at: at("2026-11-24", "05:00")) && fromSix.isOpen(at: at("2026-11-24", "07:00")))
    }

    @Test func datesBoundTheWindowsAndContiguousOnesMerge() {
        let campaign = ItemSchedule(start: CivilDate(parsing: "2026-12-01"), end: CivilDate(parsing: "2026-12-24"))
        #expect(!campaign.isOpen(at: at("2026-11-30", "23:59")))
        #expect(campaign.isOpen(at: at("2026-12-01", "00:00")) && campaign.isOpen(at: at("2026-12-24", "23:59")))
        #expect(!campaign.isOpen(at: at("2026-12-25", "00:00")))
        #expect(campaign.nextOpening(after: at("2026-11-24", "10:00")) == at("2026-12-01", "00:00"))
        #expect(
            campaign.closing(after: at("2026-12-10", "10:00")) == at("2026-12-25", "00:00"),
            "all day, every day: one window")
        #expect(campaign.nextOpening(after: at("2026-12-25", "00:00")) == nil, "over")
        let never = ItemSchedule(days: [], from: nil, until: nil)
        #expect(never.nextOpening(after: at("2026-11-24", "10:00")) == nil)
        let always = ItemSchedule()
        #expect(always.isOpen(at: at("2026-11-24", "10:00")))
        #expect(always.closing(after: at("2026-11-24", "10:00")) == nil, "never closes within the search")
        let leap = ItemSchedule(start: CivilDate(parsing: "2028-02-29"), end: CivilDate(parsing: "2028-02-29"))
        #expect(leap.nextOpening(after: at("2028-01-01", "00:00")) == at("2028-02-29", "00:00"))
    }
}
