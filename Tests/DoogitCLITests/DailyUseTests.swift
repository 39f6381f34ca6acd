import DoogitSupport
import Foundation
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// The shortcuts, filters and ways back that people reach for in their first hour.
@Suite struct DailyUseTests: DailyUseSuite {
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
              "labels": null,
              "author": null,
              "finishedBy": null,
              "assignee": null
            }

            """)
        let missing = harness.run("todo", "show", "9")
        #expect(missing.code == 1)
        #expect(missing.stderr.hasPrefix("doogit: error: no todo with ID 9"))
        expectUsageError(harness.run("todo", "show", "1,2"), topic: "todo show")
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
