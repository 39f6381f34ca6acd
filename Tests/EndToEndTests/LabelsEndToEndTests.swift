import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A linked todo has its own tags and its issue's labels, apart: labels are pulled always and
/// shown with the tags, never copied into them, never removing one; with `--push-issues on`, the
/// tags changed here go to the issue as changes (a label added, a label taken off), once, so a
/// label someone else gave the issue stays. Tags and labels compare without case.
@Suite(.serialized)
struct LabelsEndToEndTests {
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "app").status == 0)
        return sandbox
    }

    func strings(_ sandbox: Sandbox, _ id: Int, _ key: String) throws -> [String]? {
        guard case .array(let values)? = try JSONParser.parse(sandbox.run("todo", "show", String(id), "--json").stdout)[key]
        else { return nil }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    func labels(_ sandbox: Sandbox, _ number: Int64 = 1) -> Set<String> {
        Set(sandbox.github.activity.issue(repository: 1, number: number)?.labels ?? [])
    }

    @Test func tagsAndLabelsStayApartAndTagsGoAsChanges() throws {
        let sandbox = try sandbox()
        #expect(sandbox.run("todo", "add", "-R", "app", "ship", "it", "+release", "+mine").status == 0)
        #expect(sandbox.run("todo", "promote", "1").status == 0)
        #expect(labels(sandbox) == ["release", "mine"], "promote sends the tags")
        #expect(sandbox.run("sync").stdout.isEmpty)

        // A teammate relabels the issue: the todo shows their labels, and keeps its own tags.
        sandbox.github.activity.updateIssue(repository: 1, number: 1) { $0.labels = ["release", "ci", "good first issue"] }
        let pulled = sandbox.run("sync")
        #expect(pulled.status == 0 && pulled.stdout.contains("labels changed on GitHub"), "\(pulled.stdout)")
        #expect(try strings(sandbox, 1, "tags") == ["mine", "release"], "what the user typed stays")
        #expect(try strings(sandbox, 1, "labels") == ["ci", "good first issue", "release"])
        #expect(sandbox.run("todo", "list", "--tag", "CI").stdout.contains("ship it"), "--tag finds a label, without case")
        let line = sandbox.run("todo", "list").stdout
        #expect(line.contains("+mine") && line.contains("+release") && line.contains("+ci"), "shown together: \(line)")

        // Push off: changes here are the todo's alone, and are never sent later.
        #expect(sandbox.run("todo", "edit", "1", "--tag", "docs").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty)
        #expect(labels(sandbox) == ["release", "ci", "good first issue"])

        // Push on: a tag added goes as an added label, a label taken off as a removal; the
        // teammate's other label stays, and nothing goes twice.
        #expect(sandbox.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty, "what was changed with push off waits for nothing")
        #expect(sandbox.run("todo", "edit", "1", "--tag", "urgent", "--untag", "ci").status == 0)
        sandbox.github.activity.relabelAfterNextRead(repository: 1, number: 1, adding: ["theirs"])
        let pushed = sandbox.run("sync")
        #expect(pushed.status == 0 && pushed.stdout.contains("labelled \"urgent\"") && pushed.stdout.contains("unlabelled \"ci\""),
                "\(pushed.stdout)")
        #expect(labels(sandbox) == ["release", "good first issue", "urgent", "theirs"])
        #expect(sandbox.github.activity.labelWrites(repository: 1, method: "PATCH").isEmpty, "never the whole set")
        #expect(try strings(sandbox, 1, "labels") == ["good first issue", "release", "theirs", "urgent"], "their label, seen")
        #expect(sandbox.run("sync").stdout.isEmpty, "settled")
        #expect(try strings(sandbox, 1, "tags") == ["docs", "mine", "release", "urgent"])

        // A teammate takes a label off that came from a tag: the tag stays, and is not sent again.
        sandbox.github.activity.updateIssue(repository: 1, number: 1) { $0.labels.removeAll { $0 == "urgent" } }
        #expect(sandbox.run("sync").status == 0)
        #expect(sandbox.run("sync").stdout.isEmpty)
        let kept = try strings(sandbox, 1, "tags") ?? []
        #expect(!labels(sandbox).contains("urgent") && kept.contains("urgent"))
    }

    @Test func aTagInAnotherCaseThanALabelIsOneTagAndTakesTheLabelsSpelling() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.addLabel(repository: 1, name: "bug")
        sandbox.github.activity.addIssue(repository: 1, title: "crash", assignees: ["octocat"], labels: ["bug"])
        #expect(sandbox.run("todo", "add", "-R", "app", "crash").status == 0)
        #expect(sandbox.run("todo", "link", "1", "1").status == 0)
        #expect(sandbox.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(sandbox.run("todo", "edit", "1", "--tag", "BUG", "--tag", "Docs", "--tag", "docs").status == 0)
        #expect(try strings(sandbox, 1, "tags") == ["bug", "Docs"], "the label's spelling; one tag for two cases")
        let first = sandbox.run("sync")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(labels(sandbox) == ["bug", "Docs"])
        #expect(sandbox.run("sync").stdout.isEmpty, "pushed once")
        #expect(sandbox.run("todo", "edit", "1", "--untag", "BUG").status == 0)
        // Taken off here, it shows as off at once: the list, JSON and `todo show`, before the sync.
        #expect(try strings(sandbox, 1, "labels") == ["Docs"])
        #expect(!sandbox.run("todo", "list").stdout.contains("+bug"), "\(sandbox.run("todo", "list").stdout)")
        #expect(labels(sandbox) == ["bug", "Docs"], "GitHub's, until the sync")
        #expect(sandbox.run("sync").status == 0)
        #expect(labels(sandbox) == ["Docs"])
        #expect(try strings(sandbox, 1, "labels") == ["Docs"])
        // A label already off on GitHub (its 404 "Label does not exist") is off: fine.
        #expect(sandbox.run("todo", "edit", "1", "--untag", "docs").status == 0)
        sandbox.github.activity.updateIssue(repository: 1, number: 1) { $0.labels = [] }
        let gone = sandbox.run("sync")
        #expect(gone.status == 0 && gone.stderr.isEmpty, "\(gone.stderr)")
    }

    @Test func anImportedIssueBringsItsLabelsNotTags() throws {
        let sandbox = try sandbox()
        sandbox.github.activity.addIssue(repository: 1, title: "crash on start", assignees: ["octocat"], labels: ["bug", "needs triage"])
        #expect(sandbox.run("repo", "set", "app", "--import-issues", "assigned").status == 0)
        #expect(sandbox.run("sync").status == 0)
        #expect(try strings(sandbox, 1, "tags") == [])
        #expect(try strings(sandbox, 1, "labels") == ["bug", "needs triage"])
        #expect(sandbox.run("todo", "list", "--tag", "bug").stdout.contains("crash on start"))
    }

    @Test func aTodoAddedWithItsIssueSendsItsTagsAndKeepsItsDetails() throws {
        let sandbox = try sandbox()
        let added = sandbox.run("todo", "add", "-R", "app", "--issue", "--label", "bug", "ship", "+release", "due:2030-01-31", "pri:H")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.labels.sorted() == ["bug", "release"])
        #expect(sandbox.github.activity.issue(repository: 1, number: 1)?.title == "ship")
        let shown = sandbox.run("todo", "show", "1").stdout
        #expect(shown.contains("Due         2030-01-31") && shown.contains("Priority    H") && shown.contains("Tags        release")
                && shown.contains("Labels      bug release"), "\(shown)")
    }
}
