@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Names outside ASCII reach GitHub percent-encoded, on the API's origin and with the token; a
/// request that goes without the token is never taken for the token's fault.
@Suite(.serialized)
struct PathEncodingClientTests {
    func client(_ url: String, token: String) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(url), token: token, userAgent: "doogit-tests",
                                          retry: GitHubClientTests.quickRetries, timeouts: GitHubClientTests.patientTimeouts),
                     transport: CurlTransport())
    }

    /// Owners and names come from other machines' files and old answers too. One outside ASCII
    /// is read alone and in parallel (the way sync reads), each request with the token.
    @Test func aRepositoryWithANameOutsideASCIIIsFetchedWithTheToken() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 7, owner: "octocat", name: "héllo wörld", description: nil)
        let api = try client(github.apiURL, token: github.token)

        #expect(try api.repository(owner: "octocat", name: "héllo wörld").id == 7)
        let together = api.repositoriesWithETags([.name(owner: "octocat", name: "héllo wörld")])
        #expect(try together.first?.get().repository.id == 7)
        let resource = GitHubResource.repository("octocat/héllo wörld")
        let pages = api.issuePages([(url: api.issueListingURL(owner: "octocat", name: "héllo wörld", since: nil), etag: nil,
                                     resource: resource)])
        guard case .success(.modified(let page, _))? = pages.first else {
            Issue.record("the issue listing was not read: \(pages)")
            return
        }
        #expect(page.issues.isEmpty)
        let heads = api.branchHeads([(url: api.branchURL(owner: "octocat", name: "héllo wörld", branch: "mäster"), etag: nil,
                                      resource: resource)])
        guard case .failure(let missing)? = heads.first else {
            Issue.record("a branch that does not exist was found: \(heads)")
            return
        }
        #expect(GitHubClient.isMissingBranch(missing), "GitHub's 'Branch not found', not a refusal: \(missing)")

        #expect(github.requests.count == 4)
        for request in github.requests {
            #expect(request.headers["authorization"] == "Bearer \(github.token)", "\(request.target)")
            #expect(request.target.hasPrefix("/repos/octocat/h%C3%A9llo%20w%C3%B6rld"), "\(request.target)")
        }
    }

    /// A name that would step up the path (`..`) or end it (`?`, `#`) stays one segment: the
    /// request goes where it was meant to, with the token.
    @Test func aNameCannotChangeThePathsShape() throws {
        let github = try FakeGitHub()
        let api = try client(github.apiURL, token: github.token)
        for (owner, name) in [("..", "user"), ("octocat", "../../user"), ("octocat", "a?x=1#y"), ("octo%2Fcat", "n")] {
            #expect(throws: GitHubError.notFound(.repository("\(owner)/\(name)"), message: "Not Found")) {
                try api.repository(owner: owner, name: name)
            }
        }
        for request in github.requests {
            #expect(request.target.split(separator: "/").count == 3 && request.target.hasPrefix("/repos/"), "\(request.target)")
            #expect(request.headers["authorization"] == "Bearer \(github.token)")
        }
    }

    /// A URL on another origin than the API's gets no token, so its 401 says that origin refused
    /// a request sent without it, not that the token is wrong.
    @Test func aRefusalFromAnotherOriginIsNotTheTokens() throws {
        let github = try FakeGitHub()
        let elsewhere = try HTTPServer { request in
            request.headers["authorization"] == nil ? .json(401, Fixtures.text("error-401.json")) : .json(200, "[]")
        }
        let api = try client(github.apiURL, token: github.token)
        let pages = api.issuePages([(url: elsewhere.baseURL + "/repos/octocat/app/issues", etag: nil,
                                     resource: .repository("octocat/app"))])
        guard case .failure(let error)? = pages.first else {
            Issue.record("answered: \(pages)")
            return
        }
        #expect(error == .refusedWithoutToken(origin: elsewhere.baseURL, message: "Bad credentials"))
        #expect(github.requests.isEmpty)
    }

    @Test func theOriginOfAURLForAMessage() {
        #expect(APIEndpoint.origin(of: "http://127.0.0.1:8080/repos/a/b?page=2") == "http://127.0.0.1:8080")
        #expect(APIEndpoint.origin(of: "https://ghe.example.com/api/v3/x") == "https://ghe.example.com")
        #expect(APIEndpoint.origin(of: "https://héllo.example/x y") == "https://héllo.example")
        #expect(APIEndpoint.origin(of: "not a URL") == "not a URL")
    }
}
