import DoogitSync
import Testing
@testable import DoogitCLI

/// The lines `sync` prints for what changed.
@Suite struct SyncLinesTests {
    func lines(_ changes: [SyncChange]) -> [String] {
        SyncCommand.sorted(changes).map { SyncCommand.line(for: $0, prefix: "") }
    }

    @Test func oneOfAThingIsOneThing() {
        var remote = RemoteSummary(repository: "octocat/doogit-data")
        remote.pulled = 1
        remote.pushed = 1
        #expect(SyncCommand.line(for: remote, dryRun: false) == "octocat/doogit-data: received 1 change, sent 1 change")
        #expect(SyncCommand.duration(60_000) == "1 minute" && SyncCommand.duration(3 * 60_000) == "3 minutes")
        #expect(SyncCommand.duration(3 * 3_600_000) == "3 hours" && SyncCommand.duration(3 * 86_400_000) == "3 days")
        #expect(Counted.text(1, "day") == "1 day" && Counted.text(0, "day") == "0 days" && Counted.text(2, "entry", plural: "entries") == "2 entries")
    }

    @Test func aNewOwnerIsATransfer() {
        #expect(lines([.renamed(from: "octo/tool", to: "acme/tool")]) == ["octo/tool: transferred to acme/tool"])
        #expect(lines([.renamed(from: "octo/tool", to: "acme/tools")]) == ["octo/tool: transferred to acme/tools"])
        #expect(lines([.renamed(from: "octo/tool", to: "octo/tools")]) == ["octo/tool: renamed to octo/tools"])
        #expect(lines([.renamed(from: "Octo/tool", to: "octo/Tool")]) == ["Octo/tool: renamed to octo/Tool"],
                "owners compare ignoring case, as on GitHub")
        #expect(SyncCommand.line(for: .renamed(from: "a/x", to: "b/x"), prefix: "would be ") == "a/x: would be transferred to b/x")
    }

    /// Edits made here of todos whose removal left the remote: one line, the texts sorted and
    /// quoted, and where to restore them while they can be.
    @Test func droppedEditsAreOneLine() {
        var remote = RemoteSummary(repository: "octo/data")
        #expect(SyncCommand.droppedLine(for: remote, dryRun: false) == nil)
        remote.droppedEdits["b"] = DroppedEdit(text: #"say "hi""#, restorable: false)
        #expect(SyncCommand.droppedLine(for: remote, dryRun: false)
            == #"octo/data: dropped this machine's edits of 1 todo removed on another machine meanwhile: "say \"hi\"""#)
        remote.droppedEdits["a"] = DroppedEdit(text: "write\u{1B}[31m docs", restorable: true)
        #expect(SyncCommand.droppedLine(for: remote, dryRun: true)
            == "octo/data: would drop this machine's edits of 2 todos removed on another machine meanwhile: "
            + #""say \"hi\"", "write docs" (restorable: 'doogit todo list --removed')"#)
    }

    @Test func quotesInDescriptionsAreEscaped() {
        #expect(lines([.descriptionChanged(fullName: "a/b", description: #"say "hi" \ bye"#)])
            == [#"a/b: description changed to "say \"hi\" \\ bye""#])
        #expect(lines([.descriptionChanged(fullName: "a/b", description: nil)]) == ["a/b: description removed"])
    }

    @Test func linesAreSortedAndARepositorysLinesStayTogether() {
        let changes: [SyncChange] = [
            .gone(fullName: "zeta/z"),
            .archived(fullName: "Beta/b"),
            .renamed(from: "octo/old", to: "acme/new"),
            .descriptionChanged(fullName: "acme/new", description: "d"),
            .visibilityChanged(fullName: "alpha/a", isPrivate: true),
            .unarchived(fullName: "beta/a"),
        ]
        #expect(lines(changes) == [
            "alpha/a: made private",
            "beta/a: unarchived",
            "Beta/b: archived",
            "octo/old: transferred to acme/new",
            "acme/new: description changed to \"d\"",
            "zeta/z: flagged gone (GitHub no longer returns it; its todos are kept)",
        ])
    }
}
