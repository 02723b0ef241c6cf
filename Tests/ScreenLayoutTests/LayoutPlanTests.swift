// Layouts by daypart: the first scheduled layout open at a time is in force, the fallback otherwise (the
// whole screen when none is given); the next change is the next minute a window opens or closes; plans
// with two fallbacks, a broken layout or a zone that is music in one layout and a rectangle in another are
// refused whole.

import QueueModel
import ScreenLayout
import Testing

struct LayoutPlanTests {
    let monday = CivilDate(year: 2026, month: 11, day: 30)!

    func at(_ hour: Int, _ minute: Int = 0, days: Int = 0) -> LocalDateTime {
        LocalDateTime(date: monday.adding(days: days), minute: hour * 60 + minute)
    }

    func layout(_ name: String, _ zones: [String], _ schedule: ItemSchedule?) -> Layout {
        Layout(name: name, zones: zones.map { Zone(name: $0, rect: .whole, audio: $0 == "main", content: .stills) }, schedule: schedule)
    }

    @Test func theOpenLayoutIsInForceAndTheFallbackOtherwise() throws {
        let breakfast = layout("breakfast", ["main", "menu"], ItemSchedule(from: TimeOfDay(minutes: 7 * 60), until: TimeOfDay(minutes: 11 * 60)))
        let weekend = layout("weekend", ["main", "promo"], ItemSchedule(days: [.sat, .sun]))
        let rest = layout("rest", ["main"], nil)
        let plan = try LayoutPlan(layouts: [weekend, breakfast, rest]).validated()
        #expect(plan.active(at: at(8)).name == "breakfast")
        #expect(plan.active(at: at(12)).name == "rest")
        #expect(plan.active(at: at(8, days: 5)).name == "weekend", "Saturday: the weekend layout comes first")
        #expect(plan.nextChange(after: at(8)) == at(11), "breakfast closes at 11:00")
        #expect(plan.nextChange(after: at(12)) == at(7, days: 1), "it opens again at 7:00 the next day")
        #expect(plan.nextChange(after: at(23, 59, days: 4)) == at(0, days: 5), "the weekend starts at midnight")
        #expect(plan.zoneNames == ["main", "menu", "promo"])
        // No fallback: the whole screen as one zone.
        let onlyBreakfast = try LayoutPlan(layouts: [breakfast]).validated()
        #expect(onlyBreakfast.active(at: at(12)) == .fullScreen)
    }

    @Test func plansThatCannotBeAppliedAreRefusedWhole() {
        let fallback = layout("a", ["main"], nil)
        #expect(throws: LayoutError.self) { try LayoutPlan(layouts: [fallback, layout("b", ["main"], nil)]).validated() }
        #expect(throws: LayoutError.self) { try LayoutPlan(layouts: [fallback, layout("c", ["side"], ItemSchedule(days: [.mon]))]).validated() }
        var music = layout("d", ["main"], ItemSchedule(days: [.mon]))
        music.zones.append(Zone(name: "x", rect: nil))
        let rectangle = layout("e", ["main", "x"], nil)
        #expect(throws: LayoutError.self) { try LayoutPlan(layouts: [music, rectangle]).validated() }
        #expect(throws: LayoutError.self) { try LayoutPlan(layouts: []).validated() }
    }
}
