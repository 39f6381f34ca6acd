import DoogitGitHub
import DoogitSync
import Testing
@testable import DoogitCLI

/// The line and exit code of each GitHubError: every 404 names what was not found, and only a
/// repository's talks about repositories.
@Suite struct GitHubErrorReportTests {
    func report(_ error: GitHubError) -> ErrorReporter.Report { ErrorReporter.report(error) }

    @Test func eachNotFoundNamesItsResource() {
        let cases: [(GitHubResource, String)] = [
            (.repository("octo/alpha"), "repository octo/alpha not found"),
            (.issue(repository: "octo/alpha", number: 12), "issue #12 not found in octo/alpha"),
            (.file(repository: "octo/notes", path: "todo.json"), "file todo.json not found in octo/notes"),
            (.user, "signed-in user"),
        ]
        for (resource, expected) in cases {
            let line = report(.notFound(resource, message: "Not Found"))
            #expect(line.code == .failure)
            #expect(line.message.contains(expected), "\(line.message)")
            if case .repository = resource {} else { #expect(!line.message.contains("repository ")) }
        }
    }

    @Test func aWrongAPIURLSaysSoWithoutTalkingOfRepositories() {
        let line = report(.unknownRoute)
        #expect(line.code == .failure)
        #expect(line.message.contains("DOOGIT_API_URL or GH_HOST"))
        #expect(!line.message.contains("repositor"))
    }

    @Test func newFailuresExitOneWithTheirAdvice() {
        let cases: [(GitHubError, String)] = [
            (.network(.optionRefused("CURLOPT_PROTOCOLS_STR")), "libcurl refused option CURLOPT_PROTOCOLS_STR; install a newer libcurl"),
            (.redirectRefused(host: "127.0.0.1:9"), "127.0.0.1:9"),
            (.outcomeUnknown(request: "POST /repos/o/r/issues", reason: "it timed out"), "check on GitHub before repeating it"),
            (.conflict(message: "a does not match b"), "a does not match b"),
        ]
        for (error, expected) in cases {
            let line = report(error)
            #expect(line.code == .failure, "\(error)")
            #expect(line.message.contains(expected), "\(line.message)")
        }
        #expect(report(.network(.cannotConnect("refused"))).code == .temporaryFailure)
    }

    /// A 401 to a request that went without the token (its URL was on another origin) is that
    /// origin's refusal: the line names the origin, exits 1, and never blames or names the token's
    /// source, in a command or in a sync.
    @Test func aRefusalOfARequestSentWithoutTheTokenIsNotTheTokensFault() {
        let error = GitHubError.refusedWithoutToken(origin: "http://127.0.0.1:9", message: "Bad credentials")
        let sources: [TokenSource?] = [.environment("GH_TOKEN"), .saved(path: "/x/tokens", origin: "https://api.github.com"),
                                       .ghCLI(hostname: "github.com"), nil]
        for source in sources {
            let token = ErrorReporter.TokenInUse(source: source)
            for line in [ErrorReporter.report(error, token: token),
                         ErrorReporter.report(SyncError.failed(underlying: error, summary: SyncSummary()), databasePath: nil, token: token)] {
                #expect(line.code == .failure, "\(line.message)")
                #expect(line.message.contains("http://127.0.0.1:9") && line.message.contains("not the API's origin"), "\(line.message)")
                #expect(line.message.contains("DOOGIT_API_URL"), "\(line.message)")
                for blame in ["rejected", "GH_TOKEN", "unset", "auth login", "gh auth", "/x/tokens"] {
                    #expect(!line.message.contains(blame), "\(line.message)")
                }
            }
        }
        // The same 401 to a request that carried the token is the token's.
        #expect(report(.unauthorized(message: "Bad credentials")).code == .authentication)
    }
}
