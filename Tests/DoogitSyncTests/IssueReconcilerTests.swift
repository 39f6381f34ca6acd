import DoogitGitHub
import DoogitMerge
import DoogitSupport
@testable import DoogitSync
import Testing

/// What GitHub's changes do to a linked todo, and a trailer to its todo, whatever the clocks say:
/// a change the user made later wins; with none, GitHub's change is taken, even when a machine's
/// clock is ahead of GitHub's.
@Suite struct IssueReconcilerTests {
    static let uuid = "3f2a9c1b-7d4e-4a5b-8c6d-7e8f9a0b1c2d"
    static let url = "https://github.com/octocat/app/issues/7"

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: 1_800_000_000_000 + seconds * 1000) }
    static func stamp(_ seconds: Int64, machine: String = "a1a1a1a1a1a1") -> HybridTimestamp {
        HybridTimestamp(wall: at(seconds).millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    /// A todo made at `made`, linked at `linked` to issue #7, seen open (title "ship it") at `seenAt`.
    static func linkedTodo(made: Int64, linked: Int64, seenAt: Int64) -> TodoEntry {
        var entry = TodoEntry(uuid: uuid, repository: 1, text: "ship it", createdAt: at(made), stamp: stamp(made))
        entry.issue = Register(LinkedIssue(number: 7, repository: 1, url: url), at: stamp(linked))
        entry.seen = Register(issue(open: true, title: "ship it", updated: seenAt), at: stamp(linked))
        return entry
    }

    static func issue(open: Bool, title: String, updated: Int64) -> IssueObservation {
        IssueObservation(number: 7, state: open ? "open" : "closed", title: title, url: url, updatedAt: at(updated))
    }

    @Test func aCloseOnGitHubFinishesTheTodoWhenTheUserChangedNothing() {
        let entry = Self.linkedTodo(made: 0, linked: 10, seenAt: 10)
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(open: false, title: "ship it", updated: 20), closedAt: Self.at(20))
        #expect(pulled.entry.done.value.done)
        #expect(pulled.changes == [.closed])
        #expect(pulled.conflicts.isEmpty)
    }

    /// The link was made on a machine whose clock is a minute ahead of GitHub's: GitHub's close,
    /// dated by GitHub's clock, is earlier than the link, yet it is the newer change.
    @Test func aCloseOnGitHubIsTakenWhenTheLinkingMachinesClockIsAhead() {
        let entry = Self.linkedTodo(made: 70, linked: 80, seenAt: 10)
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(open: false, title: "shipped", updated: 20), closedAt: Self.at(20))
        #expect(pulled.entry.done.value.done)
        #expect(pulled.entry.text.value == "shipped")
        #expect(pulled.entry.done.stamp > entry.done.stamp)
        #expect(pulled.entry.text.stamp > entry.text.stamp)
        #expect(pulled.conflicts.isEmpty)
    }

    @Test func aReopenByTheUserLaterThanTheCloseWinsAndIsAConflict() {
        var entry = Self.linkedTodo(made: 0, linked: 10, seenAt: 10)
        entry.done = Register(DoneState(doneAt: nil), at: Self.stamp(31))  // finished, then reopened
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(open: false, title: "ship it", updated: 20), closedAt: Self.at(20))
        #expect(!pulled.entry.done.value.done)
        #expect(pulled.changes.isEmpty)
        #expect(pulled.conflicts == [IssueReconciler.Conflict(field: .state, keptGitHub: false)])
    }

    @Test func aChangeOfTheUsersEarlierThanGitHubsLosesAndIsAConflict() {
        var entry = Self.linkedTodo(made: 0, linked: 10, seenAt: 10)
        entry.text = Register("ship it today", at: Self.stamp(15))
        let pulled = IssueReconciler.pull(entry, issue: Self.issue(open: true, title: "ship it now", updated: 20), closedAt: nil)
        #expect(pulled.entry.text.value == "ship it now")
        #expect(pulled.conflicts == [IssueReconciler.Conflict(field: .text, keptGitHub: true)])
    }

    /// Two machines reading the same change make the same todo.
    @Test func everyMachineStampsAPulledChangeAlike() {
        let entry = Self.linkedTodo(made: 70, linked: 80, seenAt: 10)
        let issue = Self.issue(open: false, title: "ship it", updated: 20)
        var seenHere = issue, seenThere = issue
        seenHere.seenAt = Self.stamp(90)
        seenThere.seenAt = Self.stamp(95, machine: "b2b2b2b2b2b2")
        let here = IssueReconciler.pull(entry, issue: seenHere, closedAt: Self.at(20))
        let there = IssueReconciler.pull(entry, issue: seenThere, closedAt: Self.at(20))
        #expect(here.entry.done == there.entry.done)
    }

    @Test func aTrailerFinishesATodoNeverReopenedWhenItsMachinesClockIsAhead() {
        // Imported on two machines, one a minute ahead (the first creation time is kept), then
        // moved; the commit came 20 s after the first import by GitHub's clock.
        var entry = TodoEntry(uuid: Self.uuid, repository: 1, text: "ship it", createdAt: Self.at(0), stamp: Self.stamp(0))
        entry.repository = Register(1, at: Self.stamp(70))
        entry.done = Register(DoneState(doneAt: nil), at: Self.stamp(60))
        let commit = GitHubCommit(sha: "abc", message: "Ship\n\nDoogit-Done: 3f2a9c1b", committedAt: Self.at(20))
        let applied = CommitTrailers.apply(commit, to: entry, readAt: Self.at(25))
        #expect(applied.finished)
        #expect(applied.entry.commits == ["abc"])
    }

    @Test func aReopenLaterThanTheCommitOutranksItsTrailer() {
        var entry = TodoEntry(uuid: Self.uuid, repository: 1, text: "ship it", createdAt: Self.at(0), stamp: Self.stamp(0))
        entry.done = Register(DoneState(doneAt: nil), at: Self.stamp(40))
        let commit = GitHubCommit(sha: "abc", message: "Doogit-Done: 3f2a9c1b", committedAt: Self.at(20))
        let applied = CommitTrailers.apply(commit, to: entry, readAt: Self.at(50))
        #expect(!applied.finished)
        #expect(applied.outranked)
        #expect(applied.entry.commits == ["abc"])
    }
}
