import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Open issues becoming todos: each once, pull requests never.
@Suite(.serialized)
struct IssueImportTests {
    func todoTexts(_ world: IssueWorld) throws -> [String] {
        try world.store.sections().flatMap(\.todos).map(\.text).sorted()
    }

    @Test func openIssuesArriveOnceAndNeverComeBackAfterRemovalOrDone() throws {
        let world = try IssueWorld()
        let app = IssueWorld.app
        let first = world.activity.addIssue(repository: app, title: "first")
        world.activity.addIssue(repository: app, title: "already closed", state: "closed")
        world.activity.addIssue(repository: app, title: "a pull request", isPullRequest: true)
        let second = world.activity.addIssue(repository: app, title: "second")
        try world.sync()
        #expect(try todoTexts(world).isEmpty, "import is off by default")

        try world.setImport(.all)
        let imported = try world.sync()
        #expect(try todoTexts(world) == ["first", "second"])
        #expect(imported.issues.imported == 2)
        #expect(imported.changes == [
            .issueImported(fullName: "octocat/app", number: first, todoID: 1, title: "first"),
            .issueImported(fullName: "octocat/app", number: second, todoID: 2, title: "second"),
        ])
        #expect(try world.store.sections().flatMap(\.todos).compactMap(\.issue?.number).sorted() == [first, second])

        // Removed here, finished here: neither comes back, even when the issues change on GitHub.
        _ = try world.store.removeTodos([1], at: .now())
        _ = try world.store.setDone([2], done: true, at: .now())
        _ = try world.store.clearDone(repositoryID: app, at: .now())
        world.activity.updateIssue(repository: app, number: first) { $0.body = "edited" }
        world.activity.updateIssue(repository: app, number: second) { $0.assignees = ["octocat"] }
        world.activity.updateIssue(repository: app, number: 3) { $0.body = "still a pull request" }
        let again = try world.sync()
        #expect(try again.issues.imported == 0 && todoTexts(world).isEmpty)

        let later = world.activity.addIssue(repository: app, title: "opened later")
        let next = try world.sync()
        #expect(next.changes == [.issueImported(fullName: "octocat/app", number: later, todoID: 3, title: "opened later")])
        #expect(world.requests("POST").isEmpty && world.requests("PATCH").isEmpty)
    }

    @Test func assignedImportsOnlyTheUsersIssuesAndAsksWhoTheUserIsOnce() throws {
        let world = try IssueWorld()
        let app = IssueWorld.app
        world.activity.addIssue(repository: app, title: "mine", assignees: ["someone", "octocat"])
        world.activity.addIssue(repository: app, title: "theirs", assignees: ["someone"])
        let unassigned = world.activity.addIssue(repository: app, title: "nobody's")
        world.activity.addIssue(repository: app, title: "my pull request", assignees: ["octocat"], isPullRequest: true)
        try world.setImport(.assigned)
        try world.sync()
        #expect(try todoTexts(world) == ["mine"])
        #expect(world.github.requests.filter { $0.path == "/user" }.count == 1)

        world.activity.updateIssue(repository: app, number: unassigned) { $0.assignees = ["octocat"] }
        try world.sync()
        #expect(try todoTexts(world) == ["mine", "nobody's"], "an issue assigned later arrives then")
    }

    @Test func turningImportOnReadsEveryIssueOnceThenOnlyChanges() throws {
        let world = try IssueWorld()
        world.activity.setClock(1_800_000_000)
        let old = world.activity.addIssue(repository: IssueWorld.app, title: "old")
        world.activity.setClock(1_900_000_000)
        let (linked, _) = try world.linkedTodo("linked")
        try world.sync()
        try world.setImport(.all)
        world.github.resetCounters()
        try world.sync()
        #expect(try world.store.sections().flatMap(\.todos).contains { $0.issue?.number == old && $0.id != linked.id })
        let listing = try #require(world.github.requests.first { $0.path == "/repos/octocat/app/issues" })
        #expect(listing.query["since"] == nil, "the first read after turning import on has no since")
    }

    @Test func aLargeReadMovesSinceForward() throws {
        let world = try IssueWorld()
        world.activity.setClock(1_900_000_000)
        for index in 1...60 { world.activity.addIssue(repository: IssueWorld.app, title: "issue \(index)") }
        world.activity.setClock(1_900_000_500)
        world.activity.addIssue(repository: IssueWorld.app, title: "newest")
        try world.setImport(.all)
        try world.sync()
        #expect(try world.store.sections().flatMap(\.todos).count == 61)
        let state = try world.store.issueListingState(repositoryID: IssueWorld.app)
        #expect(state.since == "2030-03-17T17:54:59Z" && state.etag == nil)
        try world.sync()
        world.github.resetCounters()
        try world.sync()
        #expect(world.github.rateLimitUsed == 0, "after one read at the new since, it is a 304 again")
    }
}
