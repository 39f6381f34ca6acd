import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

@Suite struct CommitTrailerTests {
    @Test func doneTrailersAreReadInEveryForm() {
        let message = """
            Fix the build

            Body text mentioning Doogit-Done: in the middle is not a trailer line.
            Doogit-Done: 1B9D6BCD
            doogit-done: 1b9d6bcd-bbfd-4b2d, deadbeef99
              DOOGIT-DONE:cafebabe
            Doogit-Done: 1234567
            Doogit-Done: nothex00
            Doogit-Done: 1b9d6bcd
            Co-authored-by: someone <a@b.c>
            """
        #expect(CommitTrailers.doneReferences(in: message) == ["1b9d6bcd", "1b9d6bcdbbfd4b2d", "deadbeef99", "cafebabe"])
        #expect(CommitTrailers.doneReferences(in: "no trailers").isEmpty)
    }
}

/// `Doogit-Done:` trailers on the default branch, read by sync.
@Suite(.serialized)
struct CommitScanTests {
    static let app = IssueWorld.app

    func add(_ world: IssueWorld, _ text: String, uuid: String = UUIDv4.make()) throws -> TodoRecord {
        try world.store.addTodo(repositoryID: Self.app, text: text, uuid: uuid, at: .now())
    }

    func trailer(_ todo: TodoRecord, digits: Int = 8) -> String {
        "Doogit-Done: " + String(todo.uuid.filter { $0 != "-" }.prefix(digits))
    }

    /// The first read of a repository with todos reads its latest commits (a bounded page): a
    /// trailer pushed before it still finishes its todo, and the head is remembered.
    @Test func theFirstReadTakesTheLatestCommitsAndRemembersTheHead() throws {
        let world = try IssueWorld()
        let todo = try add(world, "fix it")
        world.github.pushCommits(repository: Self.app, messages: ["Fix it\n\n\(trailer(todo))"])
        try world.sync()
        #expect(try world.todo(todo.id).done, "a trailer pushed before the first sync counts")
        #expect(world.github.requests.allSatisfy { !$0.path.contains("/compare/") })
        #expect(world.github.requests.filter { $0.path.hasSuffix("/commits") }.count == 1, "one page of the latest")
        #expect(try world.store.commitScanState(repositoryID: Self.app).lastCommitSHA == world.activity.head(repository: Self.app))
    }

    /// The sync whose import brings a repository's first todos reads its branch, so the sync
    /// after it, with nothing new anywhere, sends no request that costs: the first read is paid
    /// once, by the sync that made it needed, and a trailer pushed before still counts.
    @Test func theSyncAfterAnImportCostsNothing() throws {
        let world = try IssueWorld()
        try world.setImport(.all)
        world.activity.addIssue(repository: Self.app, title: "imported")
        try world.sync()
        let imported = try #require(try world.store.sections(repositoryIDs: [Self.app]).first?.todos.first)
        #expect(try world.store.commitScanState(repositoryID: Self.app).lastCommitSHA == world.activity.head(repository: Self.app),
                "the importing sync read the branch")
        let before = world.github.requests.count
        let summary = try world.sync()
        let after = world.github.requests.dropFirst(before)
        #expect(!after.contains { $0.path.contains("/commits") || $0.path.contains("/branches/") },
                "\(after.map(\.path))")
        #expect(summary.changes.isEmpty)
        #expect(!(try world.todo(imported.id).done))
    }

    @Test func aTrailerOnTheDefaultBranchMarksItsTodoDone() throws {
        let world = try IssueWorld()
        world.activity.setClock(2_000_000_000)
        let first = try add(world, "first")
        let second = try add(world, "second")
        let third = try add(world, "third")
        let untouched = try add(world, "untouched")
        try world.sync()
        let pushed = world.github.pushCommits(repository: Self.app, messages: [
            "Fix the first\n\n\(trailer(first))",
            "Fix two more\n\ndoogit-done: \(second.uuid.prefix(13))\nDOOGIT-DONE: \(trailer(third, digits: 32).dropFirst(13))",
        ])
        world.activity.setClock(2_000_000_002)
        let summary = try world.sync()
        #expect(try world.todo(first.id).done && world.todo(second.id).done && world.todo(third.id).done)
        #expect(try !world.todo(untouched.id).done)
        #expect(summary.issues.closedByCommit == 3)
        #expect(summary.changes == [
            .doneByCommit(fullName: "octocat/app", todoID: first.id, sha: pushed[0]),
            .doneByCommit(fullName: "octocat/app", todoID: second.id, sha: pushed[1]),
            .doneByCommit(fullName: "octocat/app", todoID: third.id, sha: pushed[1]),
        ])

        world.github.resetCounters()
        try world.sync()
        #expect(!world.github.requests.contains { $0.path.contains("/branches/") } && world.github.rateLimitUsed == 0,
                "nothing pushed since (the repository's pushed_at stayed): the branch is not asked for")
    }

    @Test func aPushElsewhereCostsOne304AndThenNothing() throws {
        let world = try IssueWorld()
        world.activity.setClock(2_000_000_000)
        _ = try add(world, "x")
        try world.sync()
        world.github.pushCommits(repository: Self.app, branch: "elsewhere", messages: ["work in progress"])
        world.activity.setClock(2_000_000_001)
        world.github.resetCounters()
        try world.sync()
        let branch = world.github.requests.filter { $0.path.contains("/branches/") }
        let looks = world.github.requests.filter { $0.path.hasSuffix("/git/matching-refs/heads/doogit-todos") }
        // The first look for a shared branch costs one; its list's ETag makes every later look free.
        #expect(branch.count == 1 && looks.count == 1 && world.github.rateLimitUsed == 2,
                "the repository's 200, the branch's 304, and the first look for a shared branch")
        world.github.resetCounters()
        try world.sync()
        #expect(world.github.requests.count == 1 && world.github.rateLimitUsed == 0, "only the repository's 304")
        world.github.pushCommits(repository: Self.app, branch: "elsewhere", messages: ["more work"])
        world.activity.setClock(2_000_000_002)
        world.github.resetCounters()
        try world.sync()
        #expect(world.github.rateLimitUsed == 1, "the repository's 200; the branch and the look are 304s")
    }

    /// GitHub's times have whole seconds: a push in the second of the last read leaves pushed_at as
    /// it was, and is still read, because a read in the second of the last push is not trusted.
    @Test func aPushInTheSameSecondAsTheLastReadIsNotMissed() throws {
        let world = try IssueWorld()
        world.activity.setClock(2_000_000_000)
        let first = try add(world, "first")
        let second = try add(world, "second")
        try world.sync()
        world.github.pushCommits(repository: Self.app, messages: ["Fix the first\n\n\(trailer(first))"])
        try world.sync()
        #expect(try world.todo(first.id).done)
        let pushedAt = try world.store.repository(id: Self.app)?.pushedAt
        world.github.pushCommits(repository: Self.app, messages: ["Fix the second\n\n\(trailer(second))"])
        try world.sync()
        #expect(try world.store.repository(id: Self.app)?.pushedAt == pushedAt, "the same second: pushed_at did not move")
        #expect(try world.todo(second.id).done, "the push was read all the same")
        world.activity.setClock(2_000_000_005)
        try world.sync()
        world.github.resetCounters()
        try world.sync()
        #expect(!world.github.requests.contains { $0.path.contains("/branches/") }, "read in a later second: trusted")
    }

    /// A repository with no commit yet: GitHub answers its default branch with 404 "Branch not found".
    @Test func aRepositoryWithNoCommitYetSyncsAndItsFirstCommitsCount() throws {
        let world = try IssueWorld()
        world.activity.setClock(1_700_000_000)  // made long before this machine's now
        world.github.addRepository(id: 3, name: "empty", description: nil)
        world.activity.makeEmpty(repository: 3)
        _ = try RepositoryTracker(store: world.store, github: world.client()).add([.full(owner: "octocat", name: "empty")], at: .now())
        let todo = try world.store.addTodo(repositoryID: 3, text: "first commit", at: .now())
        let summary = try world.sync()
        #expect(summary.failures.isEmpty && summary.gone == 0)
        #expect(try world.store.commitScanState(repositoryID: 3).lastCommitSHA == CommitScanState.emptyBranch)
        #expect(try world.store.repository(id: 3)?.gone == false)
        world.github.resetCounters()
        try world.sync()
        #expect(!world.github.requests.contains { $0.path.contains("/branches/") }, "still empty: not asked again")
        world.activity.setClock(1_700_000_100)
        world.github.pushCommits(repository: 3, messages: ["Initial commit\n\n\(trailer(todo))"])
        try world.sync()
        #expect(try world.todo(todo.id).done, "the first pushed commit's trailers count")
    }

    @Test func aTrailerOnABranchCountsOnceTheBranchIsMerged() throws {
        let world = try IssueWorld()
        let todo = try add(world, "feature")
        try world.sync()
        world.github.pushCommits(repository: Self.app, branch: "feature", messages: ["Add it\n\n\(trailer(todo))"])
        try world.sync()
        #expect(try !world.todo(todo.id).done, "not on the default branch yet")
        world.github.pushCommits(repository: Self.app, messages: ["Unrelated"])
        world.github.mergeBranch(repository: Self.app, branch: "feature")
        let merged = try world.sync()
        #expect(try world.todo(todo.id).done)
        #expect(merged.issues.closedByCommit == 1)
    }

    @Test(arguments: [false, true])
    func aForcePushIsReadFromTheNewHeadWithoutFailing(forgetOldCommits: Bool) throws {
        let world = try IssueWorld()
        let todo = try add(world, "rewritten")
        let other = try add(world, "still open")
        world.github.pushCommits(repository: Self.app, messages: ["one", "two"])
        try world.sync()
        world.github.forcePushCommits(repository: Self.app, dropping: 2, messages: ["one again\n\n\(trailer(todo))"],
                                 forget: forgetOldCommits)
        let summary = try world.sync()
        #expect(try world.todo(todo.id).done && !world.todo(other.id).done)
        #expect(summary.failures.isEmpty && summary.issues.closedByCommit == 1)
        #expect(world.github.requests.contains { $0.path.hasSuffix("/commits") })
        #expect(try world.store.commitScanState(repositoryID: Self.app).lastCommitSHA == world.activity.head(repository: Self.app))
    }

    @Test func digitsThatFitSeveralTodosAreIgnoredAndReported() throws {
        let world = try IssueWorld()
        let one = try add(world, "one", uuid: "abcdef01-0000-4000-8000-000000000001")
        let two = try add(world, "two", uuid: "abcdef01-1111-4000-8000-000000000002")
        try world.sync()
        let pushed = world.github.pushCommits(repository: Self.app, messages: ["Both?\n\nDoogit-Done: abcdef01\nDoogit-Done: abcdef0111"])
        let summary = try world.sync()
        #expect(try !world.todo(one.id).done && world.todo(two.id).done)
        #expect(summary.changes == [
            .ambiguousTrailer(fullName: "octocat/app", sha: pushed[0], prefix: "abcdef01"),
            .doneByCommit(fullName: "octocat/app", todoID: two.id, sha: pushed[0]),
        ] || summary.changes == [
            .doneByCommit(fullName: "octocat/app", todoID: two.id, sha: pushed[0]),
            .ambiguousTrailer(fullName: "octocat/app", sha: pushed[0], prefix: "abcdef01"),
        ])
    }

    /// Only repositories with open todos and commits on are read: one without todos costs no
    /// request (a push before its first todo is read with its latest commits, see below).
    @Test func onlyRepositoriesWithOpenTodosAndCommitsOnAreRead() throws {
        let world = try IssueWorld()
        try world.sync()
        world.github.pushCommits(repository: Self.app, messages: ["More"])
        try world.sync()
        #expect(!world.github.requests.contains { $0.path.contains("/branches/") || $0.path.contains("/commits") },
                "no open todos: nothing to mark, nothing read")
        let todo = try add(world, "x")
        try world.store.setSettings(repositoryIDs: [Self.app], pushIssues: nil, importIssues: nil, scanCommits: false, at: .now())
        world.github.pushCommits(repository: Self.app, messages: ["x\n\n\(trailer(todo))"])
        try world.sync()
        #expect(!world.github.requests.contains { $0.path.contains("/branches/") })
        #expect(try !world.todo(todo.id).done)

        let off = try IssueWorld()
        try off.store.setSettings(repositoryIDs: [Self.app], pushIssues: nil, importIssues: nil, scanCommits: false, at: .now())
        try off.sync()
        #expect(!off.github.requests.contains { $0.path.contains("/branches/") }, "commits off: not even the first sync reads it")
    }

    @Test func aRepositorySavedWithoutItsDefaultBranchIsReadOnceToLearnIt() throws {
        let world = try IssueWorld()
        _ = try add(world, "x")
        try world.store.database.run("UPDATE repositories SET default_branch = NULL")
        try world.sync()
        #expect(try world.store.repository(id: Self.app)?.defaultBranch == "master")
        #expect(world.github.requests.filter { $0.path == "/repositories/\(Self.app)" }.count == 2,
                "the sync's conditional request, then one to learn the branch")
        world.github.resetCounters()
        try world.sync()
        #expect(world.github.rateLimitUsed == 0)
    }

    @Test func aFailingGitHubStopsTheScanAndMarksNothing() throws {
        let world = try IssueWorld()
        let todo = try add(world, "x")
        try world.sync()
        world.github.pushCommits(repository: Self.app, messages: ["x\n\n\(trailer(todo))"])
        world.activity.failNext("GET", pathSuffix: "/compare/\(try #require(world.store.commitScanState(repositoryID: Self.app).lastCommitSHA))...\(try #require(world.activity.head(repository: Self.app)))",
                                count: 5, with: .status(503))
        #expect(throws: SyncError.self) { try world.sync() }
        #expect(try !world.todo(todo.id).done)
        world.activity.clearFaults()
        try world.sync()
        #expect(try world.todo(todo.id).done, "the next sync reads the same commits")
    }
}
