import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// The repositories of others are fetched in one sliding window, not in batches in lockstep,
/// and each is saved as its answer arrives.
@Suite(.serialized)
struct SlidingWindowTests {
    /// Repository 1's answer is held until the sync reports every other repository done: in
    /// batches, the batch holding repository 1 would wait for it, and the sync could never get there.
    @Test func aSlowAnswerHoldsBackNoOtherRepository() throws {
        let world = try SyncerTests.World()
        for id in 1...120 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: "v1") }
        try world.track((1...120).map { "other/r\($0)" })
        for id in 1...120 { world.github.update(Int64(id)) { $0.description = "v2" } }
        let done = ConcurrencyGauge()  // repositories the sync reported done (entered, never left)
        let released = ConcurrencyGauge()
        world.github.script { request in
            if request.path == "/repositories/1", done.wait(untilAtOnce: 119, seconds: Patience.seconds) { released.enter() }
            return nil
        }
        var savedBeforeTheLast: [String?] = []
        let summary = try world.syncer(listingThreshold: 1000).run { progress in
            guard progress.step == .repositories else { return }
            let handled = progress.done
            if handled == 119 { savedBeforeTheLast = (try? world.store.repositorySummaries().map(\.repository.description)) ?? [] }
            if handled > done.peak { done.enter() }
        }
        #expect(released.peak == 1, "repository 1 was answered before the others were done")
        #expect(savedBeforeTheLast.filter { $0 == "v2" }.count == 119, "saved as each answer arrived")
        #expect(summary.updated == 120)
        #expect(try world.store.repositorySummaries().allSatisfy { $0.repository.description == "v2" })
    }

    /// 120 repositories of others, tracked with an open todo each and synced once.
    static func trackedAndSynced(_ world: SyncerTests.World, linking: Bool = false) throws {
        for id in 1...120 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        world.github.activity.setClock(2_000_000_000)
        try world.track((1...120).map { "other/r\($0)" })
        if linking {
            let linker = IssueLinker(store: world.store, github: try world.client())
            for todo in try world.store.sections().flatMap(\.todos) {
                let number = world.github.activity.addIssue(repository: todo.repositoryID, title: todo.text)
                _ = try linker.link(todoID: todo.id, owner: nil, name: nil, number: number)
            }
        }
        _ = try world.syncer(listingThreshold: 1000).run()
    }

    /// The request of repository 1 that `matches` is held until the same request of every other
    /// repository has arrived; then the sync runs. Whether it was released, and how many arrived.
    static func holdingTheFirst(_ world: SyncerTests.World, _ matches: @escaping @Sendable (String) -> Bool) throws
        -> (released: Bool, others: Int) {
        let others = ConcurrencyGauge()  // the same request of the other repositories (entered, never left)
        let released = ConcurrencyGauge()
        world.github.script { request in
            guard matches(request.path) else { return nil }
            if request.path.hasPrefix("/repos/other/r1/") {
                if others.wait(untilAtOnce: 119, seconds: Patience.seconds) { released.enter() }
            } else {
                others.enter()
            }
            return nil
        }
        _ = try world.syncer(listingThreshold: 1000).run()
        return (released.peak == 1, others.peak)
    }

    /// Every branch that moved is asked for in one window: in batches of 50, the batch holding
    /// repository 1 would wait for it, and the other branches would never be asked for meanwhile.
    @Test func everyBranchThatMovedIsAskedForInOneWindow() throws {
        let world = try SyncerTests.World()
        try Self.trackedAndSynced(world)
        world.github.activity.setClock(2_000_000_010)
        for id in 1...120 { world.github.pushCommits(repository: Int64(id), messages: ["more work"]) }
        world.github.activity.setClock(2_000_000_020)
        let (released, others) = try Self.holdingTheFirst(world) { $0.contains("/branches/") }
        #expect(released, "repository 1's branch was answered before the other branches were asked for (\(others))")
        #expect(others == 119)
    }

    /// Every linked repository's issue listing is asked for in one window, as every branch is.
    @Test func everyIssueListingIsAskedForInOneWindow() throws {
        let world = try SyncerTests.World()
        try Self.trackedAndSynced(world, linking: true)
        let (released, others) = try Self.holdingTheFirst(world) { $0.hasSuffix("/issues") }
        #expect(released, "repository 1's issues were answered before the others were asked for (\(others))")
        #expect(others == 119)
    }

    /// 250 repositories of the user's own (three pages of the listing), tracked and synced once.
    static func ownListed(_ world: SyncerTests.World) throws {
        for id in 1...250 { world.github.addRepository(id: Int64(id), name: String(format: "own-%03d", id), description: nil) }
        try world.track((1...250).map { String(format: "octocat/own-%03d", $0) })
        _ = try world.syncer().run()
        world.github.resetCounters()
    }

    /// The pages of a listing read before are asked for at once: page 1 is held until page 3
    /// has been asked for, which reading one page after another never does.
    @Test func theKnownPagesOfTheListingAreAskedForAtOnce() throws {
        let world = try SyncerTests.World()
        try Self.ownListed(world)
        let third = ConcurrencyGauge(), released = ConcurrencyGauge()
        world.github.script { request in
            guard request.path == "/user/repos" else { return nil }
            switch request.query["page"] {
            case nil: if third.wait(untilAtOnce: 1, seconds: Patience.seconds) { released.enter() }
            case "3": third.enter()
            default: break
            }
            return nil
        }
        world.github.update(7) { $0.description = "changed" }
        let summary = try world.syncer().run()
        #expect(released.peak == 1, "page 1 was answered before page 3 was asked for")
        #expect(world.github.requests.map(\.path) == Array(repeating: "/user/repos", count: 3))
        #expect(summary.changes == [.descriptionChanged(fullName: "octocat/own-007", description: "changed")])
        #expect(world.github.rateLimitUsed == 1, "the unchanged pages are 304s")
    }

    /// A repository the listing did not hold when last read is fetched by id in the same window
    /// as the listing's pages: the first page is held until it has been asked for.
    @Test func theOthersAreFetchedWhileTheListingIsRead() throws {
        let world = try SyncerTests.World()
        world.github.addRepository(id: 900, owner: "elsewhere", name: "lib", description: "v1")
        try world.track(["elsewhere/lib"])
        try Self.ownListed(world)
        world.github.update(900) { $0.description = "v2" }
        let other = ConcurrencyGauge(), released = ConcurrencyGauge()
        world.github.script { request in
            if request.path == "/repositories/900" { other.enter() }
            if request.path == "/user/repos", request.query["page"] == nil, other.wait(untilAtOnce: 1, seconds: Patience.seconds) { released.enter() }
            return nil
        }
        let summary = try world.syncer().run()
        #expect(released.peak == 1, "the listing was answered before the other repository was asked for")
        #expect(summary.changes == [.descriptionChanged(fullName: "elsewhere/lib", description: "v2")])
        #expect(world.github.requests.filter { $0.path.hasPrefix("/repositories/") }.map(\.path) == ["/repositories/900"])
    }

    /// When the listing grew a page since it was read, the known pages are asked for at once and
    /// the new one after the page that now links to it; every tracked repository is still seen.
    @Test func aListingThatGrewIsReadToItsNewEnd() throws {
        let world = try SyncerTests.World()
        try Self.ownListed(world)
        for id in 251...320 { world.github.addRepository(id: Int64(id), name: String(format: "own-%03d", id), description: nil) }
        world.github.update(249) { $0.description = "changed" }
        let summary = try world.syncer().run()
        #expect(world.github.requests.map { $0.query["page"] ?? "1" } .sorted() == ["1", "2", "3", "4"])
        #expect(world.github.requests.allSatisfy { $0.path == "/user/repos" }, "no tracked repository was fetched by id")
        #expect(summary.changes == [.descriptionChanged(fullName: "octocat/own-249", description: "changed")])
        #expect(try world.store.cachedPage(url: world.client().userRepositoriesURL + "&page=4") != nil)
    }

    /// A GitHub that is down sees a handful of requests, whatever the number of repositories.
    @Test func aFailingGitHubStillSeesAHandfulOfRequests() throws {
        let world = try SyncerTests.World()
        for id in 1...400 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        try world.track((1...400).map { "other/r\($0)" })
        world.github.resetCounters()
        world.github.script { _ in .json(503, #"{"message":"Service Unavailable"}"#) }
        #expect(throws: SyncError.self) { try world.syncer(listingThreshold: 1000).run() }
        #expect(world.github.requests.count <= SyncerTests.mostRequestsAFailingGitHubSees, "\(world.github.requests.count) requests")
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
    }

    /// A GitHub that goes down part-way through the window sees a few requests more, not every
    /// repository left; what was answered before is kept.
    @Test func aGitHubThatGoesDownPartWayIsNotAskedForEveryRepositoryLeft() throws {
        let world = try SyncerTests.World()
        for id in 1...400 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: "v1") }
        try world.track((1...400).map { "other/r\($0)" })
        for id in 1...400 { world.github.update(Int64(id)) { $0.description = "v2" } }
        world.github.resetCounters()
        let arrivals = ConcurrencyGauge()  // repositories asked for (entered, never left)
        world.github.script { request in
            guard request.path.hasPrefix("/repositories/") else { return nil }
            arrivals.enter()
            return arrivals.peak > 100 ? .json(503, #"{"message":"Service Unavailable"}"#) : nil
        }
        #expect(throws: SyncError.self) { try world.syncer(listingThreshold: 1000).run() }
        let asked = world.github.requests.filter { $0.path.hasPrefix("/repositories/") }.count
        // At most: the 100 answered, those in flight (the transport's width) and those started
        // while answers of the first 100 still arrived between failures (as many more), the
        // streak, and the confirmation: well short of the 400.
        let width = SyncerTests.transfersAtOnce
        #expect(asked <= 100 + 2 * width + 4 + 2, "\(asked) requests: the window went on after GitHub went down")
        let descriptions = try world.store.repositorySummaries().map(\.repository.description)
        #expect(descriptions.filter { $0 == "v2" }.count == 100, "what was answered is kept")
        #expect(try world.store.repositorySummaries().allSatisfy { !$0.repository.gone })
    }
}

