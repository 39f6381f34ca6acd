@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// GitHubClient over libcurl against the fake GitHub on 127.0.0.1.
@Suite(.serialized)
struct GitHubClientTests {
    /// Short backoffs, and a deadline that a loaded machine never reaches (`Patience`).
    static let quickRetries = RetryPolicy(maximumAttempts: 3, baseDelayMilliseconds: 20, maximumDelayMilliseconds: 80,
                                          longestWaitMilliseconds: 1500, deadlineMilliseconds: Patience.deadlineMilliseconds)
    /// Timeouts that never decide a test's result: an attempt that times out is retried, and a
    /// count of requests or an answer would then depend on the machine's load.
    static let patientTimeouts = HTTPTimeouts(connectMilliseconds: Patience.requestMilliseconds,
                                              totalMilliseconds: Patience.requestMilliseconds,
                                              stallMilliseconds: Patience.requestMilliseconds)
    /// For the tests of a timeout only, against an answer held until the request has given up.
    static let shortTimeouts = HTTPTimeouts(connectMilliseconds: 1000, totalMilliseconds: 1000, stallMilliseconds: 1000)

    func client(_ github: FakeGitHub, token: String? = nil, retry: RetryPolicy = quickRetries,
                timeouts: HTTPTimeouts = patientTimeouts, log: @escaping (String) -> Void = { _ in }) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: token ?? github.token,
                                          userAgent: "doogit-tests", retry: retry, timeouts: timeouts),
                     transport: CurlTransport(), log: log)
    }

    @Test func fetchesARepositoryWithTheHeadersGitHubWants() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1296269, owner: "octocat", name: "Hello-World", description: "My first repository on GitHub!")
        let repository = try client(github).repository(owner: "octocat", name: "Hello-World")
        #expect(repository == GitHubRepository(id: 1296269, owner: "octocat", name: "Hello-World", fullName: "octocat/Hello-World",
                                               description: "My first repository on GitHub!",
                                               htmlURL: "https://github.com/octocat/Hello-World", isPrivate: false,
                                               archived: false, pushedAt: "2011-01-26T19:06:43Z", updatedAt: "2011-01-26T19:14:43Z",
                                               defaultBranch: "master", canPush: true))
        let request = try #require(github.requests.last)
        #expect(request.headers["accept"] == "application/vnd.github+json")
        #expect(request.headers["x-github-api-version"] == "2022-11-28")
        #expect(request.headers["user-agent"] == "doogit-tests")
        #expect(request.headers["authorization"] == "Bearer \(github.token)")
        #expect(!request.target.contains(github.token))
    }

    @Test func nullDescriptionDecodes() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 5, owner: "octo-org", name: "quiet", description: nil)
        #expect(try client(github).repository(owner: "octo-org", name: "quiet").description == nil)
        let fixture = try JSONParser.parse(Fixtures.text("repo-simple-null-description.json"))
        #expect(try GitHubRepository(json: fixture).description == nil)
    }

    @Test func everyFailureStatusBecomesItsError() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "there", description: nil)
        #expect(throws: GitHubError.notFound(.repository("octocat/missing"), message: "Not Found")) {
            try client(github).repository(owner: "octocat", name: "missing")
        }
        #expect(throws: GitHubError.unauthorized(message: "Bad credentials")) {
            try client(github, token: "ghp_wrong").repository(owner: "octocat", name: "there")
        }
        github.script { _ in .json(422, Fixtures.text("error-422.json")) }
        #expect(throws: GitHubError.validationFailed(message: "Validation Failed: title missing_field")) {
            try client(github).repository(owner: "octocat", name: "there")
        }
        github.script { _ in .json(403, #"{"message":"Must have admin rights to Repository."}"#) }
        #expect(throws: GitHubError.forbidden(message: "Must have admin rights to Repository.", hint: nil)) {
            try client(github).repository(owner: "octocat", name: "there")
        }
        github.script { _ in .json(410, #"{"message":"Repository access blocked"}"#) }
        #expect(throws: GitHubError.unavailable(status: 410, message: "Repository access blocked")) {
            try client(github).repository(id: 1)
        }
    }

    @Test func malformedAndWrongTypedBodiesAreUnexpectedResponses() throws {
        let github = try FakeGitHub()
        let bodies = [
            "{\"id\": 1, \"name\": ",                                  // truncated
            "<html>Bad gateway</html>",                                // not JSON
            #"{"id":"one","name":"x","full_name":"a/x","owner":{"login":"a"},"html_url":"u","private":false}"#,
            #"{"id":1,"name":"x","full_name":"a/x","owner":{"login":"a"},"html_url":"u","private":"no"}"#,
            #"{"id":1,"name":"x","full_name":"x","html_url":"u","private":false}"#,  // no owner, and none in the full name
            #"[1,2,3]"#,
            String(repeating: "[", count: 100_000),
            "\u{FF}\u{FE}garbage",
            "",
        ]
        for body in bodies {
            github.script { _ in .json(200, body) }
            do {
                _ = try client(github).repository(owner: "a", name: "x")
                Issue.record("accepted \(body.prefix(40))")
            } catch {
                guard case GitHubError.unexpectedResponse = error else {
                    Issue.record("\(body.prefix(40)): \(error)")
                    continue
                }
            }
        }
    }

    @Test func followsTheRedirectOfARenamedRepository() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 77, owner: "octocat", name: "old-name", description: "d")
        github.rename(77, to: "new-name")
        let repository = try client(github).repository(owner: "octocat", name: "old-name")
        #expect(repository.fullName == "octocat/new-name")
        #expect(repository.id == 77)
        #expect(github.requests.map(\.path) == ["/repos/octocat/old-name", "/repositories/77"])
        #expect(github.requests.allSatisfy { $0.headers["authorization"] != nil })
    }

    /// An answer from another host would be stored as if GitHub had given it: such a redirect
    /// is refused, naming where it pointed, and nothing is asked there.
    @Test func aRedirectToAnotherOriginIsRefused() throws {
        let reached = Counter()
        let elsewhere = try HTTPServer { _ in
            _ = reached.next()
            return .json(200, JSONWriter.write(FakeGitHub.json(for: .init(id: 9, owner: "o", name: "n", description: nil),
                                                               apiURL: "x")))
        }
        let github = try FakeGitHub()
        github.script { _ in ServerResponse(status: 301, headers: [("Location", elsewhere.baseURL + "/repositories/9")]) }
        #expect(throws: GitHubError.redirectRefused(host: "127.0.0.1:\(elsewhere.port)")) {
            try client(github).repository(owner: "o", name: "n")
        }
        #expect(throws: GitHubError.redirectRefused(host: "127.0.0.1:\(elsewhere.port)")) {
            try client(github).repositories([(id: 9, etag: nil), (id: 10, etag: nil)])[0].get()
        }
        #expect(reached.value == 0)
    }

    @Test func redirectLoopsStop() throws {
        let github = try FakeGitHub()
        github.script { request in ServerResponse(status: 302, headers: [("Location", request.path)]) }
        #expect(throws: GitHubError.tooManyRedirects) { try client(github).repository(id: 1) }
    }

    @Test func conditionalRequestsAnswerNotModified() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 3, name: "etagged", description: "v1")
        let api = try client(github)
        guard case .modified(_, let etag) = try api.repository(id: 3, ifNoneMatch: nil), let etag else {
            Issue.record("first fetch must return the repository and an ETag")
            return
        }
        let used = github.rateLimitUsed
        guard case .notModified = try api.repository(id: 3, ifNoneMatch: etag) else {
            Issue.record("unchanged repository must be 304")
            return
        }
        #expect(github.rateLimitUsed == used, "a 304 costs no rate limit")
        github.update(3) { $0.description = "v2" }
        guard case .modified(let changed, _) = try api.repository(id: 3, ifNoneMatch: etag) else {
            Issue.record("changed repository must be fetched again")
            return
        }
        #expect(changed.description == "v2")
    }

    @Test func paginationReadsEveryPage() throws {
        let github = try FakeGitHub()
        for id in 1...256 { github.addRepository(id: Int64(id), name: String(format: "repo-%03d", id), description: nil) }
        let repositories = try client(github).userRepositories()
        #expect(repositories.count == 256)
        #expect(Set(repositories.map(\.id)).count == 256)
        #expect(github.requests.count == 3)
        #expect(github.requests.first?.query["per_page"] == "100")
    }

    @Test func paginationNeverLeavesTheAPIOrigin() throws {
        let github = try FakeGitHub()
        github.script { _ in .json(200, "[]", headers: [("Link", #"<https://evil.example.com/user/repos?page=2>; rel="next""#)]) }
        #expect(throws: GitHubError.self) { try client(github).userRepositories() }
        #expect(github.requests.count == 1)
    }

    @Test func transientFailuresAreRetried() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "flaky", description: nil)
        let failures = Counter()
        github.script { _ in failures.next() <= 2 ? ServerResponse(status: 502) : nil }
        #expect(try client(github).repository(id: 1).name == "flaky")
        #expect(github.requests.count == 3)

        let always = Counter()
        github.script { _ in always.next() > 0 ? ServerResponse(status: 503) : nil }
        #expect(throws: GitHubError.serverError(status: 503)) { try client(github).repository(id: 1) }
        #expect(always.value == 3, "stops after the bounded number of attempts")

        let hangups = Counter()
        github.script { _ in hangups.next() <= 2 ? ServerResponse(status: 200).hangingUp() : nil }
        #expect(try client(github).repository(id: 1).name == "flaky")
    }

    @Test func shortRateLimitsAreWaitedOutAndLongOnesAreNot() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "busy", description: nil)
        let first = Counter()
        github.script { _ in first.next() == 1 ? .json(429, #"{"message":"slow down"}"#, headers: [("Retry-After", "1")]) : nil }
        let started = Date()
        #expect(try client(github).repository(id: 1).name == "busy")
        #expect(Date().timeIntervalSince(started) >= 0.9)

        github.script { _ in .json(403, Fixtures.text("error-403-rate-limit.json"),
                                   headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "4102444800")]) }
        #expect(throws: GitHubError.rateLimited(resetAt: Timestamp(secondsSinceEpoch: 4_102_444_800))) {
            try client(github).repository(id: 1)
        }
    }

    /// A server that does not answer: the command's deadline ends the request, however long an
    /// attempt may take. Every answer is held until the call has returned, so a client that
    /// waited past its deadline would get one (the hold lets it go after a minute) and succeed.
    @Test func aStalledServerFailsWithinTheDeadline() throws {
        let github = try FakeGitHub()
        let hold = AnswerHold()
        github.script { _ in
            var late = ServerResponse.json(200, Fixtures.text("repo-full.json"))
            late.hold = hold
            return late
        }
        let policy = RetryPolicy(maximumAttempts: 3, baseDelayMilliseconds: 50, maximumDelayMilliseconds: 100,
                                 longestWaitMilliseconds: 100, deadlineMilliseconds: 2500)
        #expect(throws: GitHubError.network(.timeout)) { try client(github, retry: policy).repository(id: 1) }
        for _ in 1...policy.maximumAttempts { hold.releaseAnswer() }
    }

    @Test func currentUserReportsScopes() throws {
        let github = try FakeGitHub(login: "monalisa")
        let user = try client(github).currentUser()
        #expect(user.login == "monalisa")
        #expect(user.scopes == ["repo", "read:org"])
    }
}
