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
        let found = try DetailsInput.shorthand(["fix", "the", "build", "+ci", "due:fri", "pri:h", "+1", "a +b"],
                                               raw: false, today: today, topic: ["todo", "add"])
        #expect(found.text == ["fix", "the", "build", "+1", "a +b"])
        let edit = found.edit
        #expect(edit.addTags == ["ci"] && edit.due == .some(CalendarDate(text: "2026-12-04")) && edit.priority == .some(.high))
        let raw = try DetailsInput.shorthand(["email", "+someone"], raw: true, today: today, topic: ["todo", "add"])
        #expect(raw.text == ["email", "+someone"] && raw.edit.isEmpty)
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["due:someday"], raw: false, today: today, topic: []) }
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["pri:Z"], raw: false, today: today, topic: []) }
    }

    @Test(arguments: ["0001-01-01", "1969-12-31", "0999-06-15"])
    func aDateOutsideTheYearsATodoCanBeDueInIsRefusedNamingTheWord(when: String) {
        #expect(DetailsInput.date(when, today: today) != nil, "a date of the calendar")
        #expect(CalendarDate(text: when)?.isDueDate == false)
        #expect { try DetailsInput.due(when, today: today, topic: ["todo", "add"]) } throws: { error in
            (error as? UsageError)?.message == "'\(when)' is not a date a todo can be due on: use a year from 1970 to 9999"
        }
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["x", "due:" + when], raw: false, today: today, topic: []) }
    }

    @Test(arguments: ["1970-01-01", "9999-12-31"])
    func theFirstAndLastDayOfTheYearsAreTaken(when: String) throws {
        #expect(try DetailsInput.due(when, today: today, topic: []).text == when)
    }

    @Test func twoDifferentValuesOfOneFieldAreRefusedNamingBoth() throws {
        func given<Value: Equatable>(_ pairs: [(String, Value?)]) -> [(word: String, value: Value?)] { pairs.map { ($0.0, $0.1) } }
        let friday = CalendarDate(text: "2026-12-04"), tomorrow = CalendarDate(text: "2026-12-02")
        #expect { try DetailsInput.single(given([("due:fri", friday), ("--due tomorrow", tomorrow)]), of: "due dates", topic: []) }
            throws: { ($0 as? UsageError)?.message == "'due:fri' and '--due tomorrow' are two different due dates; give one" }
        #expect { try DetailsInput.single(given([("pri:H", Priority.high), ("--no-priority", nil)]), of: "priorities", topic: []) }
            throws: { ($0 as? UsageError)?.message == "'pri:H' and '--no-priority' cannot be used together" }
        // The same value twice is one value; none given leaves the field alone.
        #expect(try DetailsInput.single(given([("due:fri", friday), ("--due fri", friday)]), of: "due dates", topic: []) == .some(friday))
        #expect(try DetailsInput.single(given([("--no-due", CalendarDate?.none)]), of: "due dates", topic: []) == .some(nil))
        #expect(try DetailsInput.single(given([(String, Priority?)]()), of: "priorities", topic: []) == nil)
        #expect(throws: UsageError.self) { try DetailsInput.shorthand(["x", "pri:H", "pri:L"], raw: false, today: today, topic: []) }
    }

    @Test func calendarArithmeticAcrossMonthsAndYears() {
        #expect(CalendarDate(text: "2024-02-28")?.adding(days: 1)?.text == "2024-02-29")
        #expect(CalendarDate(text: "2026-12-31")?.adding(days: 1)?.text == "2027-01-01")
        #expect(CalendarDate(text: "1970-01-01")?.dayNumber == 0 && CalendarDate(text: "1970-01-01")?.weekday == 4)
        #expect(today.weekday == 2)
    }
}
