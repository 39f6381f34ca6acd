import DoogitGitHub
@testable import DoogitSync
import Testing

/// Why a repository could not be read, as `sync` reports it: words, never a Swift debug form.
@Suite struct FailureTextTests {
    static let errors: [(GitHubError, String)] = [
        (.network(.connection("Couldn't resolve host name")), "the connection failed: Couldn't resolve host name"),
        (.network(.cannotConnect("Connection refused")), "could not connect: Connection refused"),
        (.network(.timeout), "timed out"),
        (.network(.tooLarge(limit: 10)), "the response was larger than 10 bytes"),
        (.network(.protocolError("bad header")), "the connection broke off: bad header"),
        (.network(.optionRefused("CURLOPT_X")), "libcurl refused option CURLOPT_X"),
        (.network(.unavailable("libcurl is missing")), "libcurl is missing"),
        (.serverError(status: 502), "GitHub is having trouble (HTTP 502)"),
        (.forbidden(message: "SSO", hint: "authorize it"), "SSO (authorize it)"),
        (.unexpectedStatus(418, message: "teapot"), "HTTP 418: teapot"),
        (.unavailable(status: 451, message: "blocked"), "HTTP 451: blocked"),
        (.conflict(message: "changed"), "changed"),
        (.validationFailed(message: "invalid"), "invalid"),
        (.unexpectedResponse("not JSON"), "unexpected response (not JSON)"),
        (.notFound(.repository("a/b"), message: "Not Found"), "not found"),
        (.unknownRoute, "no such API route (HTTP 404)"),
        (.rateLimited(resetAt: nil), "rate limit used up"),
        (.missingToken, "no token"),
        (.unauthorized(message: "Bad credentials"), "the token was rejected (Bad credentials)"),
        (.outcomeUnknown(request: "POST /x", reason: "it timed out"), "POST /x may have reached GitHub (it timed out)"),
        (.tooManyRedirects, "too many redirects"),
        (.redirectRefused(host: "evil.example"), "redirected to another host (evil.example)"),
        (.invalidAPIURL("ftp://x", reason: "not https"), "cannot use the API URL ftp://x: not https"),
    ]

    @Test(arguments: errors)
    func everyErrorReadsAsWords(error: GitHubError, text: String) {
        #expect(RepositoryPhase.describe(error) == text)
    }
}
