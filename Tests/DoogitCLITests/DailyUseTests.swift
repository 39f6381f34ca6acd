import DoogitSupport
import Foundation
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// The shortcuts, filters and ways back that people reach for in their first hour.
@Suite struct DailyUseTests {
    static let widgets = Fixture.repository(id: 42, owner: "acme", name: "widgets", description: nil)

    /// Two tracked repositories: Hello-World with todos 1 (done) and 2, widgets with 3.
    func harness(_ environment: [String: String] = ["LANG": "C.UTF-8"]) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Self.widgets])
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "set up CI", at: Fixture.t0)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write the Release notes", at: Fixture.t1)
        _ = try store.addTodo(repositoryID: Self.widgets.id, text: "ship it", at: Fixture.t2)
        _ = try store.setDone([1], done: true, at: Fixture.t2)
        return harness
    }

    func texts(_ harness: CLIHarness) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for section in try harness.openStore().sections() { result[section.repository.fullName] = section.todos.map(\.text) }
        return result
    }

    // MARK: Short forms

    @Test func doogitAloneIsTheList() throws {
        let harness = try harness()
        let alone = harness.run([String]())
        #expect(alone.code == 0)
        #expect(alone.stdout == harness.run("todo", "list").stdout)
        #expect(alone.stdout.contains("○ 2  write the Release notes"))
        #expect(harness.run("--json").stdout == harness.run("todo", "list", "--json").stdout)
    }

    @Test func theShortFormsDoWhatTheTodoCommandsDo() throws {
        let harness = try harness()
        #expect(harness.run("add", "-R", "widgets", "paint", "it").stdout == "Added 4 to acme/widgets\n")
        #expect(harness.run("done", "4").stdout == "  ● 4  paint it\n")
        #expect(harness.run("undo", "4").stdout == "  ○ 4  paint it\n")
        #expect(harness.run("edit", "4", "paint", "it", "red").stdout == "  ○ 4  paint it red\n")
        #expect(harness.run("ls", "widgets").stdout == "acme/widgets\n  ○ 3  ship it\n  ○ 4  paint it red\n")
        #expect(harness.run("rm", "4").code == 0)
        #expect(harness.run("restore", "4").code == 0)
        #expect(harness.run("move", "4", "-R", "Hello-World").code == 0)
        #expect(harness.run("show", "4").stdout.contains("Repository  octocat/Hello-World"))
        #expect(harness.run("clear", "Hello-World").stdout.hasPrefix("Cleared 1 done todo of octocat/Hello-World\n"))
    }

    /// The first run: nothing tracked. A terminal gets a hint on stderr; a script gets nothing
    /// extra, and `--json` nothing but `[]`.
    @Test func theFirstRunSaysHowToStart() {
        let harness = CLIHarness()
        let terminal = harness.run([], terminal: true, width: 80)
        #expect(terminal.code == 0)
        #expect(terminal.stdout.isEmpty)
        #expect(terminal.stderr == "doogit: nothing is tracked yet; start with 'doogit repo add OWNER/NAME' (or 'doogit repo search' to find one), then 'doogit add -R OWNER/NAME TEXT'\n")
        let script = harness.run([String]())
        #expect(script.code == 0 && script.stdout.isEmpty && script.stderr.isEmpty)
        let json = harness.run(["--json"], terminal: true, width: 80)
        #expect(json.stdout == "[]\n")
        #expect(json.stderr.isEmpty)
        #expect(harness.run(["-q"], terminal: true, width: 80).stderr.isEmpty)
    }

    // MARK: Empty states

    @Test func emptyStatesSaySomethingOnATerminal() throws {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Self.widgets])
        func stderr(_ arguments: String...) -> String { harness.run(arguments, terminal: true, width: 80).stderr }
        #expect(stderr("todo", "list") == "doogit: no todos yet; add one with 'doogit add -R OWNER/NAME TEXT'\n")
        #expect(stderr("todo", "list", "widgets") == "doogit: no todos in acme/widgets yet; add one with 'doogit add -R acme/widgets TEXT'\n")
        #expect(harness.run(["todo", "list", "widgets", "--color=never"], terminal: true, width: 80).stdout == "acme/widgets\n",
                "a named repository's section is shown even when empty")
        #expect(stderr("todo", "list", "widgets", "Hello-World") == "doogit: no todos in these repositories yet; add one with 'doogit add -R OWNER/NAME TEXT'\n")
        _ = try store.addTodo(repositoryID: Self.widgets.id, text: "ship it", at: Fixture.t0)
        #expect(stderr("todo", "list", "--done") == "doogit: no done todos\n")
        #expect(stderr("todo", "list", "--grep", "nothing") == "doogit: no todo contains 'nothing'\n")
        #expect(stderr("todo", "list", "--open", "--grep", "x", "widgets") == "doogit: no open todo in acme/widgets contains 'x'\n")
        #expect(stderr("todo", "list").isEmpty, "a list with todos needs no hint")
        for arguments in [["todo", "list", "--done"], ["todo", "list", "widgets", "--grep", "x"]] {
            let json = harness.run(arguments + ["--json"], terminal: true, width: 80)
            #expect(json.stderr.isEmpty)
            #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [Any])
        }
        #expect(harness.run("todo", "list", "--done").stderr.isEmpty, "not a terminal: no hint")
    }

    @Test func anEmptyRepositoryListSaysHowToStart() {
        let harness = CLIHarness()
        let terminal = harness.run(["repo", "list"], terminal: true, width: 80)
        #expect(terminal.code == 0 && terminal.stdout.isEmpty)
        #expect(terminal.stderr == "doogit: no repositories are tracked; add one with 'doogit repo add OWNER/NAME'\n")
        let json = harness.run(["repo", "list", "--json"], terminal: true, width: 80)
        #expect(json.stdout == "[]\n" && json.stderr.isEmpty)
        #expect(harness.run("repo", "list", "--json").stdout == "[]\n")
    }

    // MARK: todo show

    @Test func showPrintsEveryFieldOfATodo() throws {
        let harness = try harness()
        let uuid = try harness.openStore().requireTodos([1])[0].uuid
        let shown = harness.run("todo", "show", "#1")
        #expect(shown.code == 0)
        #expect(shown.stdout == """
            ID          1
            UUID        \(uuid)
            Repository  octocat/Hello-World
            Text        set up CI
            State       done
            Created     2023-11-14T22:13:20.000Z (0s ago)
            Updated     2023-11-14T22:15:20.000Z (0s ago)
            Done        2023-11-14T22:15:20.000Z (0s ago)
            Issue       none

            """)
        #expect(!harness.run("todo", "show", "2").stdout.contains("Done"), "an open todo has no done time")
        let json = harness.run(["todo", "show", "1", "--json"], terminal: true)
        #expect(json.stdout == """
            {
              "id": 1,
              "uuid": "\(uuid)",
              "repository": "octocat/Hello-World",
              "repositoryId": 1296269,
              "text": "set up CI",
              "done": true,
              "createdAt": "2023-11-14T22:13:20.000Z",
              "updatedAt": "2023-11-14T22:15:20.000Z",
              "doneAt": "2023-11-14T22:15:20.000Z",
              "issue": null,
              "due": null,
              "priority": null,
              "tags": [],
              "note": null,
              "labels": null
            }

            """)
        let missing = harness.run("todo", "show", "9")
        #expect(missing.code == 1)
        #expect(missing.stderr.hasPrefix("doogit: error: no todo with ID 9"))
        expectUsageError(harness.run("todo", "show", "1,2"), topic: "todo show")
    }

    // MARK: Finding things

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

    // MARK: Moving and taking back

    @Test func moveKeepsIDsAndUUIDs() throws {
        let harness = try harness()
        let before = try harness.openStore().requireTodos([1, 2])
        let moved = harness.run("todo", "move", "1,2", "-R", "widgets")
        #expect(moved.code == 0)
        #expect(moved.stdout == "Moved 1 2 to acme/widgets\n")
        let after = try harness.openStore().requireTodos([1, 2])
        #expect(after.map(\.uuid) == before.map(\.uuid))
        #expect(after.allSatisfy { $0.repositoryID == Self.widgets.id })
        #expect(try texts(harness) == ["acme/widgets": ["ship it", "write the Release notes", "set up CI"]])

        let snapshot = try texts(harness)
        let unknown = harness.run("todo", "move", "3", "99", "-R", "Hello-World")
        #expect(unknown.code == 1)
        #expect(unknown.stderr.hasPrefix("doogit: error: no todo with ID 99"))
        #expect(try texts(harness) == snapshot, "nothing moved")
        let untracked = harness.run("todo", "move", "3", "-R", "nobody/nothing")
        #expect(untracked.code == 1)
        #expect(untracked.stderr.contains("run 'doogit repo add nobody/nothing' first"))
        #expect(harness.run("todo", "move", "3", "-R", "Hello-World", "--json").stdout.contains("\"repository\":\"octocat/Hello-World\""))
    }

    @Test func removedTodosCanBeRestored() throws {
        let harness = try harness()
        let removed = harness.run("todo", "rm", "1-3")
        #expect(removed.stdout == """
            Removed 1  set up CI
            Removed 2  write the Release notes
            Removed 3  ship it
            To take them back: doogit todo restore 1-3

            """)
        #expect(try texts(harness).isEmpty)
        #expect(harness.run("todo", "rm", "1", "-q").code == 1, "already removed")
        let restored = harness.run("todo", "restore", "#1", "3")
        #expect(restored.code == 0)
        #expect(restored.stdout == "Restored 1 to octocat/Hello-World  set up CI\nRestored 3 to acme/widgets  ship it\n")
        #expect(try harness.openStore().requireTodos([1])[0].done, "its state comes back too")
        let again = harness.run("todo", "restore", "1", "2")
        #expect(again.code == 1)
        #expect(again.stderr.hasPrefix("doogit: error: nothing to restore as ID 1"))
        #expect(try texts(harness)["octocat/Hello-World"] == ["set up CI"], "nothing changed")
    }

    @Test func clearRemovesDoneTodosRestorably() throws {
        let harness = try harness()
        _ = try harness.openStore().setDone([3], done: true, at: Fixture.t3)
        // The current checkout's repository, by default.
        try harness.writeFile("checkout/.git/config", "[remote \"origin\"]\n\turl = https://github.com/octocat/Hello-World\n")
        let cleared = harness.run(["todo", "clear"], currentDirectory: harness.directory.path + "/checkout")
        #expect(cleared.stdout == "Cleared 1 done todo of octocat/Hello-World\nTo take it back: doogit todo restore 1\n")
        #expect(try texts(harness) == ["octocat/Hello-World": ["write the Release notes"], "acme/widgets": ["ship it"]])
        #expect(harness.run("todo", "clear", "Hello-World").stdout == "No done todos of octocat/Hello-World to clear\n")
        #expect(harness.run("todo", "clear", "--all").stdout == "Cleared 1 done todo\nTo take it back: doogit todo restore 3\n")
        #expect(harness.run("todo", "restore", "1", "3").code == 0)
        #expect(try texts(harness) == ["octocat/Hello-World": ["write the Release notes", "set up CI"], "acme/widgets": ["ship it"]])
        let nowhere = harness.run("todo", "clear")
        expectUsageError(nowhere, topic: "todo clear")
        expectUsageError(harness.run("todo", "clear", "widgets", "--all"), topic: "todo clear")
    }

    @Test func idsAsListsRangesAndHashesEverywhere() throws {
        let harness = try harness()
        #expect(harness.run("todo", "done", "2,3").stdout == "  ● 2  write the Release notes\n  ● 3  ship it\n")
        #expect(harness.run("todo", "undo", "#2", "#3").code == 0)
        #expect(harness.run("todo", "edit", "#2", "notes").stdout == "  ○ 2  notes\n")
        expectUsageError(harness.run("todo", "edit", "1-2", "x"), topic: "todo edit")
        let huge = harness.run("todo", "done", "1-100000")
        expectUsageError(huge, topic: "todo done")
        #expect(huge.stderr.contains("more than 10000 todo IDs"))
    }

    // MARK: Todos from standard input

    @Test func addReadsOneTodoPerLineFromStandardInput() throws {
        let harness = try harness()
        harness.standardInput = "first\n\n   \n  second todo  \r\nthird\n"
        let added = harness.run("todo", "add", "-R", "widgets", "-")
        #expect(added.code == 0)
        #expect(added.stdout == "Added 3 todos to acme/widgets: 4-6\n")
        #expect(try texts(harness)["acme/widgets"] == ["ship it", "first", "second todo", "third"])
        harness.standardInput = "only\n"
        #expect(harness.run("add", "-R", "widgets", "-").stdout == "Added 7 to acme/widgets\n")
        harness.standardInput = "a\nb"
        let json = harness.run("add", "-R", "widgets", "-", "--json").stdout
        #expect(json.hasPrefix("[{\"id\":8,"), "always an array: \(json)")
    }

    @Test func addFromStandardInputIsAllOrNothing() throws {
        let harness = try harness()
        let before = try texts(harness)
        harness.standardInput = "fine\n" + String(repeating: "x", count: 10_001) + "\nalso fine\n"
        let long = harness.run("todo", "add", "-R", "widgets", "-")
        expectUsageError(long, topic: "todo add")
        #expect(long.stderr.contains("line 2 of standard input: the todo text is longer than 10000 characters"))
        harness.standardInput = "\n  \n\t\n"
        let blank = harness.run("todo", "add", "-R", "widgets", "-")
        expectUsageError(blank, topic: "todo add")
        #expect(blank.stderr.contains("no todos on standard input"))
        harness.standardInput = "ok\n\u{1B}[2J\u{07}\n"
        #expect(harness.run("todo", "add", "-R", "widgets", "-").stderr.contains("line 2 of standard input: the todo text is empty"))
        #expect(try texts(harness) == before, "nothing was added")
        #expect(try harness.openStore().sections().flatMap(\.todos).map(\.id).max() == 3)
    }

    @Test func typingTodosAtATerminalSaysHowToEnd() throws {
        let harness = try harness()
        harness.standardInputIsTerminal = true
        harness.standardInput = "typed\n"
        let added = harness.run("todo", "add", "-R", "widgets", "-")
        #expect(added.stderr == "doogit: reading todos from standard input, one a line; end with Ctrl-D\n")
        #expect(added.stdout == "Added 4 to acme/widgets\n")
    }

    // MARK: Answers people expect

    @Test func repoListShowsPrivate() throws {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([
            Fixture.repository(id: 1, owner: "me", name: "secret", description: "mine", isPrivate: true),
            Fixture.repository(id: 2, owner: "me", name: "open", description: nil),
        ])
        #expect(harness.run("repo", "list").stdout == """
            me/open    0 open, 0 done
            me/secret  0 open, 0 done  [private]  mine

            """)
    }

    @Test func asciiIsAcceptedEverywhereMarkersAreShown() throws {
        let harness = try harness()
        #expect(harness.run("todo", "done", "2", "--ascii").stdout == "  [x] 2  write the Release notes\n")
        #expect(harness.run("--ascii", "undo", "2").stdout == "  [ ] 2  write the Release notes\n")
        #expect(harness.run("ls", "widgets", "--ascii").stdout == "acme/widgets\n  [ ] 3  ship it\n")
        #expect(harness.run("ls", "widgets").stdout == "acme/widgets\n  ○ 3  ship it\n")
        #expect(harness.run("show", "3", "--ascii").code == 0)
        #expect(harness.run("repo", "list", "--ascii").code == 0)
    }

    @Test func theDatabaseOptionExpandsTheHomeFolder() throws {
        let harness = CLIHarness()
        try harness.makeDirectory("home")
        let work = try harness.makeDirectory("work")
        #expect(harness.run(["--db=~/x.db", "todo", "list"], currentDirectory: work).code == 0)
        #expect(FileManagerCheck.exists(harness.home + "/x.db"))
        harness.environment["DOOGIT_DB"] = "~/from-env/y.db"
        #expect(harness.run(["repo", "list"], currentDirectory: work).code == 0)
        #expect(FileManagerCheck.exists(harness.home + "/from-env/y.db"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty, "no folder named ~")
        #expect(!FileManagerCheck.exists(FileManager.default.currentDirectoryPath + "/~"), "not where the tests run either")
        let other = harness.run(["--db=~root/x.db", "todo", "list"], currentDirectory: work)
        #expect(other.code == 1)
        #expect(other.stderr == "doogit: error: --db '~root/x.db': doogit expands only ~ and ~/, not ~USER; write the full path of the database file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty)
    }

    // MARK: Authentication

    @Test func loginAtATerminalAsksWithoutEcho() throws {
        let harness = CLIHarness()
        harness.standardInputIsTerminal = true
        // What is typed, not standard input (which would pass), is the token checked.
        harness.typed = "  not a token  "
        harness.standardInput = "ghp_fine"
        let result = harness.run("auth", "login", "--with-token")
        #expect(harness.prompts == ["Paste a GitHub token (it is not shown), then press Enter: "])
        #expect(result.code == 4)
        #expect(result.stderr.contains("that is not a valid token"))
        #expect(harness.transport.requests.isEmpty)

        let nothing = CLIHarness()
        nothing.standardInputIsTerminal = true
        nothing.typed = nil
        expectUsageError(nothing.run("auth", "login", "--with-token"), topic: "auth login")
    }

    @Test func aGhThatTimesOutIsNamed() throws {
        let harness = CLIHarness()
        harness.programResult = (ProgramRunner.timedOut, "")
        let result = harness.run("auth", "status")
        #expect(result.code == 4)
        #expect(result.stderr == "doogit: error: no token: 'gh auth token --hostname github.com' did not answer within 5 s (gh may be waiting for a keyring); set GH_TOKEN, or run 'doogit auth login --with-token' with a token on standard input\n")
    }

    @Test func tokenSourcesHaveIdentifiers() {
        #expect(TokenSource.environment("GH_TOKEN").identifier == "GH_TOKEN")
        #expect(TokenSource.environment("GITHUB_TOKEN").identifier == "GITHUB_TOKEN")
        #expect(TokenSource.saved(path: "/x/tokens", origin: "https://api.github.com").identifier == "saved")
        #expect(TokenSource.ghCLI(hostname: "github.com").identifier == "gh")
    }
}
