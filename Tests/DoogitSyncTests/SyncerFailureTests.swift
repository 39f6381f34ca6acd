import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Syncer against a fake GitHub that fails, limits or refuses: the sync stops, keeps what it did,
/// and flags no repository gone.
@Suite(.serialized)
struct SyncerFailureTests {
    typealias World = SyncerTests.World

    static let mostRequestsAFailingGitHubSees = SyncerTests.mostRequestsAFailingGitHubSees

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
}
