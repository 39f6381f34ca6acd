import DoogitSupport
import Testing
import TestSupport

@Suite struct CalendarDateTests {
    @Test("text and back, from year 1 to 9999: four-digit years, two-digit months and days")
    func textRoundTrip() throws {
        #expect(CalendarDate(year: 1, month: 1, day: 1)?.text == "0001-01-01")
        #expect(CalendarDate(year: 9999, month: 12, day: 31)?.text == "9999-12-31")
        #expect(CalendarDate(year: 2026, month: 2, day: 9)?.text == "2026-02-09")
        var random = SplitMix64(seed: 3)
        let first = try #require(CalendarDate(year: 1, month: 1, day: 1)).dayNumber
        let last = try #require(CalendarDate(year: 9999, month: 12, day: 31)).dayNumber
        for _ in 0..<2_000 {
            let date = try #require(CalendarDate(dayNumber: Int.random(in: first...last, using: &random)))
            #expect(CalendarDate(text: date.text) == date)
            #expect(date.text.count == 10)
        }
    }

    @Test("from bytes: exactly YYYY-MM-DD of a real day", arguments: [
        ("2026-12-05", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-13-01", false), ("2026-00-10", false),
        ("2026-1-05", false), ("2026-12-05 ", false), ("2026/12/05", false), ("0000-01-01", false), ("", false),
        ("2026-12-0x", false), ("2026-12-05T00:00:00Z", false),
    ])
    func fromBytes(text: String, valid: Bool) {
        var text = text
        let parsed = text.withUTF8 { CalendarDate(utf8: $0) }
        #expect((parsed != nil) == valid)
        if let parsed {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            #expect([parsed.year, parsed.month, parsed.day] == parts)
            #expect(parsed.text == text)
        }
    }
}
