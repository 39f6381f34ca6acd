import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Due dates are the local calendar's: `TZ` far from UTC, on either side, decides what today is.
@Suite(.serialized)
struct DueDatesEndToEndTests {
    /// The date in `zone` now, as `YYYY-MM-DD`.
    func today(in zone: String) throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"])
    func todayIsTheLocalCalendarsToday(zone: String) throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "app").status == 0)
        sandbox.environment["TZ"] = zone
        let before = try today(in: zone)
        let added = sandbox.run("todo", "add", "-R", "app", "ship", "due:today", "--json")
        let after = try today(in: zone)
        #expect(added.status == 0, "\(added.stderr)")
        let due = try JSONParser.parse(added.stdout)["due"]
        // Read before and after the command: one of them is the day it ran in (midnight may pass between).
        #expect(due == .string(before) || due == .string(after), "\(zone): \(added.stdout)")
        #expect(sandbox.run("todo", "list").stdout.contains("ship  due today") || before != after)
    }
}
