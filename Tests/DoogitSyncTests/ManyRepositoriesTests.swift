import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Syncs of many repositories of other owners against the fake GitHub with its secondary rate
/// limits on: owners' listings where they save requests, requests paced within the limits,
/// a stop at the first secondary limit, and a first read that goes on across syncs.
@Suite(.serialized)
struct ManyRepositoriesTests {
    final class World {
        let folder = TemporaryDirectory()
        let github: FakeGitHub
        let store: Store
        let lock: FileLock
        /// One pacer for every command of the world, on the fake's clock for its limits: its
        /// waits move that clock, so minutes of pacing take no time.
        let pacer: RequestPacer

        init(pacing policy: PacingPolicy = PacingPolicy()) throws {
            github = try FakeGitHub()
            store = try Store.open(path: folder.file("doogit.sqlite3"))
            lock = try #require(try FileLock(path: folder.file("doogit.sqlite3.sync-lock"), wait: false))
            let limits = github.secondaryLimits
            limits.useManualClock()
            pacer = RequestPacer(policy: policy, now: { limits.now }, sleep: { limits.advance(milliseconds: Int64($0)) })
        }

        /// A client of generous timeouts: on a loaded machine, a thousand answers may be slow,
        /// and a retry would change the requests counted.
        func client() throws -> GitHubClient {
            GitHubClient(configuration: .init(
                endpoint: try APIEndpoint(github.apiURL), token: github.token,
                retry: RetryPolicy(maximumAttempts: 2, baseDelayMilliseconds: 10, maximumDelayMilliseconds: 20,
                                   longestWaitMilliseconds: 100, deadlineMilliseconds: 120_000),
                timeouts: HTTPTimeouts(connectMilliseconds: 60_000, totalMilliseconds: 60_000, stallMilliseconds: 60_000)),
                transport: CurlTransport(), pacer: pacer)
        }

        /// Tracks repositories by id as `repo add id:N` does, without todos (so no branch is read).
        func track(_ ids: some Sequence<Int64>) throws {
            _ = try RepositoryTracker(store: store, github: try client()).add(ids.map(RepositoryTracker.Wanted.id), at: .now())
        }

        /// Tracks them as `repo add` would, from GitHub's answer for each, but without asking it:
        /// a thousand requests take long on a loaded machine, and are not what is tested.
        func trackWithoutAsking(_ names: [String]) throws {
            let records = try names.map { name in
                let repository = try #require(github.repositoryNamed(name))
                let remote = try GitHubRepository(json: FakeGitHub.json(for: repository, apiURL: github.apiURL))
                return RepositoryTracker.record(for: remote, etag: nil, existing: nil, at: .now())
            }
            try store.transaction {
                try store.saveRepositories(records)
                try store.markTracked(ids: records.map(\.id), at: .now())
            }
        }

        func sync(_ github: GitHubClient? = nil) throws -> SyncSummary {
            try Syncer(store: store, github: try github ?? client(), lock: lock).run()
        }

        /// The ids asked for by id (`GET /repositories/{id}`), in the order GitHub received them.
        var askedByID: [Int64] {
            github.requests.compactMap { $0.path.hasPrefix("/repositories/") ? Int64($0.path.dropFirst("/repositories/".count)) : nil }
        }
    }

    /// 1,000 repositories of someone else's organisation were 1,000 requests a sync, all at once
    /// (over GitHub's 900 points a minute): now its listing, 100 a page, and by id only those of
    /// an owner with too few tracked for a listing to pay.
    @Test func repositoriesOfAnotherOwnerAreReadThroughItsListing() throws {
        let world = try World()
        for id in 1...1000 { world.github.addRepository(id: Int64(id), owner: "bigorg", name: String(format: "lib-%04d", id), description: "v1") }
        for id in 1001...1003 { world.github.addRepository(id: Int64(id), owner: "few", name: "r\(id)", description: "v1") }
        try world.trackWithoutAsking((1...1000).map { String(format: "bigorg/lib-%04d", $0) } + (1001...1003).map { "few/r\($0)" })

        let first = try world.sync()
        #expect(first.unchanged == 1003)
        let paths = world.github.requests.map(\.path)
        #expect(paths.filter { $0 == "/users/bigorg/repos" || $0.hasSuffix("/repos") && $0.hasPrefix("/user/7") }.count == 10)
        #expect(Set(world.askedByID) == [1001, 1002, 1003], "only the few are read by id")
        #expect(paths.count == 1 + 10 + 3, "\(paths)")
        #expect(world.github.secondaryLimits.refusals == 0)

        // Settled: every page and repository as last read, at no rate-limit cost.
        world.github.resetCounters()
        let settled = try world.sync()
        #expect(settled.changes.isEmpty)
        #expect(world.github.requests.count == 1 + 10 + 3, "\(world.github.requests.map(\.target))")
        #expect(world.github.rateLimitUsed == 0)
        #expect(world.github.requests.allSatisfy { $0.headers["if-none-match"] != nil })

        // A change shows in its page: one unit.
        world.github.update(500) { $0.description = "v2" }
        world.github.resetCounters()
        let changed = try world.sync()
        #expect(changed.changes == [.descriptionChanged(fullName: "bigorg/lib-0500", description: "v2")])
        #expect(world.github.rateLimitUsed == 1)
    }

    /// What an owner's listing does not show, or shows without a field doogit reads, is read by
    /// id: a private repository, one moved to another owner, one listed without `archived`
    /// (`minimal-repository` makes it optional; read as missing, it would seem unarchived).
    @Test func whatAListingDoesNotShowWholeIsReadByID() throws {
        let world = try World()
        for id in 1...20 { world.github.addRepository(id: Int64(id), owner: "bigorg", name: String(format: "lib-%02d", id), description: nil) }
        world.github.addRepository(id: 21, owner: "bigorg", name: "secret", description: nil, isPrivate: true)
        try world.track(1...21)
        world.github.transfer(3, to: "elsewhere")
        world.github.update(7) { $0.archived = true }
        let github = world.github
        github.script { request in
            guard request.path == "/users/bigorg/repos" else { return nil }
            let listed = (1...20).filter { $0 != 3 }.compactMap { github.repositoryNamed(String(format: "bigorg/lib-%02d", $0)) }
            let items = listed.map { repository -> JSONValue in
                let item = FakeGitHub.json(for: repository, apiURL: github.apiURL, form: .ownerListing)
                guard repository.id == 7, case .object(let members) = item else { return item }
                return .object(members.filter { $0.key != "archived" })
            }
            return .json(200, JSONWriter.write(.array(items)))
        }
        world.github.resetCounters()
        let summary = try world.sync()
        #expect(Set(world.askedByID) == [3, 7, 21])
        #expect(summary.changes.contains(.renamed(from: "bigorg/lib-03", to: "elsewhere/lib-03")))
        #expect(summary.changes.contains(.archived(fullName: "bigorg/lib-07")))
        #expect(try world.store.repository(id: 21)?.gone == false)
    }

    /// A sync whose first read needs more than the hour's rate limit stops at the reserve and
    /// keeps what it read; the next ones read the others first, until every one was read once.
    @Test func aFirstReadBeyondTheHoursLimitGoesOnWhereItStopped() throws {
        let world = try World()
        // Private repositories of another owner: read by id, each a unit once changed.
        for id in 1...120 { world.github.addRepository(id: Int64(id), owner: "corp", name: "r\(id)", description: "v1", isPrivate: true) }
        try world.track(1...120)
        for id in 1...120 { world.github.update(Int64(id)) { $0.description = "v2" } }

        var readBefore: Set<Int64> = []
        for round in 1...3 {
            world.github.resetCounters()  // a new hour
            world.github.rateLimit = 100  // 50 of it kept in reserve
            do {
                _ = try world.sync()
                #expect(round == 3, "the first two syncs stop at the reserve")
            } catch SyncError.reserveReached {
                #expect(round < 3)
            }
            // Those read before come last: the first asked are ones never read (but for the few
            // that the transfers at once, the transport's width, may let overtake them).
            let unread = world.askedByID.prefix(max(0, 120 - readBefore.count - SyncerTests.transfersAtOnce))
            #expect(Set(unread).isDisjoint(with: readBefore), "round \(round): \(unread)")
            let updated = try world.store.repositorySummaries().filter { $0.repository.description == "v2" }.map(\.repository.id)
            readBefore = Set(updated)
        }
        #expect(readBefore.count == 120, "every repository was read")
        #expect(try world.store.readProgress(ReadProgress.repositories).itemsRead().isEmpty, "the read is whole: forgotten")
    }

    /// At the first secondary-limit answer the sync stops: exit 75 material, what was read kept,
    /// nothing more sent (the later phases included) while GitHub asks to wait.
    @Test func aSecondaryLimitStopsTheSyncAndNothingMoreIsSent() throws {
        let world = try World()
        for id in 1...100 { world.github.addRepository(id: Int64(id), owner: "corp", name: "r\(id)", description: "v1", isPrivate: true) }
        try world.track(1...100)
        world.github.secondaryLimits.advance(seconds: 61)
        world.github.resetCounters()
        world.github.secondaryLimits.pointsPerMinute = 30
        let started = Timestamp.now().millisecondsSinceEpoch
        do {
            _ = try world.sync()
            Issue.record("the sync must stop at the secondary limit")
        } catch SyncError.secondaryRateLimited(let retryAt, let summary) {
            #expect(retryAt.millisecondsSinceEpoch >= started + 59_000)
            #expect(summary.unchanged >= 1)
        }
        #expect(world.github.secondaryLimits.refusals == 1)
        // Only what was on the wire at the refusal: the transport's width less the refused one.
        #expect(world.github.secondaryLimits.requestsWhileLimited < SyncerTests.transfersAtOnce,
                "only what was on the wire at the refusal: \(world.github.secondaryLimits.requestsWhileLimited)")
        let read = try world.store.readProgress(ReadProgress.repositories).itemsRead()
        #expect(read.count >= 28, "what was read is noted for the next sync")

        // A minute later the next sync reads the others first.
        world.github.secondaryLimits.advance(seconds: 61)
        world.github.secondaryLimits.pointsPerMinute = 900
        world.github.resetCounters()
        _ = try world.sync()
        // A repository read before starts only once all but the window's width of those never read
        // were answered: so many arrive first, whatever the order answers come in on a busy machine.
        let unreadFirst = world.askedByID.prefix(max(1, 100 - read.count - SyncerTests.transfersAtOnce + 1))
        #expect(Set(unreadFirst).isDisjoint(with: Set(read.keys.compactMap { Int64($0) })), "\(unreadFirst)")
    }

    /// Repositories no listing shows, more than a minute's points allow, by id: paced (a minute's
    /// wait, on the fake's clock), and none refused. At a tenth of GitHub's numbers (90 points
    /// a minute; doogit keeps to 80), so that it takes 200 repositories, not 2,000.
    @Test func aSyncByIDIsPacedWithinTheLimits() throws {
        let world = try World(pacing: PacingPolicy(pointsPerEndpoint: 80))
        world.github.secondaryLimits.pointsPerMinute = 90
        for id in 1...200 { world.github.addRepository(id: Int64(id), owner: "corp", name: "r\(id)", description: "v1", isPrivate: true) }
        try world.track(1...200)
        world.github.secondaryLimits.advance(seconds: 61)
        world.github.resetCounters()
        let client = try world.client()
        let summary = try world.sync(client)
        #expect(summary.unchanged == 200)
        #expect(world.github.secondaryLimits.refusals == 0)
        #expect(client.pacedMilliseconds >= 2 * 55_000, "80, then 80 a minute later, then 40 a minute after")
    }
}
