import DoogitSupport
import Foundation
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// Finding a todo: several repositories at once, the current checkout's, text that matches, and
/// each todo's age.
@Suite struct FindingTodosTests: DailyUseSuite {
    @Test func listTakesSeveralRepositoriesAndRepeatedR() throws {
        let harness = try harness()
        let both = harness.run("todo", "list", "widgets", "-R", "octocat/Hello-World").stdout
        #expect(both.contains("acme/widgets") && both.contains("octocat/Hello-World"))
        #expect(harness.run("todo", "list", "-R", "widgets", "-R", "widgets").stdout == "acme/widgets\n  ○ 3  ship it\n")
        #expect(harness.run("ls", "-R", "Hello-World", "--open").stdout
            == "octocat/Hello-World  My first repository on GitHub!\n  ○ 2  write the Release notes\n")
        let unknown = harness.run("todo", "list", "widgets", "nobody/nothing")
        #expect(unknown.code == 1)
        #expect(unknown.stderr.contains("'nobody/nothing' is not tracked"))
    }

    @Test func dotIsTheCurrentCheckoutsRepository() throws {
        let harness = try harness()
        try harness.writeFile("checkout/.git/config", "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n")
        let inside = harness.directory.path + "/checkout"
        #expect(harness.run(["todo", "list", "."], currentDirectory: inside).stdout == "acme/widgets\n  ○ 3  ship it\n")
        #expect(harness.run(["ls", "-R", ".", "Hello-World", "--done"], currentDirectory: inside).stdout
            == "acme/widgets\n\noctocat/Hello-World  My first repository on GitHub!\n  ● 1  set up CI\n")
        let outside = harness.run(["todo", "list", "."])
        expectUsageError(outside, topic: "todo list")
        #expect(outside.stderr.contains("'.' stands for the current checkout's repository, but this directory is not a git checkout"))
    }

    @Test func grepFindsTextIgnoringCaseAndHighlightsItInColour() throws {
        let harness = try harness()
        #expect(harness.run("todo", "list", "--grep", "RELEASE").stdout
            == "octocat/Hello-World  My first repository on GitHub!\n  ○ 2  write the Release notes\n")
        let coloured = harness.run(["todo", "list", "--grep", "release", "--color=always"], terminal: true, width: 80).stdout
        #expect(coloured.contains("write the \u{1B}[1;31mRelease\u{1B}[0m notes"))
        let plain = harness.run(["todo", "list", "--grep", "release", "--color=never"], terminal: true, width: 80).stdout
        #expect(!plain.contains("\u{1B}"), "no colour, no highlight")
        let json = harness.run("todo", "list", "--grep", "ship", "--json").stdout
        #expect(json.contains("ship it") && !json.contains("Release"))
    }

    @Test func longShowsEachTodosAge() throws {
        let harness = try harness()
        // The harness's clock stands at t0; todos made a while before it show their age.
        let store = try harness.openStore()
        let week = Timestamp(millisecondsSinceEpoch: Fixture.t0.millisecondsSinceEpoch - 9 * 86_400_000)
        _ = try store.addTodo(repositoryID: Self.widgets.id, text: "old one", at: week)
        #expect(harness.run("todo", "list", "widgets", "--long").stdout == """
            acme/widgets
              ○ 3  0s  ship it
              ○ 4  9d  old one

            """)
        #expect(harness.run("ls", "widgets", "-l").stdout == harness.run("todo", "list", "widgets", "--long").stdout)
    }

    @Test func ageUsesTheLargestWholeUnit() {
        func age(_ seconds: Int64) -> String {
            Age.short(from: Timestamp(secondsSinceEpoch: 0), to: Timestamp(secondsSinceEpoch: seconds))
        }
        #expect(age(0) == "0s")
        #expect(age(59) == "59s")
        #expect(age(60) == "1min")
        #expect(age(3599) == "59min")
        #expect(age(3600) == "1h")
        #expect(age(86_399) == "23h")
        #expect(age(86_400) == "1d")
        #expect(age(13 * 86_400) == "13d")
        #expect(age(14 * 86_400) == "2w")
        #expect(age(61 * 86_400) == "2mo")
        #expect(age(400 * 86_400) == "1y")
        #expect(Age.short(from: Timestamp(secondsSinceEpoch: 10), to: Timestamp(secondsSinceEpoch: 0)) == "0s")
    }

    /// The issue-state column stays out until a todo has an issue; then it lines up.
    @Test func theIssueStateColumnTakesRoomOnlyWhenFilled() {
        var renderer = ListRenderer(style: Style(color: false, unicode: true), width: nil)
        let todos = [Fixture.todo(id: 1, text: "a"), Fixture.todo(id: 12, text: "b")]
        renderer.long = LongColumns(now: Fixture.t3)
        let section = [TodoSection(repository: Fixture.helloWorld, todos: todos)]
        #expect(renderer.todoList(section) == """
            octocat/Hello-World  My first repository on GitHub!
              ○  1  1h  a
              ○ 12  1h  b

            """)
        renderer.long = LongColumns(now: Fixture.t3, issueState: { $0.id == 12 ? "closed" : nil })
        #expect(renderer.todoList(section) == """
            octocat/Hello-World  My first repository on GitHub!
              ○  1  1h          a
              ○ 12  1h  closed  b

            """)
    }
}
