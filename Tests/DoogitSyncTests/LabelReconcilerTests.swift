import DoogitMerge
import DoogitSupport
@testable import DoogitSync
import Testing

/// A linked todo's labels are its issue's, kept apart from its own tags: a pull records them and
/// says when they changed, and never adds or removes a tag; a push never sends a whole set.
@Suite struct LabelReconcilerTests {
    typealias R = IssueReconcilerTests

    /// Linked at 10, the issue seen then with `labels`, the todo tagged `tags` at 5.
    static func linked(labels: [String], tags: [String] = []) -> TodoEntry {
        var entry = R.linkedTodo(made: 0, linked: 10, seenAt: 10)
        entry.seen.value?.labels = labels
        entry.details.tags = TagSet(tags, at: R.stamp(5))
        return entry
    }

    static func issue(_ labels: [String], updated: Int64) -> IssueObservation {
        var issue = R.issue(open: true, title: "ship it", updated: updated)
        issue.labels = labels
        return issue
    }

    @Test func aLabelAddedOnGitHubIsTheIssuesAndNeverATag() {
        let pulled = IssueReconciler.pull(Self.linked(labels: ["bug"], tags: ["mine"]), issue: Self.issue(["bug", "CI"], updated: 20),
                                          closedAt: nil)
        #expect(Set(pulled.entry.seen.value?.labels ?? []) == ["CI", "bug"])
        #expect(pulled.entry.details.tags.tags == ["mine"], "the todo's own tags are as they were")
        #expect(pulled.changes == [.relabelled(["bug", "CI"])])
        #expect(pulled.conflicts.isEmpty)
        #expect(IssueReconciler.push(pulled.entry) == nil, "nothing to send back")
    }

    @Test func labelsTakenOffOnGitHubNeverRemoveATag() {
        let entry = Self.linked(labels: ["mine", "urgent"], tags: ["mine", "urgent"])
        let pulled = IssueReconciler.pull(entry, issue: Self.issue([], updated: 20), closedAt: nil)
        #expect(pulled.entry.details.tags.tags == ["mine", "urgent"], "what the user typed stays")
        #expect(pulled.entry.seen.value?.labels == [])
        #expect(pulled.changes == [.relabelled([])])
    }

    @Test func labelsThatDifferOnlyInCaseAreNoChange() {
        let pulled = IssueReconciler.pull(Self.linked(labels: ["bug"]), issue: Self.issue(["Bug"], updated: 20), closedAt: nil)
        #expect(pulled.changes.isEmpty, "GitHub compares labels without case")
    }

    @Test func aPushNeverCarriesLabels() {
        var entry = Self.linked(labels: ["bug", "good first issue"])
        entry.details.tags.add(["ci"], at: R.stamp(20))
        #expect(IssueReconciler.push(entry) == nil, "tags go as label changes, noted when they are made")
    }
}
