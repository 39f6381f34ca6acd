@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A GitHub that is down, and an API URL that is wrong: few requests, and errors that say so.
@Suite(.serialized)
struct FailingGitHubTests {
    func client(_ apiURL: String, token: String) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(apiURL), token: token, userAgent: "doogit-tests",
                                          retry: GitHubClientTests.quickRetries, timeouts: GitHubClientTests.patientTimeouts),
                     transport: CurlTransport())
    }

    static let fifty = (1...50).map { (id: Int64($0), etag: String?.none) }

    /// 50 repositories × 3 attempts was 150 requests to a GitHub that answers 502 to all: now the
    /// first round (4 at once), then one request with the attempts it has left (2).
    @Test func aPermanentlyFailingGitHubSeesAHandfulOfRequests() throws {
        let github = try FakeGitHub()
        for id in 1...50 { github.addRepository(id: Int64(id), name: "r\(id)", description: nil) }
        github.script { _ in ServerResponse(status: 502) }
        let results = try client(github.apiURL, token: github.token).repositories(Self.fifty)
        #expect(results.count == 50)
        #expect(results.allSatisfy { $0 == .failure(.serverError(status: 502)) })
        #expect(github.requests.count <= 4 + 2, "\(github.requests.count) requests")
    }

    /// A window of one request is tried as hard as a request alone: two 502s, then the answer.
    @Test func aWindowOfOneGetsEveryAttemptOfARequestAlone() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r1", description: nil)
        let attempts = Counter()
        github.script { _ in attempts.next() <= 2 ? .json(502, #"{"message":"Server Error"}"#) : nil }
        let results = try client(github.apiURL, token: github.token).repositories([(id: 1, etag: nil)])
        #expect(results.allSatisfy { if case .success(.modified) = $0 { true } else { false } }, "\(results)")
        #expect(github.requests.count == GitHubClientTests.quickRetries.maximumAttempts)
    }

    /// A GitHub that answers every request's first two attempts with 502 looks down after the
    /// first round, but the request that settles it gets its answer at its third attempt: each
    /// of the others then gets its three attempts too, and every one is answered.
    @Test func aGitHubThatStumblesTwiceOnEveryRequestIsNotTakenForOneThatIsDown() throws {
        let github = try FakeGitHub()
        for id in 1...10 { github.addRepository(id: Int64(id), name: "r\(id)", description: nil) }
        let attempts = AttemptsByPath()
        github.script { request in attempts.next(request.path) <= 2 ? .json(502, #"{"message":"Server Error"}"#) : nil }
        let results = try client(github.apiURL, token: github.token).repositories(Array(Self.fifty.prefix(10)))
        #expect(results.allSatisfy { if case .success(.modified) = $0 { true } else { false } }, "\(results)")
        #expect(attempts.counts == Dictionary(uniqueKeysWithValues: (1...10).map { ("/repositories/\($0)", 3) }))
    }

    @Test func anUnreachableGitHubSeesAHandfulOfAttempts() throws {
        let closed = try HTTPServer { _ in ServerResponse(status: 500) }
        let url = closed.baseURL
        closed.stop()
        let api = try client(url, token: "ghp_x")
        let results = api.repositories(Self.fifty)
        #expect(results.allSatisfy { if case .failure(.network) = $0 { true } else { false } })
        #expect(api.requestCount <= 4 + 3, "\(api.requestCount) attempts")
    }

    /// A GitHub that stumbles once is not taken for one that is down.
    @Test func aSingleFailureDoesNotFailTheBatch() throws {
        let github = try FakeGitHub()
        for id in 1...50 { github.addRepository(id: Int64(id), name: "r\(id)", description: nil) }
        let first = Counter()
        github.script { _ in first.next() == 1 ? ServerResponse(status: 502) : nil }
        let results = try client(github.apiURL, token: github.token).repositories(Self.fifty)
        #expect(results.allSatisfy { if case .success(.modified) = $0 { true } else { false } })
        #expect(github.requests.count == 51)
    }

    /// A wrong path prefix (`/api/v3` on a server without it) answers every route with GitHub's
    /// generic 404: that is a wrong API URL, not a missing user or repository.
    @Test func aWrongAPIPathIsAnUnknownRouteNotAMissingRepository() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "there", description: nil)
        let wrong = try client(github.apiURL + "/api/v3", token: github.token)
        #expect(throws: GitHubError.unknownRoute) { try wrong.currentUser() }
        #expect(throws: GitHubError.unknownRoute) { try wrong.repository(owner: "octocat", name: "there") }
        let results = wrong.repositories([(id: 1, etag: nil), (id: 2, etag: nil)])
        #expect(results.allSatisfy { $0 == .failure(.unknownRoute) })

        let right = try client(github.apiURL, token: github.token)
        #expect(throws: GitHubError.notFound(.repository("octocat/missing"), message: "Not Found")) {
            try right.repository(owner: "octocat", name: "missing")
        }
        #expect(right.repositories([(id: 2, etag: nil)]).first == .failure(.notFound(.repository("id 2"), message: "Not Found")))
    }

    /// Some endpoints answer a missing resource with the bare documentation root too; where the
    /// API answers a route every GitHub has, such a 404 is still about the resource.
    @Test func aGenericNotFoundOnAWorkingAPIIsAboutTheResource() throws {
        let github = try FakeGitHub()
        github.script { request in
            request.path.hasPrefix("/repositories/") ? .json(404, FakeGitHub.unknownRouteBody) : nil
        }
        let api = try client(github.apiURL, token: github.token)
        #expect(throws: GitHubError.notFound(.repository("id 8"), message: "Not Found")) { try api.repository(id: 8) }
        #expect(throws: GitHubError.notFound(.repository("id 9"), message: "Not Found")) { try api.repository(id: 9) }
        #expect(github.requests.filter { $0.path == "/rate_limit" }.count == 1, "the API is asked once")
    }
}

/// How many times each path was asked, from the fake GitHub's threads.
final class AttemptsByPath: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String: Int] = [:]

    /// Counts one more request of `path`; how many there have been, this one included.
    func next(_ path: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        seen[path, default: 0] += 1
        return seen[path] ?? 0
    }

    var counts: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
