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
}
