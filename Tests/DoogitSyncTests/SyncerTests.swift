import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Syncer against the fake GitHub on 127.0.0.1, over libcurl, with a store in a temp folder.
@Suite(.serialized)
struct SyncerTests {
    final class World {
        let folder = TemporaryDirectory()
        let github: FakeGitHub
        let store: Store
        let lock: FileLock

        init() throws {
            github = try FakeGitHub()
            store = try Store.open(path: folder.file("doogit.sqlite3"))
            lock = try #require(try FileLock(path: folder.file("doogit.sqlite3.sync-lock"), wait: false))
        }

        func client() throws -> GitHubClient { try SyncerTests.client(github) }

        func syncer(listingThreshold: Int = 10) throws -> Syncer {
            let syncer = Syncer(store: store, github: try client(), lock: lock)
            syncer.listingThreshold = listingThreshold
            return syncer
        }

        /// Tracks these repositories as `repo add` does, with one open todo each.
        func track(_ references: [String]) throws {
            let parsed = references.compactMap { RepositoryReference.parse($0) }
            let added = try RepositoryTracker(store: store, github: try client()).add(parsed, at: .now())
            for record in added.map(\.record) { _ = try store.addTodo(repositoryID: record.id, text: "todo of \(record.name)", at: .now()) }
        }

        func names() throws -> [String] { try store.repositorySummaries().map(\.repository.fullName) }
        func todoCount() throws -> Int { try store.sections().flatMap(\.todos).count }
    }

    @Test(arguments: [1, 10])
    func renamesAndTransfersKeepTheirTodos(listingThreshold: Int) throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "mine", description: "own")
        world.github.addRepository(id: 2, owner: "someone", name: "theirs", description: "other")
        try world.track(["octocat/mine", "someone/theirs"])

        world.github.rename(1, to: "mine-renamed")
        world.github.transfer(2, to: "new-owner")
        let summary = try world.syncer(listingThreshold: listingThreshold).run()

        #expect(try world.names() == ["new-owner/theirs", "octocat/mine-renamed"])
        #expect(summary.renamed == 2)
        #expect(summary.updated == 2)
        #expect(summary.changes.contains(.renamed(from: "octocat/mine", to: "octocat/mine-renamed")))
        #expect(summary.changes.contains(.renamed(from: "someone/theirs", to: "new-owner/theirs")))
        #expect(try world.todoCount() == 2)
        let sections = try world.store.sections()
        #expect(sections.map(\.repository.fullName) == ["new-owner/theirs", "octocat/mine-renamed"])
        #expect(sections.allSatisfy { $0.todos.count == 1 })
    }

    @Test(arguments: [1, 10])
    func deletedRepositoriesAreFlaggedGoneAndComeBack(listingThreshold: Int) throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "doomed", description: nil)
        world.github.addRepository(id: 2, owner: "someone", name: "also-doomed", description: nil)
        try world.track(["octocat/doomed", "someone/also-doomed"])

        world.github.delete(1)
        world.github.delete(2)
        let gone = try world.syncer(listingThreshold: listingThreshold).run()
        #expect(gone.gone == 2)
        #expect(try world.store.repositorySummaries().allSatisfy { $0.repository.gone })
        #expect(try world.todoCount() == 2, "todos of a gone repository are kept")

        let again = try world.syncer(listingThreshold: listingThreshold).run()
        #expect(again.changes.isEmpty, "gone stays gone without news")

        world.github.restore(1)
        world.github.restore(2)
        let back = try world.syncer(listingThreshold: listingThreshold).run()
        #expect(back.changes.contains(.back(fullName: "octocat/doomed")))
        #expect(back.changes.contains(.back(fullName: "someone/also-doomed")))
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
    }

    @Test func descriptionArchiveAndVisibilityChangesAreReported() throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "app", description: "old words")
        try world.track(["octocat/app"])
        world.github.update(1) {
            $0.description = nil
            $0.archived = true
            $0.isPrivate = true
        }
        let summary = try world.syncer().run()
        #expect(summary.changes == [
            .descriptionChanged(fullName: "octocat/app", description: nil),
            .archived(fullName: "octocat/app"),
            .visibilityChanged(fullName: "octocat/app", isPrivate: true),
        ])
        let record = try #require(try world.store.repository(id: 1))
        #expect(record.description == nil && record.archived && record.isPrivate)
    }

    @Test(arguments: [1, 10])
    func aNoOpSyncCostsNoRateLimit(listingThreshold: Int) throws {
        let world = try World()
        for id in 1...12 { world.github.addRepository(id: Int64(id), name: "own-\(id)", description: "d\(id)") }
        for id in 13...15 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        try world.track((1...12).map { "octocat/own-\($0)" } + (13...15).map { "other/r\($0)" })

        let first = try world.syncer(listingThreshold: listingThreshold).run()
        #expect(first.changes.isEmpty)
        world.github.resetCounters()
        let second = try world.syncer(listingThreshold: listingThreshold).run()
        #expect(second.changes.isEmpty)
        #expect(second.unchanged == 15)
        #expect(world.github.rateLimitUsed == 0, "every request of a no-op sync must be answered 304")
        #expect(world.github.requests.allSatisfy { $0.headers["if-none-match"] != nil })
    }

    @Test func theListingSavesRequests() throws {
        let world = try World()
        for id in 1...150 { world.github.addRepository(id: Int64(id), name: String(format: "own-%03d", id), description: nil) }
        world.github.addRepository(id: 500, owner: "elsewhere", name: "lib", description: nil)
        try world.track((1...150).map { String(format: "octocat/own-%03d", $0) } + ["elsewhere/lib"])
        // The first sync also notes where each default branch is (the todos are open). With no
        // listing read before, it reads the listing first: no repository it holds is fetched by id.
        world.github.resetCounters()
        _ = try world.syncer().run()
        #expect(world.github.requests.filter { $0.path.hasPrefix("/repositories/") }.map(\.path) == ["/repositories/500"])
        world.github.resetCounters()
        world.github.update(7) { $0.description = "changed" }
        let summary = try world.syncer().run()
        #expect(summary.changes == [.descriptionChanged(fullName: "octocat/own-007", description: "changed")])
        // Two pages of the listing and the one repository it does not cover, at once (and no
        // branch: nothing was pushed).
        #expect(world.github.requests.map(\.path).sorted() == ["/repositories/500", "/user/repos", "/user/repos"])
        #expect(summary.requests == 3)
    }

    @Test func aFailingGitHubStopsTheSyncAndFlagsNothing() throws {
        let world = try World()
        // Private repositories of another owner: its listing does not show them, so they are read by id.
        for id in 1...120 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil, isPrivate: true) }
        try world.track((1...120).map { "other/r\($0)" })
        let before = try world.store.repositorySummaries()
        world.github.resetCounters()
        world.github.script { _ in ServerResponse(status: 503) }
        #expect(throws: SyncError.self) { try world.syncer().run() }
        #expect(try world.store.repositorySummaries().map(\.repository.gone) == before.map(\.repository.gone))
        #expect(world.github.requests.count <= 2 * 50 + 1, "stops after the first failing batch, not after all 120")

        world.github.script { request in request.path.hasPrefix("/repositories/") ? ServerResponse(status: 200).hangingUp() : nil }
        do {
            _ = try world.syncer().run()
            Issue.record("a sync whose requests all fail must fail")
        } catch SyncError.interrupted(_, let summary) {
            #expect(summary.gone == 0)
        }
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
    }

    @Test func aRateLimitedSyncKeepsWhatItDid() throws {
        let world = try World()
        // Of four owners, fewer than 10 each: their listings are not read, they are fetched by id.
        for id in 1...30 { world.github.addRepository(id: Int64(id), owner: "other\(id % 4)", name: "r\(id)", description: "v1") }
        try world.track((1...30).map { "other\($0 % 4)/r\($0)" })
        for id in 1...30 { world.github.update(Int64(id)) { $0.description = "v2" } }
        world.github.resetCounters()
        // 50 are kept in reserve; the listing request (which covers none of these) leaves room for 9.
        world.github.rateLimit = 60
        do {
            _ = try world.syncer().run()
            Issue.record("the sync must stop at the reserve")
        } catch SyncError.reserveReached(let reserve, let resetAt, let summary) {
            #expect(reserve == 50)
            #expect(resetAt == Timestamp(secondsSinceEpoch: world.github.rateLimitReset))
            #expect(summary.updated == 9)
        }
        #expect(world.github.rateLimitUsed == 10, "\(world.github.requests.map(\.target))")
        let descriptions = try world.store.repositorySummaries().map(\.repository.description)
        #expect(descriptions.filter { $0 == "v2" }.count == 9, "what was done before the stop is kept")
    }

    @Test func aRepositoryThatCannotBeReadIsReportedNotFlagged() throws {
        let world = try World()
        world.github.addRepository(id: 1, owner: "corp", name: "sso", description: nil)
        world.github.addRepository(id: 2, owner: "other", name: "fine", description: "a")
        try world.track(["corp/sso", "other/fine"])
        world.github.update(2) { $0.description = "b" }
        world.github.script { request in
            request.path == "/repositories/1"
                ? .json(403, #"{"message":"Resource protected by organization SAML enforcement."}"#,
                        headers: [("x-github-sso", "required; url=https://github.com/orgs/corp/sso")])
                : nil
        }
        do {
            _ = try world.syncer().run()
            Issue.record("a sync with an unreadable repository is incomplete")
        } catch SyncError.incomplete(let summary) {
            #expect(summary.failures.map(\.fullName) == ["corp/sso"])
            #expect(summary.updated == 1)
        }
        #expect(try world.store.repository(id: 1)?.gone == false)
        #expect(try world.store.repository(id: 2)?.description == "b")
    }

    @Test func aDryRunChangesNothing() throws {
        let world = try World()
        for id in 1...12 { world.github.addRepository(id: Int64(id), name: "own-\(id)", description: nil) }
        try world.track((1...12).map { "octocat/own-\($0)" })
        world.github.rename(3, to: "renamed")
        world.github.delete(4)
        let before = try world.store.repositorySummaries()
        let summary = try world.syncer().run(dryRun: true)
        #expect(summary.renamed == 1 && summary.gone == 1)
        #expect(try world.store.repositorySummaries() == before)
        #expect(try world.store.cachedPage(url: world.client().userRepositoriesURL) == nil)
    }

    @Test func aNotFoundThatIsNotGitHubsFlagsNothing() throws {
        let world = try World()
        world.github.addRepository(id: 1, owner: "other", name: "x", description: nil)
        try world.track(["other/x"])
        // A wrong API URL or a proxy: 404 pages that are not the API's JSON.
        world.github.script { _ in ServerResponse(status: 404, headers: [("Content-Type", "text/html")], body: Array("<html>Not Found</html>".utf8)) }
        #expect(throws: SyncError.self) { try world.syncer().run() }
        #expect(try world.store.repository(id: 1)?.gone == false)
    }

    @Test func aShortRateLimitIsWaitedOutInTheParallelPath() throws {
        let world = try World()
        for id in 1...3 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: "v1") }
        try world.track((1...3).map { "other/r\($0)" })
        world.github.update(2) { $0.description = "v2" }
        let first = Counter()
        world.github.script { request in
            request.path == "/repositories/2" && first.next() == 1
                ? .json(429, #"{"message":"You have exceeded a secondary rate limit."}"#, headers: [("Retry-After", "0")])
                : nil
        }
        let summary = try world.syncer(listingThreshold: 100).run()
        #expect(summary.changes == [.descriptionChanged(fullName: "other/r2", description: "v2")])
    }

    @Test func aRejectedTokenIsAnAuthenticationError() throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "x", description: nil)
        try world.track(["octocat/x"])
        world.github.script { _ in .json(401, Fixtures.text("error-401.json")) }
        do {
            _ = try world.syncer().run()
            Issue.record("a refused token must stop the sync")
        } catch SyncError.failed(let underlying, _) {
            #expect(underlying as? GitHubError == .unauthorized(message: "Bad credentials"))
        }
    }

    /// The most requests a GitHub that fails everything may see from one sync: the listing with
    /// its attempts (2 in these tests), the first answers of one batch (4 in flight at first) and
    /// one request, with its attempts, that confirms the failure.
    static let mostRequestsAFailingGitHubSees = 2 + 4 + 2

    @Test(arguments: [10, 1000])
    func aGitHubAnswering502StopsAtTheFirstBatch(listingThreshold: Int) throws {
        let world = try World()
        for id in 1...120 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        try world.track((1...120).map { "other/r\($0)" })
        world.github.resetCounters()
        world.github.script { _ in .json(502, #"{"message":"Server Error"}"#) }
        do {
            _ = try world.syncer(listingThreshold: listingThreshold).run()
            Issue.record("a sync against a failing GitHub must stop")
        } catch SyncError.interrupted(let underlying, let summary) {
            #expect(underlying as? GitHubError == .serverError(status: 502))
            #expect(summary.gone == 0 && summary.changes.isEmpty)
        }
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
        #expect(world.github.requests.count <= Self.mostRequestsAFailingGitHubSees,
                "no second batch and no listing retried: \(world.github.requests.count) requests")
    }

    /// A wrong API URL (say, an `/api/v3` prefix the server does not have) answers every path with
    /// a 404 that looks like a missing repository's.
    @Test(arguments: [1, 10])
    func aWrongAPIURLFlagsNothingGone(listingThreshold: Int) throws {
        let world = try World()
        for id in 1...3 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        try world.track((1...3).map { "other/r\($0)" })
        world.github.script { _ in .json(404, Fixtures.text("error-404.json")) }
        do {
            _ = try world.syncer(listingThreshold: listingThreshold).run()
            Issue.record("a sync whose every answer is 404 must stop")
        } catch SyncError.failed(let underlying, let summary) {
            #expect(underlying is SyncAPIURLLooksWrong)
            #expect(summary.gone == 0 && summary.changes.isEmpty)
        }
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
    }

    @Test func repositoriesThatAreAllGoneAreFlaggedWhenTheAPIAnswersOtherwise() throws {
        let world = try World()
        for id in 1...3 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        try world.track((1...3).map { "other/r\($0)" })
        for id in 1...3 { world.github.delete(Int64(id)) }
        world.github.resetCounters()
        let summary = try world.syncer().run()
        #expect(summary.gone == 3)
        #expect(world.github.requests.filter { $0.path == "/user" }.count == 1, "one question settles it")
    }
}

extension SyncerTests {
    /// A client of the fake GitHub with short retries, and timeouts and a deadline that a loaded
    /// machine never reaches (`Patience`): a request that timed out would be sent again, and a
    /// count of requests or a sync's outcome would then depend on the machine's load.
    static func client(_ github: FakeGitHub) throws -> GitHubClient {
        GitHubClient(configuration: .init(
            endpoint: try APIEndpoint(github.apiURL), token: github.token,
            retry: RetryPolicy(maximumAttempts: 2, baseDelayMilliseconds: 10, maximumDelayMilliseconds: 20,
                               longestWaitMilliseconds: 100, deadlineMilliseconds: Patience.deadlineMilliseconds),
            timeouts: HTTPTimeouts(connectMilliseconds: Patience.requestMilliseconds, totalMilliseconds: Patience.requestMilliseconds,
                                   stallMilliseconds: Patience.requestMilliseconds)),
            transport: CurlTransport())
    }
}
