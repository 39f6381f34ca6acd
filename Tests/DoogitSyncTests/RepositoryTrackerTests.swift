import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync
import Foundation
import Testing
import TestSupport

/// `repo add` through RepositoryTracker, against the fake GitHub on 127.0.0.1.
@Suite(.serialized)
struct RepositoryTrackerTests {
    final class World {
        let folder = TemporaryDirectory()
        let github: FakeGitHub
        let store: Store

        init() throws {
            github = try FakeGitHub()
            store = try Store.open(path: folder.file("doogit.sqlite3"))
        }

        func add(_ references: [String]) throws -> [RepositoryTracker.Added] {
            let client = GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token),
                                      transport: CurlTransport())
            return try RepositoryTracker(store: store, github: client)
                .add(references.compactMap { RepositoryReference.parse($0) }, at: .now())
        }
    }

    @Test func aBadReferenceAmongSeveralIsNamedAndNothingIsAdded() throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "alpha")
        world.github.addRepository(id: 2, owner: "other", name: "beta")
        do {
            _ = try world.add(["octocat/alpha", "missing", "other/beta"])
            Issue.record("a missing repository must fail the add")
        } catch let error as RepositoryTracker.AddError {
            #expect(error.reference == "missing")
            #expect(error.resolved == "octocat/missing")
            #expect(error.underlying == .notFound(.repository("octocat/missing"), message: "Not Found"))
        }
        do {
            _ = try world.add(["octocat/alpha", "Other/Gone"])
            Issue.record("a missing repository must fail the add")
        } catch let error as RepositoryTracker.AddError {
            #expect(error.reference == "Other/Gone")
            #expect(error.resolved == nil, "OWNER/NAME needs no resolving")
        }
        #expect(try world.store.repositories().isEmpty)
    }

    @Test func aNameGitHubRedirectsIsReportedAsRequested() throws {
        let world = try World()
        world.github.addRepository(id: 1, name: "alpha")
        world.github.addRepository(id: 2, owner: "other", name: "beta")
        world.github.rename(1, to: "alpha2")
        world.github.transfer(2, to: "elsewhere")
        let added = try world.add(["octocat/alpha", "other/beta"])
        #expect(added.map(\.record.fullName) == ["octocat/alpha2", "elsewhere/beta"])
        #expect(added.map(\.requestedName) == ["octocat/alpha", "other/beta"])

        let again = try world.add(["alpha", "OCTOCAT/alpha2"])
        #expect(again.map(\.requestedName) == ["octocat/alpha", nil], "a bare name counts as the user's; case is not a rename")
    }

    @Test func manyAreFetchedAtOnceAndEveryMissingOneIsNamed() throws {
        let world = try World()
        for id in 1...60 { world.github.addRepository(id: Int64(id), owner: "other\(id % 10)", name: "r\(id)") }
        let concurrency = ConcurrencyGauge()
        world.github.script { request in
            concurrency.enter()
            defer { concurrency.leave() }
            _ = concurrency.wait(untilAtOnce: 4, seconds: Patience.seconds)  // parallel requests meet here
            return nil
        }
        // Fewer than ten of each owner: asked for one by one, not through a listing.
        let names = (1...60).map { "other\($0 % 10)/r\($0)" }
        do {
            _ = try world.add(Array(names[..<10]) + ["other1/missing1"] + Array(names[10...]) + ["nobody/missing2"])
            Issue.record("missing repositories must fail the add")
        } catch let error as RepositoryTracker.AddFailures {
            #expect(error.asked == 62)
            #expect(error.failures.map(\.reference) == ["other1/missing1", "nobody/missing2"])
        }
        #expect(try world.store.repositories().isEmpty, "nothing is added unless all are found")
        #expect(concurrency.peak >= 4, "one at a time: \(concurrency.peak)")

        world.github.script(nil)
        #expect(!world.github.requests.contains { $0.path.hasPrefix("/users/") })
        let added = try world.add(names)
        #expect(added.map(\.record.fullName) == names, "in the order asked")
        #expect(try world.store.repositories().count == 60)
    }

    @Test func aFailingGitHubFailsTheWholeAddOnceAndIsAskedAHandfulOfTimes() throws {
        let world = try World()
        for id in 1...200 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)") }
        world.github.script { _ in .json(502, #"{"message":"Server Error"}"#) }
        do {
            _ = try world.add((1...200).map { "other/r\($0)" })
            Issue.record("a failing GitHub must fail the add")
        } catch let error as RepositoryTracker.AddError {
            #expect(error.underlying == .serverError(status: 502))
        }
        #expect(world.github.requests.count <= 12, "\(world.github.requests.count) requests")
        #expect(try world.store.repositories().isEmpty)
    }

    /// 1,000 repositories of one organisation were 1,000 requests, paced by GitHub's secondary
    /// limits to a minute: now its listing's pages, asked for at once once the first names the
    /// last, and one by one only what the listing does not hold: a private repository, a former
    /// name (GitHub redirects it), a missing one (named, and nothing added).
    @Test func manyOfOneOwnerAreReadFromItsListing() throws {
        let world = try World()
        for id in 1...250 { world.github.addRepository(id: Int64(id), owner: "bigorg", name: String(format: "lib-%03d", id)) }
        world.github.addRepository(id: 251, owner: "bigorg", name: "secret", isPrivate: true)
        world.github.addRepository(id: 252, owner: "bigorg", name: "old")
        world.github.rename(252, to: "new")
        let listed = (1...250).map { String(format: "bigorg/lib-%03d", $0) }
        let concurrency = ConcurrencyGauge()
        world.github.script { request in
            // The pages after the first (`/user/{id}/repos`, as GitHub links them) meet here.
            guard request.path.hasPrefix("/user/"), request.path.hasSuffix("/repos") else { return nil }
            concurrency.enter()
            defer { concurrency.leave() }
            _ = concurrency.wait(untilAtOnce: 2, seconds: Patience.seconds)
            return nil
        }
        do {
            _ = try world.add(listed + ["bigorg/missing"])
            Issue.record("a missing repository must fail the add")
        } catch let error as RepositoryTracker.AddError {
            #expect(error.reference == "bigorg/missing")
            #expect(error.underlying == .notFound(.repository("bigorg/missing"), message: "Not Found"))
        }
        #expect(try world.store.repositories().isEmpty)
        #expect(concurrency.peak == 2, "the second and third pages at once")
        let paths = world.github.requests.map(\.path)
        #expect(paths.filter { $0.hasPrefix("/repos/") } == ["/repos/bigorg/missing"], "\(paths)")
        #expect(paths.count == 3 + 1)

        world.github.resetCounters()
        let added = try world.add(["bigorg/secret"] + listed + ["BigOrg/old"])
        #expect(added.map(\.record.fullName) == ["bigorg/secret"] + listed + ["bigorg/new"], "in the order asked")
        #expect(added.map(\.requestedName) == [nil] + listed.map { _ in nil } + ["BigOrg/old"])
        #expect(added[0].record.isPrivate && added[1].record.id == 1)
        #expect(Set(world.github.requests.map(\.path).filter { !$0.contains("/repos?") && !$0.hasSuffix("/repos") })
                == ["/repos/bigorg/secret", "/repos/BigOrg/old", "/repositories/252"])
        #expect(try world.store.repositories().count == 252)
        #expect(try world.store.findRepository(owner: "bigorg", name: "old").id == 252, "the former name kept")
        // The pages as read, for the next sync's conditional requests.
        #expect(try world.store.cachedPage(url: world.github.apiURL + "/users/bigorg/repos?per_page=100&sort=full_name") != nil)
    }

    /// An owner GitHub does not know has no listing: each of its repositories is asked for by
    /// name and named as not found.
    @Test func theRepositoriesOfAnUnknownOwnerAreEachNamed() throws {
        let world = try World()
        let names = (1...12).map { "ghost/r\($0)" }
        do {
            _ = try world.add(names)
            Issue.record("missing repositories must fail the add")
        } catch let error as RepositoryTracker.AddFailures {
            #expect(error.failures.map(\.reference) == names)
            #expect(error.failures.allSatisfy { if case .notFound = $0.underlying { true } else { false } })
        }
        #expect(world.github.requests.map(\.path).filter { $0.hasPrefix("/users/") } == ["/users/ghost/repos"])
    }
}
