import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Creations of issues whose answers were lost, or that never left: found by sync or by a promote
/// tried again, posted once, or dropped with the todo they were for.
@Suite(.serialized)
struct LostIssueCreationTests {
    @Test func aCreationWhoseAnswerWasLostIsLinkedBySyncWithoutPostingAgain() throws {
        let world = try IssueWorld()
        world.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        var kept: Int64 = 0
        do {
            _ = try world.linker().addTodoWithIssue(repositoryID: IssueWorld.app, text: "fix the build", body: "", labels: [])
            Issue.record("the lost answer should be an error")
        } catch IssueLinkError.creationUnknown(let todoID, _, _, _) {
            kept = todoID
        }
        #expect(try world.todo(kept).issue == nil && world.store.pendingIssues().count == 1)
        let summary = try world.sync()
        #expect(summary.changes == [.issueLinked(fullName: "octocat/app", number: 1, todoID: kept, foundEarlier: true)])
        #expect(try world.todo(kept).issue?.number == 1)
        #expect(world.requests("POST").count == 1 && world.activity.issues(repository: IssueWorld.app).count == 1)
        #expect(try world.store.pendingIssues().isEmpty)
    }

    /// This machine's clock, 15 minutes ahead of GitHub's `Date`.
    static func ahead() -> Timestamp { Timestamp(millisecondsSinceEpoch: Timestamp.now().millisecondsSinceEpoch + 900_000) }

    /// A lost creation is looked for from the time of its POST on GitHub's clock, as the answers
    /// date it, not on this machine's: one issue, linked.
    @Test func aCreationWhoseAnswerWasLostIsFoundBySyncWhenThisMachinesClockIsAhead() throws {
        let world = try IssueWorld()
        world.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        let linker = IssueLinker(store: world.store, github: try world.client(), clock: Self.ahead)
        #expect(throws: IssueLinkError.self) {
            try linker.addTodoWithIssue(repositoryID: IssueWorld.app, text: "fix the build", body: "", labels: [])
        }
        let todo = try #require(try world.store.sections().flatMap(\.todos).first)
        let syncer = Syncer(store: world.store, github: try world.client(), lock: world.base.lock, clock: Self.ahead)
        let summary = try syncer.run()
        #expect(summary.changes == [.issueLinked(fullName: "octocat/app", number: 1, todoID: todo.id, foundEarlier: true)])
        #expect(world.activity.issues(repository: IssueWorld.app).count == 1 && world.requests("POST").count == 1)
        #expect(try world.todo(todo.id).issue?.number == 1 && world.store.pendingIssues().isEmpty)
    }

    /// The same for `todo promote` tried again in a new process, before any sync: the answer to
    /// its first request tells GitHub's time.
    @Test func aPromoteTriedAgainFindsTheIssueItsLostAnswerMadeWhenThisMachinesClockIsAhead() throws {
        let world = try IssueWorld()
        let todo = try world.store.addTodo(repositoryID: IssueWorld.app, text: "fix the build", at: Self.ahead())
        world.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        #expect(throws: IssueLinkError.self) {
            try IssueLinker(store: world.store, github: try world.client(), clock: Self.ahead).promote(todoID: todo.id, body: "",
                                                                                                      labels: [])
        }
        let again = try IssueLinker(store: world.store, github: try world.client(), clock: Self.ahead)
            .promote(todoID: todo.id, body: "", labels: [])
        #expect(again.number == 1 && again.foundEarlier)
        #expect(world.activity.issues(repository: IssueWorld.app).count == 1 && world.requests("POST").count == 1)
    }

    @Test func aCreationThatNeverReachedGitHubIsPostedBySyncOnce() throws {
        let world = try IssueWorld()
        let todo = try world.store.addTodo(repositoryID: IssueWorld.app, text: "fix the build", at: .now())
        // As a promote killed before its POST left it.
        try world.store.beginPendingIssue(PendingIssue(
            todoUUID: todo.uuid, repositoryID: IssueWorld.app, title: todo.text,
            body: IssueLinker.marker(for: todo.uuid), labels: ["bug"], marker: IssueLinker.marker(for: todo.uuid),
            createdAt: .now()))
        let summary = try world.sync()
        #expect(summary.changes == [.issueLinked(fullName: "octocat/app", number: 1, todoID: todo.id, foundEarlier: false)])
        #expect(world.activity.issue(repository: IssueWorld.app, number: 1)?.labels == ["bug"])
        try world.sync()
        #expect(world.requests("POST").count == 1)

        // A todo added by a `todo add --issue` that was killed after GitHub made the issue.
        let uuid = UUIDv4.make()
        try world.store.beginPendingIssue(PendingIssue(
            todoUUID: uuid, repositoryID: IssueWorld.app, title: "made on GitHub only", body: "",
            labels: [], marker: IssueLinker.marker(for: uuid), createdAt: .now()))
        _ = try world.client().createIssue(owner: "octocat", name: "app", title: "made on GitHub only",
                                           body: IssueLinker.marker(for: uuid), labels: [])
        try world.sync()
        #expect(try world.store.todo(uuid: uuid)?.issue?.number == 2, "the todo is made, linked to its issue")
    }

    @Test func aCreationForATodoRemovedOrMovedMeanwhileIsDropped() throws {
        let world = try IssueWorld()
        world.github.addRepository(id: 2, name: "other", description: nil)
        _ = try RepositoryTracker(store: world.store, github: world.client()).add([.full(owner: "octocat", name: "other")], at: .now())
        let removed = try world.store.addTodo(repositoryID: IssueWorld.app, text: "removed", at: .now())
        let moved = try world.store.addTodo(repositoryID: IssueWorld.app, text: "moved", at: .now())
        for todo in [removed, moved] {
            try world.store.beginPendingIssue(PendingIssue(
                todoUUID: todo.uuid, repositoryID: IssueWorld.app, title: todo.text, body: IssueLinker.marker(for: todo.uuid),
                labels: [], marker: IssueLinker.marker(for: todo.uuid), createdAt: .now()))
            // GitHub made them; their answers were lost.
            _ = try world.client().createIssue(owner: "octocat", name: "app", title: todo.text,
                                               body: IssueLinker.marker(for: todo.uuid), labels: [])
        }
        _ = try world.store.removeTodos([removed.id], at: .now())
        _ = try world.store.moveTodos([moved.id], toRepository: 2, at: .now())
        let summary = try world.sync()
        #expect(try summary.changes.isEmpty && world.store.pendingIssues().isEmpty)
        #expect(try world.store.todo(uuid: removed.uuid) == nil, "a removed todo is not made again")
        #expect(try world.store.todo(uuid: moved.uuid)?.issue == nil)
        #expect(world.requests("POST").count == 2, "and nothing is posted")
    }
}
