@testable import DoogitGitHub
import Testing

struct RepositoryReferenceTests {
    @Test(arguments: [
        ("octocat/Hello-World", "octocat", "Hello-World"),
        ("https://github.com/octocat/Hello-World", "octocat", "Hello-World"),
        ("https://github.com/octocat/Hello-World.git", "octocat", "Hello-World"),
        ("https://github.com/octocat/Hello-World/", "octocat", "Hello-World"),
        ("https://github.com/octocat/Hello-World/issues/3", "octocat", "Hello-World"),
        ("https://www.github.com/octocat/Hello-World", "octocat", "Hello-World"),
        ("http://github.com/octocat/Hello-World", "octocat", "Hello-World"),
        ("git@github.com:octocat/Hello-World.git", "octocat", "Hello-World"),
        ("git@github.com:octocat/Hello-World", "octocat", "Hello-World"),
        ("ssh://git@github.com/octocat/Hello-World.git", "octocat", "Hello-World"),
        ("ssh://git@github.com:22/octocat/Hello-World.git", "octocat", "Hello-World"),
        ("octo-org/repo.with_dots-and_underscores", "octo-org", "repo.with_dots-and_underscores"),
    ])
    func fullForms(text: String, owner: String, name: String) {
        #expect(RepositoryReference.parse(text) == .full(owner: owner, name: name))
    }

    @Test func bareName() {
        #expect(RepositoryReference.parse("Hello-World") == .bare(name: "Hello-World"))
    }

    @Test(arguments: ["", "/", "a/", "/b", "a/b/c", "a b/c", "a/b c", "a\u{1B}/b", "a\t/b", "a/b\n",
                      "https://gitlab.com/a/b", "https://github.com/onlyowner", "git@gitlab.com:a/b.git",
                      "ftp://github.com/a/b", "-owner/name", "owner/..", "..", "own_er/name", "a/b?c"])
    func malformed(text: String) {
        #expect(RepositoryReference.parse(text) == nil)
    }

    @Test func enterpriseHostsAreAcceptedWhenConfigured() {
        let hosts: Set<String> = ["github.com", "github.example.com"]
        #expect(RepositoryReference.parse("https://github.example.com/team/app", hosts: hosts) == .full(owner: "team", name: "app"))
        #expect(RepositoryReference.parse("https://github.example.com/team/app") == nil)
    }
}

struct LinkHeaderTests {
    @Test func findsTheNextPage() {
        let header = #"<https://api.github.com/user/repos?page=2>; rel="next", <https://api.github.com/user/repos?page=5>; rel="last""#
        #expect(LinkHeader.url(for: "next", in: header) == "https://api.github.com/user/repos?page=2")
        #expect(LinkHeader.url(for: "last", in: header) == "https://api.github.com/user/repos?page=5")
        #expect(LinkHeader.url(for: "prev", in: header) == nil)
    }

    @Test func toleratesSpacingAndUnquotedRelations() {
        #expect(LinkHeader.url(for: "next", in: "<https://x/a>;rel=next") == "https://x/a")
        #expect(LinkHeader.url(for: "next", in: "<https://x/a> ; rel=\"prev next\"") == "https://x/a")
        #expect(LinkHeader.url(for: "next", in: "garbage") == nil)
        #expect(LinkHeader.url(for: "next", in: "") == nil)
    }
}

struct APIEndpointTests {
    @Test func defaultsAndEnterprise() throws {
        #expect(APIEndpoint.github.url("/user") == "https://api.github.com/user")
        #expect(try APIEndpoint.forHost("github.com") == .github)
        #expect(try APIEndpoint.forHost("ghe.example.com").url("/user") == "https://ghe.example.com/api/v3/user")
        #expect(try APIEndpoint("https://ghe.example.com/api/v3/").url("/user") == "https://ghe.example.com/api/v3/user")
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://localhost:1234", "http://[::1]:99", "http://127.1.2.3"])
    func loopbackHTTPIsAllowed(url: String) throws {
        _ = try APIEndpoint(url)
    }

    @Test(arguments: ["http://example.com", "http://10.0.0.1", "http://127.0.0.1.example.com", "ftp://x",
                      "https://user:pass@host", "no scheme", "https://", "https://host:99999", "https://host?x=1",
                      "https://bücher.example", "https://host/\u{9B}2J", "https://host/\u{202E}"])
    func refused(url: String) {
        #expect(throws: GitHubError.self) { try APIEndpoint(url) }
    }

    @Test func sameOriginIsSchemeHostAndPort() throws {
        let endpoint = try APIEndpoint("https://api.github.com")
        #expect(endpoint.isSameOrigin("https://api.github.com/repositories/1"))
        #expect(endpoint.isSameOrigin("https://API.github.com:443/x"))
        #expect(!endpoint.isSameOrigin("https://api.github.com.evil.com/x"))
        #expect(!endpoint.isSameOrigin("http://api.github.com/x"))
        #expect(!endpoint.isSameOrigin("https://api.github.com:8443/x"))
        #expect(!endpoint.isSameOrigin("https://codeload.github.com/x"))
    }
}

struct StatusMappingTests {
    func response(_ status: Int, _ body: String = "{}", _ headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    @Test func successesAreNotErrors() {
        for status in [200, 201, 204, 304] {
            #expect(GitHubClient.error(for: response(status)) == nil)
        }
    }

    @Test func eachStatusHasItsError() {
        #expect(GitHubClient.error(for: response(401, #"{"message":"Bad credentials"}"#)) == .unauthorized(message: "Bad credentials"))
        #expect(GitHubClient.error(for: response(404, #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#get-a-repository","status":"404"}"#), about: .repository("o/r"))
            == .notFound(.repository("o/r"), message: "Not Found"))
        #expect(GitHubClient.error(for: response(409, #"{"message":"a.txt does not match 95b9"}"#))
            == .conflict(message: "a.txt does not match 95b9"))
        #expect(GitHubClient.error(for: response(410, #"{"message":"Repository access blocked"}"#))
            == .unavailable(status: 410, message: "Repository access blocked"))
        #expect(GitHubClient.error(for: response(451, #"{"message":"Unavailable for legal reasons"}"#))
            == .unavailable(status: 451, message: "Unavailable for legal reasons"))
        #expect(GitHubClient.error(for: response(502)) == .serverError(status: 502))
        #expect(GitHubClient.error(for: response(418)) == .unexpectedStatus(418, message: "HTTP 418"))
        let validation = #"{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing_field","field":"title"}]}"#
        #expect(GitHubClient.error(for: response(422, validation)) == .validationFailed(message: "Validation Failed: title missing_field"))
    }

    @Test func rateLimitsAreToldFromOtherForbiddens() {
        let limited = response(403, #"{"message":"API rate limit exceeded for user ID 1."}"#,
                               [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000000")])
        #expect(GitHubClient.error(for: limited) == .rateLimited(resetAt: .init(secondsSinceEpoch: 1_700_000_000)))
        #expect(GitHubClient.error(for: response(403, #"{"message":"API rate limit exceeded"}"#)) == .rateLimited(resetAt: nil))
        let sso = response(403, #"{"message":"Resource protected by organization SAML enforcement."}"#,
                           [("x-github-sso", "required; url=https://github.com/orgs/x/sso")])
        #expect(GitHubClient.error(for: sso) == .forbidden(message: "Resource protected by organization SAML enforcement.",
                                                          hint: "authorize the token for your organization's single sign-on"))
        let scope = response(403, #"{"message":"Forbidden"}"#, [("x-accepted-oauth-scopes", "repo")])
        #expect(GitHubClient.error(for: scope) == .forbidden(message: "Forbidden", hint: "the token needs the scope(s): repo"))
    }

    @Test func garbageBodiesStillMapByStatus() {
        #expect(GitHubClient.error(for: response(401, "")) == .unauthorized(message: "HTTP 401"))
        #expect(GitHubClient.error(for: response(502, "<html>")) == .serverError(status: 502))
    }

    /// A 404 that is not GitHub's answer about the resource (a wrong API URL, a proxy) is not
    /// "the repository is gone": GitHub links the endpoint's documentation in that one, and only
    /// the bare documentation root for a route it does not have.
    @Test func absenceNeedsGitHubsAnswerAboutTheResource() {
        let unknownRoutes = [
            "<html>nope", "", #"{"message":"Not Found"}"#,
            #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#,
            #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/"}"#,
            #"{"message":"Not Found","documentation_url":"https://docs.github.com/enterprise-server@3.9/rest"}"#,
            #"{"message":"Not Found","documentation_url":"https://developer.github.com/v3"}"#,
            #"{"message":"Not Found","documentation_url":7}"#,
        ]
        for body in unknownRoutes {
            #expect(GitHubClient.error(for: response(404, body), about: .user) == .unknownRoute, "\(body)")
        }
        let aboutResources = [
            #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#get-a-repository","status":"404"}"#,
            #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/issues#get-an-issue"}"#,
            #"{"message":"Not Found","documentation_url":"https://developer.github.com/v3/repos/#get"}"#,
        ]
        for body in aboutResources {
            #expect(GitHubClient.error(for: response(404, body), about: .issue(repository: "o/r", number: 3))
                == .notFound(.issue(repository: "o/r", number: 3), message: "Not Found"), "\(body)")
        }
        for status in [410, 451] {
            guard case .unexpectedStatus(status, _)? = GitHubClient.error(for: response(status, "<html>nope")) else {
                Issue.record("HTTP \(status) with an HTML body")
                continue
            }
        }
    }
}

struct RetryPolicyTests {
    @Test func backoffGrowsWithJitterWithinBounds() {
        let policy = RetryPolicy(baseDelayMilliseconds: 1000, maximumDelayMilliseconds: 8000)
        var generator = SystemRandomNumberGenerator()
        for attempt in 1...6 {
            let ceiling = min(8000, 1000 << (attempt - 1))
            for _ in 0..<50 {
                let delay = policy.delay(afterAttempt: attempt, using: &generator)
                #expect(delay >= ceiling / 2 && delay <= ceiling)
            }
        }
    }
}

struct NumberedPagesTests {
    @Test func thePagesFromTheNextToTheLast() {
        let base = "https://api.github.com/user/7/repos?per_page=100&sort=full_name&page="
        #expect(LinkHeader.numberedPages(next: base + "2", last: base + "4", limit: 10) == [base + "2", base + "3", base + "4"])
        #expect(LinkHeader.numberedPages(next: base + "2", last: base + "2000000", limit: 3) == [base + "2", base + "3", base + "4"])
        let middle = "https://x/repos?page=3&per_page=100"
        #expect(LinkHeader.numberedPages(next: middle, last: "https://x/repos?page=4&per_page=100", limit: 5)
                == [middle, "https://x/repos?page=4&per_page=100"])
    }

    /// Links that do not number their pages alike (a cursor, another query, a last before the
    /// next, a number that is not one) give none: the next link alone is followed.
    @Test func linksNotNumberedAlikeGiveNone() {
        #expect(LinkHeader.numberedPages(next: "https://x/r?after=abc", last: "https://x/r?after=xyz", limit: 5) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?page=2&a=1", last: "https://x/r?page=5&a=2", limit: 5) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?page=5", last: "https://x/r?page=2", limit: 5) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?page=2", last: "https://x/r?page=99999999999", limit: 5) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?page=-1", last: "https://x/r?page=3", limit: 5) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?page=2", last: "https://x/r?page=3", limit: 0) == nil)
        #expect(LinkHeader.numberedPages(next: "https://x/r?mypage=2", last: "https://x/r?mypage=3", limit: 5) == nil)
    }
}

struct LinkHeaderCommaTests {
    @Test func commasInsideURLsDoNotSplitLinks() {
        let header = #"<https://api.github.com/user/repos?affiliation=owner,collaborator&page=2>; rel="next", <https://api.github.com/user/repos?affiliation=owner,collaborator&page=3>; rel="last""#
        #expect(LinkHeader.url(for: "next", in: header) == "https://api.github.com/user/repos?affiliation=owner,collaborator&page=2")
        #expect(LinkHeader.url(for: "last", in: header) == "https://api.github.com/user/repos?affiliation=owner,collaborator&page=3")
    }
}
