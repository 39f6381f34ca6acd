import DoogitGitHub
import DoogitStore
@testable import DoogitSync
import Testing
import TestSupport

/// What the suites on Syncer share: a store in a temp folder, the fake GitHub, and a client of it.
extension SyncerTests {
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

    /// The most requests a GitHub that fails everything may see from one sync: the listing with
    /// its attempts (2 in these tests), the first answers of one batch (4 in flight at first) and
    /// one request, with its attempts, that confirms the failure.
    static let mostRequestsAFailingGitHubSees = 2 + 4 + 2

    /// Requests the client's transport has in flight at once against the fake GitHub, which
    /// speaks HTTP/1.1: its width, one connection each.
    static let transfersAtOnce = CurlTransport.defaultParallelTransfers

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
