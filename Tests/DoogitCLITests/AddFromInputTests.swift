@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// `todo add -R REPO -`: the detail options (`--due`, `--priority`, `--tag`, `--note`,
/// `--note-file FILE`) apply to every line, checked as for one todo; all lines are added or none.
@Suite struct AddFromInputTests {
    func harness() throws -> CLIHarness {
        let harness = CLIHarness(environment: ["TZ": "UTC"])
        try harness.openStore().saveRepositories([Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todos(_ harness: CLIHarness) throws -> [TodoRecord] { try harness.openStore().sections().flatMap(\.todos) }

    @Test func everyLineTakesTheOptions() throws {
        let harness = try harness()
        let note = try harness.writeFile("note.txt", "why\nand how\n")
        harness.standardInput = "write the notes\n\ntag v1 +now due:fri\n"
        let added = harness.run("todo", "add", "-R", "tools", "-", "--due", "2031-05-06", "--priority", "M", "--tag", "release",
                                "--tag", "docs", "--note-file", note)
        #expect(added.code == 0 && added.stdout == "Added 2 todos to octocat/tools: 1 2\n", "\(added.stderr)")
        let made = try todos(harness)
        #expect(made.map(\.text) == ["write the notes", "tag v1 +now due:fri"], "a line's words are its text")
        for todo in made {
            #expect(todo.due?.text == "2031-05-06" && todo.priority == .medium && todo.note == "why\nand how")
            #expect(Set(todo.tags) == ["release", "docs"])
        }
        harness.standardInput = "plain\n"
        #expect(harness.run("todo", "add", "-R", "tools", "-", "--note", "typed").code == 0)
        #expect(try todos(harness).last?.note == "typed")
    }

    @Test func aMistakeInTheOptionsAddsNothingAndNamesNoLine() throws {
        let harness = try harness()
        harness.standardInput = "one\ntwo\n"
        let before = try harness.openStore().snapshot()
        let twice = harness.run("todo", "add", "-R", "tools", "-", "--due", "2031-05-06", "--due", "tomorrow")
        expectUsageError(twice, topic: "todo add")
        #expect(twice.errorLines.first?.hasPrefix("doogit: error: '--due 2031-05-06' and '--due tomorrow' are two different due dates; give one.") == true,
                "\(twice.stderr)")
        let priorities = harness.run("todo", "add", "-R", "tools", "-", "--priority", "H", "--priority", "L")
        expectUsageError(priorities, topic: "todo add")
        #expect(priorities.stderr.contains("'--priority H' and '--priority L' are two different priorities"))
        let bad = harness.run("todo", "add", "-R", "tools", "-", "--due", "someday")
        #expect(bad.errorLines == ["doogit: error: 'someday' is not a date: use \(DetailsInput.whenHelp). Run 'doogit help todo add'."])
        expectUsageError(harness.run("todo", "add", "-R", "tools", "-", "--tag", "two words"), topic: "todo add")
        let stdinTwice = harness.run("todo", "add", "-R", "tools", "-", "--note-file", "-")
        expectUsageError(stdinTwice, topic: "todo add")
        expectUsageError(harness.run("todo", "add", "-R", "tools", "-", "--issue"), topic: "todo add")
        #expect(try harness.openStore().snapshot() == before)
    }
}
