@testable import DoogitCLI
import DoogitMerge
import DoogitSupport
import Testing

/// Due dates as typed (seen from Tuesday 2026-12-01) and the Taskwarrior shorthand.
@Suite struct DetailsInputTests {
    let today = CalendarDate(year: 2026, month: 12, day: 1)!  // a Tuesday

    @Test(arguments: [
        ("today", "2026-12-01"), ("tomorrow", "2026-12-02"), ("2026-12-24", "2026-12-24"), ("+3d", "2026-12-04"),
        ("+2w", "2026-12-15"), ("fri", "2026-12-04"), ("Friday", "2026-12-04"), ("tue", "2026-12-08"), ("mon", "2026-12-07"),
    ])
    func everyFormOfADate(when: String, expected: String) {
        #expect(DetailsInput.date(when, today: today)?.text == expected)
    }

    @Test(arguments: ["2026-02-30", "fr", "+3x", "+d", "yesterday", "2026-12-1", ""])
    func badDatesAreNone(when: String) {
        #expect(DetailsInput.date(when, today: today) == nil)
    }

    @Test func theShorthandTakesFieldsAndRawKeepsWords() throws {
        let (text, edit) = try DetailsInput.shorthand(["fix", "the", "build", "+ci", "due:fri", "pri:h", "+1", "a +b"],
                                                      raw: false, today: today, topic: ["todo", "add"])
        #expect(text == ["fix", "the", "build", "+1", "a +b"])
        #expect(edit.addTags == ["ci"] && edit.due == .some(CalendarDate(text: "2026-12-04")) && edit.priority == .some(.high))
        let raw = try DetailsInput.shorthand(["email", "+someone"], raw: true, today: today, topic: ["todo", "add"])
        #expect(raw.text == ["email", "+someone"] && raw.edit.isEmpty)
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["due:someday"], raw: false, today: today, topic: []) }
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["pri:Z"], raw: false, today: today, topic: []) }
    }

    @Test func calendarArithmeticAcrossMonthsAndYears() {
        #expect(CalendarDate(text: "2024-02-28")?.adding(days: 1)?.text == "2024-02-29")
        #expect(CalendarDate(text: "2026-12-31")?.adding(days: 1)?.text == "2027-01-01")
        #expect(CalendarDate(text: "1970-01-01")?.dayNumber == 0 && CalendarDate(text: "1970-01-01")?.weekday == 4)
        #expect(today.weekday == 2)
    }
}
