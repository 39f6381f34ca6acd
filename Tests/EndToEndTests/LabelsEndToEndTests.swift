import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A linked todo's tags are its issue's labels, both ways: pulled always, pushed only with
/// `--push-issues on`; promote sends the tags, and import brings the labels.
@Suite(.serialized)
struct LabelsEndToEndTests {
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "app").status == 0)
        return sandbox
    }

    func tags(_ sandbox: Sandbox, _ id: Int) throws -> [String] {
        guard case .array(let tags)? = try JSONParser.parse(sandbox.run("todo", "show", String(id), "--json").stdout)["tags"]
        else { return [] }
        return tags.compactMap { if case .string(let tag) = $0 { tag } else { nil } }
    }

    @Test func tagsAndLabelsFollowEachOtherWithPushOffAndOn() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("todo", "add", "-R", "app", "ship", "it", "+release").status == 0)
        #expect(sandbox.run("todo", "promote", "1").status == 0)
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.labels == ["release"], "promote sends the tags")
        #expect(sandbox.run("sync").stdout.isEmpty)

        // Labelled on GitHub: the todo is tagged, push on or off.
        sandbox.github.activity.updateIssue(repository: 1, number: 1) { $0.labels = ["release", "ci", "good first issue"] }
        let pulled = sandbox.run("sync")
        #expect(pulled.status == 0 && pulled.stdout.contains("labels changed on GitHub; todo 1 tagged"), "\(pulled.stdout)")
        #expect(try tags(sandbox, 1) == ["ci", "release"], "a label with spaces is no tag")

        // Tagged here with push off: the issue is left alone.
        #expect(sandbox.run("todo", "edit", "1", "--untag", "ci", "--tag", "docs").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty)
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.labels == ["release", "ci", "good first issue"])

        // Push on: the issue takes the tags, and keeps the label that cannot be one.
        #expect(sandbox.run("repo", "set", "app", "--push-issues", "on").status == 0)
        let pushed = sandbox.run("sync")
        #expect(pushed.status == 0 && pushed.stdout.contains("labelled"), "\(pushed.stdout)")
        #expect(Set(sandbox.github.activity.issue(repository: 1, number: 1)?.labels ?? []) == ["docs", "release", "good first issue"])
        #expect(try tags(sandbox, 1) == ["docs", "release"])
        #expect(sandbox.run("sync").stdout.isEmpty, "settled")
    }

    @Test func anImportedIssueBringsItsLabels() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.addIssue(repository: 1, title: "crash on start", assignees: ["octocat"], labels: ["bug", "needs triage"])
        #expect(sandbox.run("repo", "set", "app", "--import-issues", "assigned").status == 0)
        #expect(sandbox.run("sync").status == 0)
        #expect(try tags(sandbox, 1) == ["bug"])
    }

    @Test func aTodoAddedWithItsIssueSendsItsTagsAndKeepsItsDetails() throws {
        let sandbox = try sandbox()
        let added = sandbox.run("todo", "add", "-R", "app", "--issue", "--label", "bug", "ship", "+release", "due:2030-01-31", "pri:H")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.labels.sorted() == ["bug", "release"])
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.title == "ship")
        let shown = sandbox.run("todo", "show", "1").stdout
        #expect(shown.contains("Due         2030-01-31") && shown.contains("Priority    H") && shown.contains("Tags        bug release"), "\(shown)")
    }
}
