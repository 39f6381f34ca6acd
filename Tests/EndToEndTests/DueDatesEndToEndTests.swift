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
    /// Taskwarrior takes a due date only from 1980-01-01T00:00:00Z on (it keeps seconds since
    /// 1970, and reads an earlier number back as no date): an export read by the real `task
    /// import` leaves such dates out, in a zone where a day starts before UTC's too, and says so.
    @Test(.enabled(if: installed("task") != nil, "Taskwarrior's task is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func taskwarriorImportsAnExportWithDatesItCannotKeep() throws {
        let task = try #require(installed("task"))
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        // UTC+14 all year (Kiritimati's own rules put it at UTC-10 until 1995).
        let plusFourteen = "<+14>-14"
        machine.environment["TZ"] = plusFourteen
        for words in [["seventies", "due:1975-06-01"], ["new year", "due:1980-01-01"], ["the day after", "due:1980-01-02"]] {
            #expect(machine.run(["todo", "add", "-R", "app"] + words).status == 0)
        }
        let file = machine.home.path + "/tasks.json"
        let exported = machine.run("export", "--format", "taskwarrior", "-o", file)
        #expect(exported.status == 0)
        #expect(exported.stderr.hasPrefix("doogit: warning: the due date of todos 1 2 is left out (Taskwarrior takes dates from 1980-01-01)"),
                "\(exported.stderr)")
        let data = TemporaryDirectory()
        _ = try data.write(".taskrc", "")
        let environment = ["HOME": data.path, "TASKRC": data.path + "/.taskrc", "TASKDATA": data.path + "/.task",
                           "PATH": "/usr/bin:/bin", "TZ": plusFourteen]
        let imported = ChildProcess.run(task, ["rc.confirmation=off", "rc.verbose=nothing", "import", file], environment: environment)
        #expect(imported.status == 0, "task import: \(imported.stderr)")
        let back = ChildProcess.run(task, ["rc.verbose=nothing", "export"], environment: environment)
        guard case .array(let tasks) = try JSONParser.parse(back.stdout) else {
            Issue.record("task export wrote no array: \(back.stdout)")
            return
        }
        #expect(tasks.count == 3)
        #expect(tasks.compactMap { try? $0.string("due") } == ["19800101T100000Z"], "1980-01-02 starts at 10:00 UTC the day before")
    }
}
