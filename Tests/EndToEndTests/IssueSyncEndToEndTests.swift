import DoogitSupport
import Foundation
import Testing
import TestSupport

/// `doogit sync` with issues and commits, as a new user would meet it.
@Suite(.serialized)
struct IssueSyncEndToEndTests {
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "app").status == 0)
        return sandbox
    }

    func uuid(_ sandbox: Sandbox, _ id: Int) throws -> String {
        guard case .string(let uuid)? = try JSONParser.parse(sandbox.run("todo", "show", String(id), "--json").stdout)["uuid"]
        else { throw JSONError.missing(field: "uuid") }
        return uuid
    }

    @Test func closingTheIssueFinishesTheTodoAndFinishingTheTodoClosesTheIssueOnlyWhenPushIsOn() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("todo", "add", "-R", "app", "write", "the", "docs").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "app", "ship", "it").status == 0)
        #expect(sandbox.run("todo", "promote", "1").status == 0)
        #expect(sandbox.run("todo", "promote", "2").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty)

        sandbox.github.activity.close(repository: 1, number: 1)
        let pulled = sandbox.run("sync")
        #expect(pulled.status == 0 && pulled.stderr.isEmpty)
        #expect(pulled.stdout == "octocat/app#1: closed on GitHub; todo 1 marked done\n")
        #expect(sandbox.run("todo", "list").stdout.contains("● 1  #1 write the docs"))

        #expect(sandbox.run("todo", "done", "2").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty, "pushing is off: nothing is written")
        #expect(sandbox.github.activity.issue(repository: 1, number: 2)?.state == "open")
        #expect(sandbox.github.requests.filter { $0.method == "PATCH" }.isEmpty)

        #expect(sandbox.run("repo", "set", "app", "--push-issues", "on").status == 0)
        let pushed = sandbox.run("sync", "--json")
        #expect(pushed.status == 0)
        let json = try JSONParser.parse(pushed.stdout)
        #expect(json["issues"]?["pushed"] == .number("1") && json["issues"]?["pulled"] == .number("0"))
        #expect(sandbox.github.activity.issue(repository: 1, number: 2)?.state == "closed")

        sandbox.github.resetCounters()
        let noop = sandbox.run("sync")
        #expect(noop.stdout.isEmpty && noop.stderr.isEmpty)
        let again = sandbox.run("sync")
        #expect(again.stdout.isEmpty)
        sandbox.github.resetCounters()
        #expect(sandbox.run("sync").stdout.isEmpty)
        #expect(sandbox.github.rateLimitUsed == 0, "a sync with nothing changed costs nothing")
    }

    @Test func assignedIssuesArriveOnceAndTitlesAreSanitized() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.addIssue(repository: 1, title: "mine \u{1B}]0;pwned\u{07}too", assignees: ["octocat"])
        sandbox.github.activity.addIssue(repository: 1, title: "theirs", assignees: ["someone"])
        #expect(sandbox.run("repo", "set", "app", "--import-issues", "assigned").status == 0)
        let imported = sandbox.run("sync")
        #expect(imported.status == 0)
        #expect(imported.stdout == "octocat/app#1: imported as todo 1: mine too\n")
        #expect(!imported.stdout.contains("\u{1B}"))
        #expect(sandbox.run("todo", "rm", "1").status == 0)
        sandbox.github.activity.updateIssue(repository: 1, number: 1) { $0.body = "edited" }
        #expect(sandbox.run("sync").stdout.isEmpty, "a removed todo's issue never comes back")
        #expect(sandbox.run("todo", "list").stdout.isEmpty)
    }

    @Test func aTrailerMergedToTheDefaultBranchFinishesItsTodo() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("todo", "add", "-R", "app", "fix", "the", "crash").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty)
        let digits = String(try uuid(sandbox, 1).prefix(8))
        let shas = sandbox.github.pushCommits(repository: 1, branch: "fix", messages: ["Fix the crash\n\nDoogit-Done: \(digits)"])
        #expect(sandbox.run("sync").stdout.isEmpty, "a branch is not the default branch")
        sandbox.github.mergeBranch(repository: 1, branch: "fix")
        let merged = sandbox.run("sync")
        #expect(merged.stdout == "octocat/app: todo 1 marked done by commit \(shas[0].prefix(7))\n")
        #expect(sandbox.run("todo", "list").stdout.contains("● 1  fix the crash"))
    }

    /// The first sync of a repository that imports its issues remembers where its branch is,
    /// though it has no todo until the import that follows: the next push is read.
    @Test func aTrailerPushedAfterTheFirstSyncOfARepositoryImportingIssuesFinishesItsTodo() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.addIssue(repository: 1, title: "crash on start")
        #expect(sandbox.run("repo", "set", "app", "--import-issues", "all").status == 0)
        #expect(sandbox.run("sync").stdout == "octocat/app#1: imported as todo 1: crash on start\n")
        let digits = String(try uuid(sandbox, 1).prefix(8))
        let shas = sandbox.github.pushCommits(repository: 1, messages: ["Fix the crash\n\nDoogit-Done: \(digits)"])
        let finished = sandbox.run("sync")
        #expect(finished.stdout == "octocat/app: todo 1 marked done by commit \(shas[0].prefix(7))\n")
        #expect(sandbox.run("todo", "list").stdout.contains("● 1  #1 crash on start"))
    }

    /// So does the first sync of a repository with no todo yet: a todo added after it is
    /// finished by the next push.
    @Test func aTrailerPushedAfterTheFirstSyncOfARepositoryWithoutTodosFinishesItsTodo() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("sync").stdout.isEmpty)
        #expect(sandbox.run("todo", "add", "-R", "app", "fix", "the", "crash").status == 0)
        let digits = String(try uuid(sandbox, 1).prefix(8))
        let shas = sandbox.github.pushCommits(repository: 1, messages: ["Fix the crash\n\nDoogit-Done: \(digits)"])
        let finished = sandbox.run("sync")
        #expect(finished.stdout == "octocat/app: todo 1 marked done by commit \(shas[0].prefix(7))\n")
        #expect(sandbox.run("todo", "list").stdout.contains("● 1  fix the crash"))
    }
}
