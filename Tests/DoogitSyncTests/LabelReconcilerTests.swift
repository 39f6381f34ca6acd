import DoogitMerge
import DoogitSupport
@testable import DoogitSync
import Testing

/// A linked todo's tags are its issue's labels, both ways, under the rules for title and state.
@Suite struct LabelReconcilerTests {
    typealias R = IssueReconcilerTests

    /// Linked at 10, the issue seen then with `labels`, the todo tagged with them.
    static func tagged(_ labels: [String]) -> TodoEntry {
        var entry = R.linkedTodo(made: 0, linked: 10, seenAt: 10)
        entry.seen.value?.labels = labels
        entry.details.tags = Register(TagSet(labels.filter(TagSet.isValid)), at: R.stamp(10))
        return entry
    }

    static func issue(_ labels: [String], updated: Int64) -> IssueObservation {
        var issue = R.issue(open: true, title: "ship it", updated: updated)
        issue.labels = labels
        return issue
    }

    @Test func aLabelAddedOnGitHubTagsTheTodo() {
        let pulled = IssueReconciler.pull(Self.tagged(["bug"]), issue: Self.issue(["bug", "ci"], updated: 20), closedAt: nil)
        #expect(pulled.entry.details.tags.value == TagSet(["bug", "ci"]))
        #expect(pulled.changes == [.relabelled(["bug", "ci"])])
        #expect(pulled.conflicts.isEmpty)
        #expect(IssueReconciler.push(pulled.entry) == nil, "nothing to send back")
    }

    @Test func tagsChangedHereLaterThanGitHubsLabelsWinAndAreAConflict() {
        var entry = Self.tagged(["bug"])
        entry.details.tags = Register(TagSet(["bug", "release"]), at: R.stamp(31))
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(["bug", "ci"], updated: 20), closedAt: nil)
        #expect(pulled.entry.details.tags.value == TagSet(["bug", "release"]))
        #expect(pulled.conflicts == [IssueReconciler.Conflict(field: .tags, keptGitHub: false)])
        #expect(IssueReconciler.push(pulled.entry)?.labels == ["bug", "release"])
    }

    @Test func aPushKeepsTheLabelsThatCannotBeTags() {
        var entry = Self.tagged(["bug", "good first issue"])
        #expect(entry.details.tags.value == TagSet(["bug"]))
        entry.details.tags = Register(TagSet(["ci"]), at: R.stamp(20))
        #expect(IssueReconciler.push(entry) == IssueReconciler.Push(labels: ["ci", "good first issue"]))
        let spaced = IssueReconciler.pull(Self.tagged(["bug"]), issue: Self.issue(["bug", "help wanted"], updated: 20), closedAt: nil)
        #expect(spaced.entry.details.tags.value == TagSet(["bug"]) && spaced.changes.isEmpty, "a label with spaces is no tag")
    }

    @Test func labelsNeverSeenBeforeTagATodoNeverTagged() {
        let entry = R.linkedTodo(made: 0, linked: 10, seenAt: 10)  // seen by a doogit that kept no labels
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(["bug"], updated: 10), closedAt: nil)
        #expect(pulled.entry.details.tags.value == TagSet(["bug"]) && pulled.entry.details.tags.stamp > entry.issue.stamp)
        var tagged = entry
        tagged.details.tags = Register(TagSet(["mine"]), at: R.stamp(5))
        #expect(IssueReconciler.pull(tagged, issue: Self.issue(["bug"], updated: 10), closedAt: nil).entry.details.tags.value
                == TagSet(["mine"]), "a todo tagged before keeps its tags")
    }
}
