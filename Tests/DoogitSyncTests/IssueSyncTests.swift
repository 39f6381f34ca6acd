import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Linked todos and their issues kept in step by sync: pull always, push when asked, conflicts,
/// failures half-way, and what it costs.
@Suite(.serialized)
struct IssueSyncTests {
    @Test func everyChangeOnGitHubReachesTheTodo() throws {
        let world = try IssueWorld()
        let (todo, number) = try world.linkedTodo("write the docs")

        world.activity.close(repository: IssueWorld.app, number: number)
        let closed = try world.sync()
        #expect(try world.todo(todo.id).done)
        #expect(closed.changes == [.issuePulled(fullName: "octocat/app", number: number, todoID: todo.id, change: .closed)])
        #expect(closed.issues.pulled == 1 && closed.issues.conflicts == 0)

        world.activity.reopen(repository: IssueWorld.app, number: number)
        let reopened = try world.sync()
        #expect(try !world.todo(todo.id).done)
        #expect(reopened.changes == [.issuePulled(fullName: "octocat/app", number: number, todoID: todo.id, change: .reopened)])

        world.activity.retitle(repository: IssueWorld.app, number: number, to: "Write the user docs")
        let retitled = try world.sync()
        #expect(try world.todo(todo.id).text == "Write the user docs")
        #expect(retitled.changes == [.issuePulled(fullName: "octocat/app", number: number, todoID: todo.id,
                                                  change: .retitled("Write the user docs"))])
        #expect(try world.todo(todo.id).issue?.state == .open)
        #expect(world.requests("PATCH").isEmpty && world.requests("POST").isEmpty, "pulling writes nothing")

        let quiet = try world.sync()
        #expect(quiet.changes.isEmpty && quiet.issues == IssueCounts())
    }

    @Test func withPushOnEveryChangeHereReachesTheIssue() throws {
        let world = try IssueWorld()
        try world.setPush(true)
        let (todo, number) = try world.linkedTodo("write the docs")

        _ = try world.store.setDone([todo.id], done: true, at: .now())
        let closed = try world.sync()
        let issue = try #require(world.activity.issue(repository: IssueWorld.app, number: number))
        #expect(issue.state == "closed" && issue.stateReason == "completed")
        let body = try JSONParser.parse(try #require(world.requests("PATCH").last).body)
        #expect(body == .object([JSONMember("state", .string("closed")), JSONMember("state_reason", .string("completed"))]))
        #expect(closed.changes == [.issuePushed(fullName: "octocat/app", number: number, todoID: todo.id, change: .closed)])
        #expect(closed.issues.pushed == 1)

        _ = try world.store.setDone([todo.id], done: false, at: .now())
        try world.sync()
        #expect(world.activity.issue(repository: IssueWorld.app, number: number)?.state == "open")

        _ = try world.store.editTodo(id: todo.id, text: "write the user docs", at: .now())
        let retitled = try world.sync()
        #expect(world.activity.issue(repository: IssueWorld.app, number: number)?.title == "write the user docs")
        #expect(retitled.changes == [.issuePushed(fullName: "octocat/app", number: number, todoID: todo.id,
                                                  change: .retitled("write the user docs"))])
        #expect(world.activity.writes(repository: IssueWorld.app, method: "PATCH") == [number, number, number])

        let settled = try world.sync()
        #expect(settled.changes.isEmpty && settled.issues == IssueCounts(), "each change is pushed once")
        #expect(world.activity.writes(repository: IssueWorld.app, method: "PATCH").count == 3)
    }

    @Test func withPushOffNothingIsEverWritten() throws {
        let world = try IssueWorld()
        let (todo, number) = try world.linkedTodo("write the docs")
        _ = try world.store.setDone([todo.id], done: true, at: .now())
        _ = try world.store.editTodo(id: todo.id, text: "changed here", at: .now())
        try world.sync()
        try world.sync()
        world.activity.updateIssue(repository: IssueWorld.app, number: number) { $0.body = "touched" }
        try world.sync()
        #expect(world.requests("PATCH").isEmpty && world.requests("POST").isEmpty)
        #expect(world.github.requests.allSatisfy { $0.method == "GET" })
        let issue = try #require(world.activity.issue(repository: IssueWorld.app, number: number))
        #expect(issue.state == "open" && issue.title == "write the docs")
        #expect(try world.todo(todo.id).done && world.todo(todo.id).text == "changed here", "nothing is pulled back either")
    }

    @Test(arguments: [true, false])
    func whenBothSidesChangedTheLaterChangeWins(githubIsLater: Bool) throws {
        let world = try IssueWorld()
        try world.setPush(true)
        world.activity.setClock(1_893_456_000)  // 2030-01-01
        let (todo, number) = try world.linkedTodo("write the docs", at: at(0))
        _ = try world.store.editTodo(id: todo.id, text: "write the docs here", at: at(100))
        _ = try world.store.setDone([todo.id], done: true, at: at(100))
        world.activity.setClock(1_893_456_000 + (githubIsLater ? 200 : 50))
        world.activity.retitle(repository: IssueWorld.app, number: number, to: "Write the docs on GitHub")
        let summary = try world.sync()
        #expect(summary.issues.conflicts == 1)
        #expect(summary.changes.contains(.issueConflict(fullName: "octocat/app", number: number, todoID: todo.id,
                                                        field: .text, keptGitHub: githubIsLater)))
        let after = try world.todo(todo.id)
        let issue = try #require(world.activity.issue(repository: IssueWorld.app, number: number))
        if githubIsLater {
            #expect(after.text == "Write the docs on GitHub" && issue.title == "Write the docs on GitHub")
        } else {
            #expect(after.text == "write the docs here" && issue.title == "write the docs here",
                    "the later text is pushed to GitHub")
        }
        #expect(after.done && issue.state == "closed", "the state changed only here: pushed either way")
        let settled = try world.sync()
        #expect(settled.issues.conflicts == 0 && settled.issues.pushed == 0 && settled.issues.pulled == 0)
    }

    @Test func aDryRunSaysWhatWouldChangeAndChangesNothing() throws {
        let world = try IssueWorld()
        try world.setPush(true)
        try world.setImport(.all)
        let pulled = try world.linkedTodo("pulled")
        let pushed = try world.linkedTodo("pushed")
        try world.sync()
        world.activity.close(repository: IssueWorld.app, number: pulled.number)
        _ = try world.store.editTodo(id: pushed.todo.id, text: "pushed again", at: .now())
        let fresh = world.activity.addIssue(repository: IssueWorld.app, title: "fresh")
        let before = try world.store.sections().flatMap(\.todos)
        let state = try world.store.issueListingState(repositoryID: IssueWorld.app)
        let summary = try world.sync(dryRun: true)
        #expect(summary.changes == [
            .issuePulled(fullName: "octocat/app", number: pulled.number, todoID: pulled.todo.id, change: .closed),
            .issuePushed(fullName: "octocat/app", number: pushed.number, todoID: pushed.todo.id, change: .retitled("pushed again")),
            .issueImported(fullName: "octocat/app", number: fresh, todoID: nil, title: "fresh"),
        ])
        #expect(try world.store.sections().flatMap(\.todos) == before)
        #expect(try world.store.issueListingState(repositoryID: IssueWorld.app) == state)
        #expect(world.requests("PATCH").isEmpty && world.requests("POST").isEmpty)
    }

    @Test func aStateClosedOnBothSidesIsNoConflict() throws {
        let world = try IssueWorld()
        let (todo, number) = try world.linkedTodo("write the docs")
        _ = try world.store.setDone([todo.id], done: true, at: .now())
        world.activity.close(repository: IssueWorld.app, number: number)
        let summary = try world.sync()
        #expect(summary.issues == IssueCounts() && summary.changes.isEmpty)
        try world.setPush(true)
        try world.sync()
        #expect(world.requests("PATCH").isEmpty, "both sides agree: nothing to push")
    }

    /// The second PATCH meets a failing GitHub: the sync stops (exit 75), the first push is kept,
    /// and the next sync makes the second one, each exactly once.
    @Test func aPushThatFailsHalfWayCompletesOnTheNextSyncOnce() throws {
        let world = try IssueWorld()
        try world.setPush(true)
        let first = try world.linkedTodo("first")
        let second = try world.linkedTodo("second")
        _ = try world.store.setDone([first.todo.id, second.todo.id], done: true, at: .now())
        // As many failures as the sync's attempts at the second PATCH.
        world.activity.failNext("PATCH", pathSuffix: "/issues/\(second.number)", count: 2, with: .status(502))
        do {
            try world.sync()
            Issue.record("the sync should have stopped")
        } catch SyncError.interrupted(_, let summary) {
            #expect(summary.issues.pushed == 1)
        }
        #expect(world.activity.issue(repository: IssueWorld.app, number: first.number)?.state == "closed")
        #expect(world.activity.issue(repository: IssueWorld.app, number: second.number)?.state == "open")
        #expect(try world.store.linkedTodos(repositoryID: IssueWorld.app).filter { IssueReconciler.push($0.entry) != nil }.map(\.id)
                == [second.todo.id], "only the push GitHub confirmed counts as made")

        #expect(world.activity.clearFaults() == 0, "the sync stopped after the second PATCH's attempts")
        let retried = try world.sync()
        #expect(retried.issues.pushed == 1)
        #expect(world.activity.issue(repository: IssueWorld.app, number: second.number)?.state == "closed")
        #expect(world.activity.writes(repository: IssueWorld.app, method: "PATCH").sorted() == [first.number, second.number])
        try world.sync()
        #expect(world.activity.writes(repository: IssueWorld.app, method: "PATCH").count == 2, "exactly once each")
    }

    @Test func aGitHubThatFailsStopsTheSyncAndChangesNothing() throws {
        let world = try IssueWorld()
        let (todo, number) = try world.linkedTodo("write the docs")
        world.activity.close(repository: IssueWorld.app, number: number)
        world.activity.failNext("GET", pathSuffix: "/repos/octocat/app/issues", count: 20, with: .status(503))
        #expect(throws: SyncError.self) { try world.sync() }
        #expect(try !world.todo(todo.id).done, "a failed sync marks nothing done")
    }

    @Test func aRateLimitAtTheReserveStopsBeforeTheIssuesAreRead() throws {
        let world = try IssueWorld()
        let (todo, number) = try world.linkedTodo("write the docs")
        world.activity.close(repository: IssueWorld.app, number: number)
        world.github.resetCounters()
        world.github.rateLimit = 50  // what the reserve keeps for the user
        do {
            try world.sync()
            Issue.record("the sync should have stopped")
        } catch SyncError.reserveReached {}
        #expect(!world.github.requests.contains { $0.path.hasSuffix("/issues") })
        #expect(try !world.todo(todo.id).done)
    }

    /// A linked todo removed while its issue was closed, then restored: the listings read
    /// meanwhile (another linked todo keeps the repository read) skipped it, so without more the
    /// listing answers 304 until another issue changes. It catches up at the next sync, also when
    /// `since` moved past the close (busy: more than 50 issues changed after it).
    @Test(arguments: [false, true])
    func aRestoredLinkedTodoCatchesUpWithItsIssueAtTheNextSync(busy: Bool) throws {
        let world = try IssueWorld()
        world.activity.setClock(1_893_456_000)
        let (todo, number) = try world.linkedTodo("write the docs")
        try world.linkedTodo("another linked todo")
        try world.sync()
        _ = try world.store.removeTodos([todo.id], at: .now())
        world.activity.setClock(1_893_456_100)
        world.activity.close(repository: IssueWorld.app, number: number)
        if busy {
            world.activity.setClock(1_893_456_200)
            for index in 1...60 { world.activity.addIssue(repository: IssueWorld.app, title: "busy \(index)") }
        }
        let whileRemoved = try world.sync()
        #expect(whileRemoved.changes.isEmpty, "no todo takes the close while removed")
        if busy { #expect(try world.store.issueListingState(repositoryID: IssueWorld.app).since == "2030-01-01T00:03:19Z") }

        _ = try world.store.restoreTodos([todo.id], at: .now())
        let caughtUp = try world.sync()
        #expect(try world.todo(todo.id).done)
        #expect(caughtUp.changes == [.issuePulled(fullName: "octocat/app", number: number, todoID: todo.id, change: .closed)])
        // A large read moves `since` on, which asks once more at the new start (as any large read does).
        if busy { #expect(try world.sync().changes.isEmpty) }
        world.github.resetCounters()
        let settled = try world.sync()
        #expect(settled.changes.isEmpty && world.github.rateLimitUsed == 0, "read once: then unchanged, a 304")
    }

    @Test func aSyncWithNothingChangedCostsNoRateLimit() throws {
        let world = try IssueWorld()
        try world.setPush(true)
        try world.setImport(.all)
        for index in 1...3 { try world.linkedTodo("todo \(index)") }
        world.activity.addIssue(repository: IssueWorld.app, title: "to import")
        try world.sync()
        world.github.resetCounters()
        let noop = try world.sync()
        #expect(world.github.rateLimitUsed == 0, "\(world.github.requests.map(\.target))")
        #expect(noop.changes.isEmpty && noop.issues == IssueCounts())
        #expect(world.github.requests.count == 2, "the repository and its issues: two 304s (nothing was pushed)")
    }
}
