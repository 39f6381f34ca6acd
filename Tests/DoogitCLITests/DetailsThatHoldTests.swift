import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// Details a user can trust: what is done is never overdue, a date is one of the years a todo can
/// be due in, a command that says two things of one field is refused, repeated filters mean what
/// they say, `next` ranks by urgency (one repository with `-R`), the lines commands echo are the
/// list's, and no export carries a date the program reading it refuses.
@Suite struct DetailsThatHoldTests {
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld, JSONOutputTests.widgets])
        return harness
    }

    /// The harness's today, as doogit sees it wherever the tests run (TZ).
    func today(_ harness: CLIHarness) throws -> CalendarDate {
        try #require(CalendarDate.local(at: harness.now))
    }

    /// The IDs `arguments` list (`todo list --json` or `next --json`), in order.
    func ids(_ harness: CLIHarness, _ arguments: String...) -> [String] {
        let json = harness.run(arguments + ["--json"]).stdout
        return json.split(separator: "\"id\":").dropFirst().compactMap { piece in
            let digits = piece.prefix { $0.isNumber }
            return digits.isEmpty ? nil : String(digits)
        }.filter { !$0.isEmpty }
    }

    @Test func whatIsDoneIsNeverOverdue() throws {
        let harness = try harness()
        let lastMonth = try #require(try today(harness).adding(days: -31)).text
        #expect(harness.run("add", "-R", "Hello-World", "finished", "due:" + lastMonth).code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "late", "due:" + lastMonth).code == 0)
        let done = harness.run("done", "1")
        #expect(done.stdout == "  [x] 1  finished  due \(lastMonth)\n", "the echoed line says no overdue")
        let list = harness.run("ls").stdout
        #expect(list.contains("[x] 1  finished  due \(lastMonth)") && list.contains("[ ] 2  late  31 days overdue"), "\(list)")
        #expect(ids(harness, "ls", "--due", "overdue") == ["1296269", "2"], "the section, then the open todo alone")
        #expect(harness.run("show", "1").stdout.contains("Due         \(lastMonth)\n"))
        #expect(harness.run("show", "2").stdout.contains("Due         \(lastMonth) (31 days overdue)\n"))
        #expect(ids(harness, "next", "--due", "overdue") == ["2"])
        // Open again, it is overdue again.
        #expect(harness.run("undo", "1").stdout == "  [ ] 1  finished  31 days overdue\n")
    }

    @Test func theLinesCommandsEchoAreTheListsLines() throws {
        let harness = try harness()
        let soon = try #require(try today(harness).adding(days: 2)).text
        #expect(harness.run("add", "-R", "Hello-World", "ship", "+ci").code == 0)
        let edited = harness.run("edit", "1", "--due", soon, "--note", "with the notes")
        #expect(edited.stdout == "  [ ] 1  ship  due in 2 days +ci [note]\n", "\(edited.stdout)")
        #expect(harness.run("ls").stdout.hasSuffix("  [ ] 1  ship  due in 2 days +ci [note]\n"))
        let utf8 = CLIHarness(environment: ["LANG": "C.UTF-8"])
        try utf8.openStore().saveRepositories([Fixture.helloWorld])
        #expect(utf8.run("add", "-R", "Hello-World", "ship", "--note", "n").code == 0)
        #expect(utf8.run("ls").stdout.hasSuffix("  ○ 1  ship  ✎\n"))
    }

    @Test func aDateOutsideTheYearsIsRefusedWhereverItIsTypedAndNothingChanges() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "kept").code == 0)
        let store = try harness.openStore()
        let before = try store.snapshot()
        for arguments in [["add", "-R", "Hello-World", "x", "due:0001-01-01"], ["add", "-R", "Hello-World", "x", "--due", "1969-12-31"],
                          ["edit", "1", "--due", "0001-01-01"], ["edit", "1", "due:1900-02-03"],
                          ["ls", "--due", "0001-01-01"], ["next", "--due", "1969-12-31"]] {
            let result = harness.run(arguments)
            let word = arguments.last.map { $0.hasPrefix("due:") ? String($0.dropFirst(4)) : $0 } ?? ""
            #expect(result.code == 2, "\(arguments)")
            #expect(result.errorLines.count == 1
                    && result.stderr.hasPrefix("doogit: error: '\(word)' is not a date a todo can be due on: use a year from 1970 to 9999"),
                    "\(arguments): \(result.stderr)")
        }
        #expect(try store.snapshot() == before)
        #expect(harness.run("edit", "1", "--due", "9999-12-31").code == 0)
        #expect(harness.run("edit", "1", "due:1970-01-01").code == 0)
    }

    @Test func twoDueDatesOrPrioritiesInOneCommandAreRefusedNamingBoth() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "kept").code == 0)
        let store = try harness.openStore()
        let before = try store.snapshot()
        let cases: [([String], String)] = [
            (["add", "-R", "Hello-World", "x", "due:fri", "--due", "tomorrow"], "'due:fri' and '--due tomorrow' are two different due dates"),
            (["add", "-R", "Hello-World", "x", "due:fri", "due:mon"], "'due:fri' and 'due:mon' are two different due dates"),
            (["add", "-R", "Hello-World", "x", "pri:H", "--priority", "L"], "'pri:H' and '--priority L' are two different priorities"),
            (["edit", "1", "--priority", "M", "--priority", "H"], "'--priority M' and '--priority H' are two different priorities"),
            (["edit", "1", "due:fri", "--no-due"], "'due:fri' and '--no-due' cannot be used together"),
            (["edit", "1", "--due", "today", "--no-due"], "'--due today' and '--no-due' cannot be used together"),
            (["edit", "1", "pri:L", "--no-priority"], "'pri:L' and '--no-priority' cannot be used together"),
        ]
        for (arguments, message) in cases {
            let result = harness.run(arguments)
            #expect(result.code == 2 && result.errorLines.count == 1 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try store.snapshot() == before)
        // The same value said twice is one value.
        #expect(harness.run("edit", "1", "pri:h", "--priority", "H", "due:fri", "--due", "friday").code == 0)
        #expect(try store.todo(id: 1).priority == .high)
    }

    @Test func aRepeatedTagMeansAllARepeatedPriorityOrDueMeansAny() throws {
        let harness = try harness()
        let today = try today(harness)
        let late = try #require(today.adding(days: -3)).text, soon = try #require(today.adding(days: 2)).text
        for words in [["both", "+ci", "+docs", "pri:H"], ["ci only", "+ci", "pri:M"], ["docs only", "+docs", "pri:L"],
                      ["late", "due:" + late], ["soon", "due:" + soon], ["plain"]] {
            #expect(harness.run(["add", "-R", "Hello-World"] + words).code == 0)
        }
        #expect(ids(harness, "ls", "--tag", "ci", "--tag", "docs").dropFirst() == ["1"])
        #expect(ids(harness, "ls", "--priority", "H", "--priority", "L").dropFirst() == ["1", "3"])
        #expect(ids(harness, "ls", "--due", "overdue", "--due", soon).dropFirst() == ["4", "5"])
        #expect(ids(harness, "ls", "--due", "overdue", "--due", "today").dropFirst() == ["4"])
        #expect(ids(harness, "ls", "--tag", "ci", "--priority", "M", "--priority", "L").dropFirst() == ["2"], "kinds: all must hold")
        #expect(ids(harness, "next", "--priority", "M", "--priority", "H") == ["1", "2"])
    }

    @Test func nextRanksByUrgencyAndTheListKeepsItsOrder() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "far off", "due:9999-12-31").code == 0)
        #expect(harness.run("add", "-R", "acme/widgets", "pressing", "pri:H").code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "someday").code == 0)
        #expect(harness.run("add", "-R", "acme/widgets", "today", "due:today", "pri:L").code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "pressing here", "pri:H").code == 0)
        // A day later, everything is a day old.
        harness.now = Timestamp(secondsSinceEpoch: harness.now.millisecondsSinceEpoch / 1000 + 86_400)
        #expect(ids(harness, "next") == ["4", "2", "5", "1", "3"],
                "overdue by a day and L, then H (a tie: the list's order, then the first made), then a date far off, then nothing")
        #expect(ids(harness, "ls").filter { !["42", "1296269"].contains($0) } == ["4", "2", "1", "5", "3"],
                "each section keeps its order: due date, then priority")
        let next = harness.run("next", "--json").stdout
        #expect(next.contains(#""text":"far off","#) && next.contains(#""urgency":2.41}"#), "12 x 0.2 + 2 x 1/365: \(next)")
        #expect(next.contains(#""urgency":6.01}"#) && next.contains(#""urgency":0.01}"#), "\(next)")
        // 12 x (0.2 + 0.8 x 15/21) + 1.8 + 2/365
        #expect(next.contains(#""text":"today","done":false"#) && next.contains(#""urgency":11.06}"#), "\(next)")
        #expect(ids(harness, "next", "-R", "acme/widgets") == ["4", "2"])
        #expect(ids(harness, "next", "-R", "Hello-World", "-R", "widgets", "-n", "3") == ["4", "2", "5"])
        #expect(ids(harness, "next", "-R", "Hello-World") == ["5", "1", "3"])
        #expect(harness.run("next", "-R", "nope").code == 1)
        let long = harness.run("next", "-l", "-n", "2").stdout
        #expect(long == "  [ ] 4  11.06  1d  acme/widgets  (L) today  1 day overdue\n"
                     + "  [ ] 2   6.01  1d  acme/widgets  (H) pressing\n", "\(long)")
    }

    @Test func aRemovedTodoIsNamedAsRemovedWithTheCommandThatBringsItBack() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "gone").code == 0)
        #expect(harness.run("rm", "1").code == 0)
        for arguments in [["done", "1"], ["show", "1"], ["edit", "1", "x"], ["rm", "1"]] {
            let result = harness.run(arguments)
            #expect(result.code == 1 && result.errorLines == [
                "doogit: error: todo 1 was removed; nothing was changed. Bring it back with 'doogit todo restore 1' "
                    + "(see 'doogit todo list --removed')",
            ], "\(arguments): \(result.stderr)")
        }
        let mixed = harness.run("done", "1", "7")
        #expect(mixed.code == 1 && mixed.stderr.contains("todo 1 was removed, and there is no todo with ID 7; nothing was changed"))
        #expect(harness.run("done", "7").stderr.contains("no todo with ID 7; nothing was changed"))
    }
    /// A date an older doogit took (year 1) is kept, shown and merged, but never exported to a
    /// program that refuses it; Taskwarrior also refuses what starts before 1980. The export says
    /// which todos lost their date.
    @Test func anExportNeverCarriesADateThePeerRefuses() throws {
        let harness = try harness()
        for words in [["ancient", "due:2026-01-01"], ["seventies", "due:1975-06-01"], ["fine", "due:2026-12-24"]] {
            #expect(harness.run(["add", "-R", "Hello-World"] + words).code == 0)
        }
        try harness.openStore().database.run("UPDATE todos SET due = '0001-01-01' WHERE id = 1")
        #expect(harness.run("ls").stdout.contains("ancient  "), "still shown")
        let todoTxt = harness.run("export", "--format", "todotxt")
        #expect(todoTxt.code == 0)
        #expect(!todoTxt.stdout.contains("0001-01-01") && todoTxt.stdout.contains("due:1975-06-01") && todoTxt.stdout.contains("due:2026-12-24"))
        #expect(todoTxt.errorLines == ["doogit: warning: the due date of todo 1 is left out (doogit's todo.txt import takes years 1970 to 9999); "
                                       + "set another with 'doogit todo edit ID --due WHEN', or clear it with --no-due"])
        let tasks = harness.run("export", "--format", "taskwarrior")
        #expect(tasks.code == 0 && !tasks.stdout.contains("\"due\":\"0001") && !tasks.stdout.contains("\"due\":\"1975"))
        #expect(tasks.stdout.contains("\"due\":\"20261224T"))
        #expect(tasks.errorLines == ["doogit: warning: the due date of todos 1 2 is left out (Taskwarrior takes dates from 1980-01-01); "
                                     + "set another with 'doogit todo edit ID --due WHEN', or clear it with --no-due"])
        #expect(harness.run("export").stdout.contains("\"due\":\"0001-01-01\""), "doogit's own format keeps it")
        #expect(harness.run("-q", "export", "--format", "taskwarrior").stderr.isEmpty)
    }
}
