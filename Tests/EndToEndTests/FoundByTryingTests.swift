import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Cases a new user met, each as they met it.
@Suite(.serialized)
struct FoundByTryingTests {
    /// Widening import from assigned issues to all imports the issues the new setting covers on
    /// the next sync, though they did not change since the last read.
    @Test func wideningImportBringsWhatItNowCovers() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        machines.github.activity.addIssue(repository: 1, title: "mine", assignees: ["octocat"])
        machines.github.activity.addIssue(repository: 1, title: "someone else's", assignees: ["hubot"])
        #expect(machine.run("repo", "set", "app", "--import-issues", "assigned").status == 0)
        #expect(machine.run("sync").status == 0)
        #expect(try machines.list(machine) == ["octocat/app: mine #1"])
        #expect(machine.run("repo", "set", "app", "--import-issues", "all").status == 0)
        let widened = machine.run("sync")
        #expect(widened.stdout == "octocat/app#2: imported as todo 2: someone else's\n", "\(widened.stdout)")
        #expect(try machines.list(machine) == ["octocat/app: mine #1, someone else's #2"])
    }

    /// Two machines running `remote init --create` at once: the second finds the repository the
    /// first made, and both keep their todos there.
    @Test func twoMachinesCreatingTheRemoteAtOnceBothSucceed() throws {
        let machines = try Machines(2, remote: false)
        let (a, b) = (machines[0], machines[1])
        let (arrived, release) = machines.holdFirstPost { $0 == "/user/repos" }
        defer { release.signal() }
        let held = try ChildProcess.spawn(DoogitBinary.path, ["remote", "init", "--create"], environment: a.environment)
        try #require(arrived.wait(seconds: 60))
        let second = b.run("remote", "init", "--create")
        #expect(second.status == 0 && second.stdout.hasPrefix("Created octocat/doogit-data (private)"), "\(second.stderr)")
        release.signal()
        let firstDone = held.finish()
        #expect(firstDone.status == 0, "\(firstDone.stderr)")
        #expect(firstDone.stdout == "Todos will be kept in octocat/doogit-data (on master); run 'doogit sync' to exchange them\n")
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        machines.syncAll([0, 1])
        #expect(try machines.list(b) == ["octocat/app: from a"])
    }

    /// Two records share a name (one gone from GitHub, one made since under its name): removing
    /// by the name says which went.
    @Test func removingARepositoryByASharedNameSaysWhichOne() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0], github = machines.github
        github.delete(1)
        #expect(machine.run("sync").status == 0)
        github.addRepository(id: 2, name: "app", description: "the new app")
        #expect(machine.run("repo", "add", "octocat/app").status == 0)
        #expect(machine.run("todo", "add", "-R", "id:1", "kept").status == 0)
        let refused = machine.run("repo", "remove", "id:1")
        #expect(refused.status == 1 && refused.stderr.contains("octocat/app (id:1) has 1 todo"), "\(refused.stderr)")
        let removed = machine.run("repo", "remove", "octocat/app")
        #expect(removed.stdout == "Stopped tracking octocat/app (id:2)\n", "\(removed.stdout)")
        #expect(machine.run("repo", "remove", "octocat/app", "--force").stdout == "Stopped tracking octocat/app and its 1 todo\n")
    }

    /// Moving a linked todo never drops its link silently: refused, naming the issue, unless
    /// --unlink, which says what became of it.
    @Test func movingALinkedTodoSaysWhatBecomesOfTheLink() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        machines.github.addRepository(id: 2, name: "site", description: nil)
        #expect(machine.run("repo", "add", "octocat/site").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(machine.run("todo", "promote", "1").status == 0)
        let before = try machine.snapshot()
        let refused = machine.run("todo", "move", "1", "-R", "site")
        #expect(refused.status == 1 && refused.stderrLines == ["doogit: error: todo 1 is linked to octocat/app#1, which would stay behind; nothing was moved. Add --unlink to move it without its issue"])
        #expect(try machine.snapshot() == before)
        let moved = machine.run("todo", "move", "1", "-R", "site", "--unlink")
        #expect(moved.stdout == "Moved 1 to octocat/site\nTodo 1 is no longer linked to octocat/app#1 (the issue is left as it is)\n")
        #expect(try machines.list(machine) == ["octocat/site: ship it"])
    }

    /// `todo clear` away from a checkout suggests what it takes (a REPO, or --all), not -R.
    @Test func clearOutsideACheckoutSuggestsWhatItTakes() throws {
        let machines = try Machines(1, remote: false)
        let cleared = machines[0].run(["todo", "clear"], directory: machines[0].home.path)
        #expect(cleared.status == 2)
        #expect(cleared.stderrLines == ["doogit: error: no repository given, and this directory is not a git checkout with a GitHub remote; name one (doogit todo clear OWNER/NAME) or clear every repository's with --all. Run 'doogit help todo clear'."])
        #expect(!cleared.stderr.contains("-R"))
        #expect(machines[0].run(["todo", "clear", "--all"], directory: machines[0].home.path).status == 0)
    }

    /// Linking to a closed issue says so; an archived repository whose issues GitHub refuses to
    /// change says so on link and in sync, as a write GitHub refused (not a read).
    @Test func aClosedIssueAndARefusedPushAreSaid() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0], github = machines.github
        github.activity.addIssue(repository: 1, title: "old", state: "closed")
        #expect(machine.run("todo", "add", "-R", "app", "old news").status == 0)
        let linked = machine.run("todo", "link", "1", "1")
        #expect(linked.status == 0)
        #expect(linked.stderrLines == ["doogit: octocat/app#1 is closed; todo 1 stays open (finish it with 'doogit todo done 1')"])

        #expect(machine.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "archived soon").status == 0)
        #expect(machine.run("todo", "promote", "2").status == 0)
        github.update(1) { $0.archived = true }
        #expect(machine.run("sync").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "linked late").status == 0)
        github.activity.addIssue(repository: 1, title: "late")
        let note = machine.run("todo", "link", "3", "3")
        #expect(note.stderr.contains("octocat/app is archived, so GitHub refuses changes to its issues: sync cannot push to octocat/app#3"))
        #expect(machine.run("todo", "done", "2").status == 0)
        let refused = machine.run("sync")
        #expect(refused.status == 1 && refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("sync finished, but 1 issue could not be updated (octocat/app#2: not updated: the repository is archived"), "\(refused.stderr)")
        #expect(refused.stderr.contains("turn pushing off with 'doogit repo set REPO --push-issues off'") && !refused.stderr.contains("read"))
        #expect(machine.run("repo", "set", "app", "--push-issues", "off").status == 0)
        #expect(machine.run("sync").status == 0, "the advice, followed, works")
    }

    /// A todo.txt export reads back as the same todos, whatever their texts: starting with `x `,
    /// a priority or a date, holding `+word` or `key:value`, linked to an issue.
    @Test func aTodoTxtExportImportsBackAsTheSameTodos() throws {
        let machines = try Machines(2, remote: false)
        let (a, b) = (machines[0], machines[1])
        for text in ["x marks the spot", "(A) first things first", "2026-01-01 starts with a date", "tag +ci and +octocat/app",
                     "due:tomorrow key:value", "linked"] {
            #expect(a.run("todo", "add", "-R", "app", text).status == 0)
        }
        #expect(a.run("todo", "done", "2").status == 0)
        #expect(a.run("todo", "promote", "6").status == 0)
        let exported = a.run("export", "--format", "todotxt")
        #expect(!exported.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control characters")
        #expect(exported.stdout.contains("linked issue:octocat/app#1 +octocat/app"))
        let file = try b.home.write("todo.txt", exported.stdout)
        let imported = b.run("import", file)
        #expect(imported.status == 0 && imported.stdout == "Imported 6 todos from \(file)\n", "\(imported.stderr)")
        #expect(try machines.list(b) == machines.list(a))
    }

    /// GitHub refusing a token says where the token came from, and what to do about that one.
    @Test func aRejectedTokenSaysWhereItCameFromAndWhatToDo() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        let saved = machine.run(["auth", "login", "--with-token"], stdin: machines.github.token + "\n")
        #expect(saved.status == 0)
        machine.environment["GH_TOKEN"] = "ghp_wrong"
        let rejected = machine.run("repo", "add", "octocat/app")
        #expect(rejected.status == 4)
        #expect(rejected.stderr.contains("GitHub rejected the token in GH_TOKEN (Bad credentials); GH_TOKEN wins over a saved token, so set it to a valid token or unset it (unset GH_TOKEN)"), "\(rejected.stderr)")
        machine.environment["GH_TOKEN"] = nil
        #expect(machine.run("repo", "add", "octocat/app").status == 0, "unset, the saved token works")
        let login = machine.run(["auth", "login", "--with-token"], stdin: "ghp_wrong\n")
        #expect(login.status == 4 && login.stderr.contains("GitHub rejected that token (Bad credentials); nothing was saved"))
        #expect(!login.stderr.contains("auth login"), "the command that just failed is not suggested")
    }
}
