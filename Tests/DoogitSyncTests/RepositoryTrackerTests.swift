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
        for id in 1...60 { world.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)") }
        let concurrency = ConcurrencyGauge()
        world.github.script { request in
            concurrency.enter()
            defer { concurrency.leave() }
            _ = concurrency.wait(untilAtOnce: 4, seconds: Patience.seconds)  // parallel requests meet here
            return nil
        }
        let names = (1...60).map { "other/r\($0)" }
        do {
            _ = try world.add(Array(names[..<10]) + ["other/missing1"] + Array(names[10...]) + ["nobody/missing2"])
            Issue.record("missing repositories must fail the add")
        } catch let error as RepositoryTracker.AddFailures {
            #expect(error.asked == 62)
            #expect(error.failures.map(\.reference) == ["other/missing1", "nobody/missing2"])
        }
        #expect(try world.store.repositories().isEmpty, "nothing is added unless all are found")
        #expect(concurrency.peak >= 4, "one at a time: \(concurrency.peak)")

        world.github.script(nil)
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
}
