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
