import DoogitMerge
import DoogitStore
import DoogitSupport
import Testing

/// Due dates, priorities and tags as the list shows, orders and picks them; `next`.
@Suite struct DetailsListTests {
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld, JSONOutputTests.widgets])
        return harness
    }

    /// The first millisecond of a local day after `moment` (whatever TZ the tests run in).
    func nextMidnight(after moment: Timestamp) throws -> Timestamp {
        let day = try #require(CalendarDate.local(at: moment))
        var low = moment.millisecondsSinceEpoch, high = low + 30 * 3_600_000
        while high - low > 1 {
            let middle = (low + high) / 2
            if CalendarDate.local(at: Timestamp(millisecondsSinceEpoch: middle)) == day { low = middle } else { high = middle }
        }
        return Timestamp(millisecondsSinceEpoch: high)
    }

    @Test func todayAndTomorrowTurnAtLocalMidnight() throws {
        let harness = try harness()
        let midnight = try nextMidnight(after: harness.now)
        harness.now = Timestamp(millisecondsSinceEpoch: midnight.millisecondsSinceEpoch - 1)
        #expect(harness.run("add", "-R", "Hello-World", "before", "due:tomorrow").code == 0)
        harness.now = midnight
        #expect(harness.run("add", "-R", "Hello-World", "after", "due:today").code == 0)
        let store = try harness.openStore()
        let dues = try store.sections().flatMap(\.todos).map { $0.due }
        #expect(dues.count == 2 && dues[0] != nil && dues[0] == dues[1], "tomorrow a millisecond before midnight is today after it")
        #expect(harness.run("ls").stdout.contains("due today"))
        harness.now = Timestamp(millisecondsSinceEpoch: midnight.millisecondsSinceEpoch + 2 * 86_400_000)
        #expect(harness.run("ls").stdout.contains("2 days overdue"))
    }

    @Test func openTodosComeByDueDateThenPriorityAndFiltersPick() throws {
        let harness = try harness()
        for words in [["plain"], ["low", "pri:L"], ["high", "pri:H", "+ci"], ["later", "due:+5d", "+ci"], ["late", "due:2023-11-01"],
                      ["soon", "due:tomorrow", "pri:M"]] {
            #expect(harness.run(["add", "-R", "Hello-World"] + words).code == 0)
        }
        #expect(harness.run("done", "1").code == 0)
        let listed = harness.run("ls").stdout
        let order = listed.split(separator: "\n").dropFirst().map { String($0.drop { !$0.isNumber }.prefix { $0.isNumber }) }
        #expect(order == ["5", "6", "4", "3", "2", "1"], "overdue, due soonest, later; then H, L; done last: \(listed)")
        #expect(listed.contains("(H) high  +ci") && listed.contains("late  13 days overdue"), "\(listed)")
        func ids(_ arguments: String...) -> [String] {
            harness.run(["ls", "--json"] + arguments).stdout.split(separator: "\"id\":").dropFirst(2).map { String($0.prefix { $0.isNumber }) }
        }
        #expect(ids("--tag", "ci") == ["4", "3"])
        #expect(ids("--priority", "h") == ["3"])
        #expect(ids("--due", "overdue") == ["5"])
        #expect(ids("--due", "today") == ["5"])
        #expect(ids("--due", "week") == ["5", "6", "4"])
        #expect(ids("--due", "tomorrow", "--priority", "M") == ["6"])
        let bad = harness.run("ls", "--due", "someday")
        #expect(bad.code == 2 && bad.stderr.contains("'someday' is not a date"))
    }

    @Test func nextShowsTheMostPressingAcrossRepositories() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "docs").code == 0)
        #expect(harness.run("add", "-R", "acme/widgets", "ship", "due:today").code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "fix", "pri:H").code == 0)
        let next = harness.run("next", "-n", "2").stdout
        #expect(next.split(separator: "\n").count == 2 && next.hasPrefix("  [ ] 2  acme/widgets") && next.contains("[ ] 3  octocat/Hello-World"),
                "\(next)")
        #expect(harness.run("next", "--json").stdout.hasPrefix(#"[{"id":2,"repository":"acme/widgets""#))
        #expect(harness.run("next", "--count", "0").code == 2)
    }

    @Test func editChangesOnlyWhatItNamesAndTheNoteShows() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "ship", "+ci", "--note", "first line\nsecond line").code == 0)
        #expect(harness.run("edit", "1", "--due", "2023-12-24", "--priority", "L", "--tag", "release", "--untag", "ci").code == 0)
        let todo = try harness.openStore().todo(id: 1)
        #expect(todo.text == "ship" && todo.due == CalendarDate(text: "2023-12-24") && todo.priority == .low && todo.tags == ["release"])
        #expect(harness.run("show", "1").stdout.contains("Note        first line\n            second line"))
        #expect(harness.run("ls", "-l").stdout.contains("second line"))
        #expect(harness.run("edit", "1", "--no-due", "--no-priority", "--no-note").code == 0)
        let cleared = try harness.openStore().todo(id: 1)
        #expect(cleared.due == nil && cleared.priority == nil && cleared.note == nil && cleared.tags == ["release"])
        let bad = harness.run("edit", "1", "--due", "2023-02-30")
        #expect(bad.code == 2 && bad.stderr.contains("'2023-02-30' is not a date"))
        #expect(harness.run("edit", "1", "--due", "today", "--no-due").code == 2)
    }
}

extension DetailsListTests {
    @Test func completionOffersTheTagsInUse() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "Hello-World", "one", "+ci", "+release").code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "two", "+ci").code == 0)
        #expect(harness.run("add", "-R", "Hello-World", "three", "+gone").code == 0)
        #expect(harness.run("rm", "3").code == 0)
        #expect(harness.run("__complete", "--", "todo", "list", "--tag", "").stdout == "ci\t2 todos\nrelease\t1 todo\n")
        #expect(harness.run("__complete", "--", "todo", "edit", "1", "--untag", "r").stdout == "release\t1 todo\n")
    }
}
