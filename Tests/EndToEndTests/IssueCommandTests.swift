import DoogitSupport
import Foundation
import Testing
import TestSupport

/// `todo promote`, `todo add --issue`, `todo link`, `todo unlink`, `todo show` and `repo set`,
/// run as a user would against the loopback GitHub.
@Suite(.serialized)
struct IssueCommandTests {
    /// A sandbox tracking octocat/app (id 1) and someone/other (id 2).
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: "the app")
        sandbox.github.addRepository(id: 2, owner: "someone", name: "other", description: nil)
        let added = sandbox.run("repo", "add", "octocat/app", "someone/other")
        #expect(added.status == 0, "\(added.stderr)")
        return sandbox
    }

    func posts(_ sandbox: Sandbox) -> Int { sandbox.github.requests.filter { $0.method == "POST" }.count }

    func uuid(_ sandbox: Sandbox, _ id: Int) throws -> String {
        let shown = try JSONParser.parse(sandbox.run("todo", "show", String(id), "--json").stdout)
        guard case .string(let uuid)? = shown["uuid"] else { throw JSONError.missing(field: "uuid") }
        return uuid
    }

    @Test func aPromotedTodoBecomesAnIssueAndShowsItsNumber() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("todo", "add", "-R", "app", "write", "the", "release", "notes").status == 0)
        let promoted = sandbox.run("todo", "promote", "1", "--label", "docs,release", "--body", "For 1.2.")
        #expect(promoted.status == 0, "\(promoted.stderr)")
        #expect(promoted.stdout == "Created octocat/app#1 for todo 1\nhttps://github.com/octocat/app/issues/1\n")
        let issue = try #require(sandbox.github.activity.issue(repository: 1, number: 1))
        #expect(issue.title == "write the release notes" && issue.labels == ["docs", "release"])
        #expect(issue.body == "For 1.2.\n\n<!-- doogit:\(try uuid(sandbox, 1)) -->")

        #expect(sandbox.run("todo", "list").stdout.contains("  ○ 1  #1 write the release notes  +docs +release\n"),
                "the labels are its tags")
        #expect(sandbox.run("todo", "list", "--long").stdout.contains("  open  #1 write the release notes  +docs +release\n"),
                "--long shows the issue's state")
        let shown = sandbox.run("todo", "show", "1").stdout
        #expect(shown.contains("Repository  octocat/app\n"))
        #expect(shown.contains("Issue       #1 (open) https://github.com/octocat/app/issues/1\n"))
        let json = try JSONParser.parse(sandbox.run("todo", "show", "1", "--json").stdout)
        #expect(json["issue"] == .object([JSONMember("number", .int(1)),
                                          JSONMember("url", .string("https://github.com/octocat/app/issues/1")),
                                          JSONMember("state", .string("open"))]))

        let again = sandbox.run("todo", "promote", "1")
        #expect(again.status == 1 && again.stderr.contains("todo 1 is linked to issue #1 already"))
        #expect(posts(sandbox) == 1)
        let file = sandbox.home.file("body.md")
        try "from a file".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(sandbox.run("todo", "add", "-R", "app", "second").status == 0)
        #expect(sandbox.run("todo", "promote", "2", "--body-file", file).status == 0)
        #expect(sandbox.github.activity.issue(repository: 1, number: 2)?.body.hasPrefix("from a file\n\n<!-- doogit:") == true)
    }

    /// The issue made from a todo carries its note as its body (with the marker), unless --body
    /// says otherwise; `add --issue --json` prints the todo with everything it was given.
    @Test func theIssueMadeFromATodoCarriesItsNote() throws {
        let sandbox = try sandbox()
        let note = sandbox.home.file("note.txt")
        try "\u{FEFF}Steps:\r\n1. run it\r\n".write(toFile: note, atomically: true, encoding: .utf8)
        let added = sandbox.run("--json", "todo", "add", "-R", "app", "--issue", "crash on start", "--note-file", note,
                                "--due", "2030-01-02", "--priority", "H")
        #expect(added.status == 0, "\(added.stderr)")
        let json = try JSONParser.parse(added.stdout)
        #expect(json["note"] == .string("Steps:\n1. run it") && json["due"] == .string("2030-01-02") && json["priority"] == .string("H"),
                "\(added.stdout)")
        #expect(json["issue"]?["number"] == .int(1))
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.body == "Steps:\n1. run it\n\n<!-- doogit:\(try uuid(sandbox, 1)) -->")

        #expect(sandbox.run("todo", "add", "-R", "app", "write the docs", "--note", "for 1.2").status == 0)
        #expect(sandbox.run("todo", "promote", "2").status == 0)
        #expect(sandbox.github.activity.issue(repository: 1, number: 2)?.body == "for 1.2\n\n<!-- doogit:\(try uuid(sandbox, 2)) -->")
        #expect(sandbox.run("todo", "add", "-R", "app", "third", "--note", "kept here").status == 0)
        #expect(sandbox.run("todo", "promote", "3", "--body", "said instead").status == 0)
        #expect(sandbox.github.activity.issue(repository: 1, number: 3)?.body == "said instead\n\n<!-- doogit:\(try uuid(sandbox, 3)) -->")
        #expect(sandbox.run("--json", "todo", "add", "-R", "app", "--issue", "fourth", "--note", "mine", "--body", "").status == 0)
        #expect(sandbox.github.activity.issue(repository: 1, number: 4)?.body == "<!-- doogit:\(try uuid(sandbox, 4)) -->",
                "an empty --body is a body given")
        #expect(try JSONParser.parse(sandbox.run("todo", "show", "4", "--json").stdout)["note"] == .string("mine"))
    }

    @Test func addWithIssueAddsNothingWhenGitHubRefuses() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.failNext("POST", pathSuffix: "/issues", with: .status(422))
        let before = try sandbox.snapshot()
        let refused = sandbox.run("todo", "add", "-R", "app", "--issue", "ship", "it")
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderrLines.count == 1 && refused.stderr.hasPrefix("doogit: error: GitHub refused the request"))
        #expect(try sandbox.snapshot() == before, "no todo without its issue")

        let added = sandbox.run("todo", "add", "-R", "app", "--issue", "ship", "it")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added 1 to octocat/app\nCreated octocat/app#1 for todo 1\nhttps://github.com/octocat/app/issues/1\n")
        #expect(sandbox.run("todo", "list").stdout.contains("○ 1  #1 ship it"))

        let usage = sandbox.run("todo", "add", "-R", "app", "--label", "bug", "no issue")
        #expect(usage.status == 2 && usage.stderr.contains("--label goes with --issue"))
        let fromInput = sandbox.run(["todo", "add", "-R", "app", "--issue", "-"], stdin: "one\ntwo\n")
        #expect(fromInput.status == 2 && fromInput.stderr.contains("--issue is for one todo"))
    }

    /// The POST's answer is lost after GitHub made the issue: the todo is kept, and the next
    /// promote finds the issue by its marker instead of posting again.
    @Test func aLostAnswerIsNotPostedAgainAndTheIssueIsLinkedByItsMarker() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        let lost = sandbox.run("todo", "add", "-R", "app", "--issue", "fix", "the", "build")
        #expect(lost.status == 75, "\(lost.stderr)")
        #expect(lost.stderrLines.count == 1 && lost.stderr.contains("may have reached GitHub")
            && lost.stderr.contains("todo 1 is kept"))
        #expect(sandbox.github.activity.issues(repository: 1).count == 1)
        #expect(sandbox.run("todo", "list").stdout.contains("○ 1  fix the build"))

        let promoted = sandbox.run("todo", "promote", "1")
        #expect(promoted.status == 0, "\(promoted.stderr)")
        #expect(promoted.stdout.hasPrefix("Linked octocat/app#1 to todo 1 (it was made for it earlier, here or on another machine)\n"))
        #expect(posts(sandbox) == 1, "the POST is never repeated")
        #expect(sandbox.github.activity.issues(repository: 1).count == 1)
        #expect(sandbox.run("todo", "list").stdout.contains("○ 1  #1 fix the build"))
    }

    @Test func linkTakesEveryFormOfAnIssueOfTheTodosRepositoryOnly() throws {
        let sandbox = try sandbox()
        for number in 1...4 { sandbox.github.activity.addIssue(repository: 1, title: "issue \(number)") }
        sandbox.github.activity.addIssue(repository: 1, title: "a change", isPullRequest: true)
        sandbox.github.activity.addIssue(repository: 2, title: "theirs")
        for text in ["one", "two", "three", "four", "five"] {
            #expect(sandbox.run("todo", "add", "-R", "app", text).status == 0)
        }
        let forms = ["1", "#2", "octocat/app#3", "https://github.com/octocat/app/issues/4"]
        for (index, form) in forms.enumerated() {
            let linked = sandbox.run("todo", "link", String(index + 1), form)
            #expect(linked.status == 0, "\(form): \(linked.stderr)")
            #expect(linked.stdout.hasPrefix("Linked todo \(index + 1) to octocat/app#\(index + 1)\n"))
        }
        let list = sandbox.run("todo", "list").stdout
        #expect(list.contains("○ 1  #1 one") && list.contains("○ 4  #4 four"), "neither text changes")

        let other = sandbox.run("todo", "link", "5", "someone/other#1")
        #expect(other.status == 1 && other.stderr.contains("is not an issue of octocat/app"))
        let pull = sandbox.run("todo", "link", "5", "5")
        #expect(pull.status == 1 && pull.stderr.contains("octocat/app#5 is a pull request"))
        let pullURL = sandbox.run("todo", "link", "5", "https://github.com/octocat/app/pull/5")
        #expect(pullURL.status == 1 && pullURL.stderr.contains("is a pull request"))
        let taken = sandbox.run("todo", "link", "5", "#1")
        #expect(taken.status == 1 && taken.stderr.contains("issue #1 is linked to todo 1 already"))
        let missing = sandbox.run("todo", "link", "5", "99")
        #expect(missing.status == 1 && missing.stderr.contains("issue #99 not found in octocat/app"))
        let malformed = sandbox.run("todo", "link", "5", "nine")
        #expect(malformed.status == 2)

        let unlinked = sandbox.run("todo", "unlink", "1")
        #expect(unlinked.status == 0 && unlinked.stdout == "Unlinked todo 1 from octocat/app#1\n")
        #expect(sandbox.run("todo", "unlink", "1").status == 1)
        #expect(sandbox.run("todo", "list").stdout.contains("○ 1  one"))
        #expect(sandbox.github.requests.allSatisfy { $0.method == "GET" }, "linking writes nothing to GitHub")
    }

    @Test func repoSetChangesSettingsThatRepoListShows() throws {
        let sandbox = try sandbox()
        let nothing = sandbox.run("repo", "set", "app")
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to set"))
        #expect(sandbox.run("repo", "set", "app", "--push-issues", "yes").status == 2)
        #expect(sandbox.run("repo", "set", "app", "--import-issues", "mine").status == 2)
        #expect(sandbox.run("repo", "set", "nope", "--commits", "off").status == 1)

        let set = sandbox.run("repo", "set", "app", "--push-issues", "on", "--import-issues", "assigned", "--commits", "off")
        #expect(set.status == 0 && set.stdout == "octocat/app: push issues on, import issues assigned, commits off\n")
        let list = sandbox.run("repo", "list").stdout
        #expect(list.contains("octocat/app    0 open, 0 done  [push issues] [import assigned] [commits off]  the app\n"))
        #expect(list.contains("someone/other  0 open, 0 done\n"))
        let json = try JSONParser.parse(sandbox.run("repo", "list", "--json").stdout)
        guard case .array(let entries) = json else { throw JSONError.missing(field: "list") }
        #expect(entries.first?["pushIssues"] == .bool(true) && entries.first?["importIssues"] == .string("assigned")
            && entries.first?["scanCommits"] == .bool(false))
        #expect(entries.last?["pushIssues"] == .bool(false) && entries.last?["scanCommits"] == .bool(true))
        #expect(sandbox.run("repo", "set", "app", "--push-issues=off").status == 0)
        #expect(!sandbox.run("repo", "list").stdout.contains("[push issues]"))
    }
}
