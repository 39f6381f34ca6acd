import DoogitGitHub
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
}
