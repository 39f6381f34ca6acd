import DoogitGitHub
import DoogitSync
import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// `repo add` with many names says which one failed, with the exit code of what went wrong.
@Suite(.serialized)
struct RepoAddErrorTests {
    @Test func theFailingReferenceIsNamed() throws {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, name: "alpha")
        github.addRepository(id: 2, owner: "other", name: "beta")
        let environment = ["HOME": home.path, "DOOGIT_API_URL": github.apiURL, "GH_TOKEN": github.token]
        let out = CapturingSink(), err = CapturingSink()
        let console = Console(output: out, errors: err, outputIsTerminal: false, errorsIsTerminal: false)
        let status = Doogit.run(["repo", "add", "alpha", "other/beta", "x"],
                                context: Context(environment: environment, currentDirectory: home.path,
                                                 console: console, runProgram: { _, _ in nil }))
        #expect(status == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "doogit: error: repository 'x' (octocat/x) not found on GitHub, or the token cannot see it; nothing was added. Check the name\n")
    }

    @Test(arguments: [
        (GitHubError.unauthorized(message: "Bad credentials"), ExitCode.authentication),
        (GitHubError.network(.timeout), ExitCode.temporaryFailure),
        (GitHubError.serverError(status: 502), ExitCode.temporaryFailure),
        (GitHubError.forbidden(message: "SAML", hint: nil), ExitCode.failure),
    ])
    func theUnderlyingErrorKeepsItsExitCode(underlying: GitHubError, code: ExitCode) {
        let report = ErrorReporter.report(RepositoryTracker.AddError(reference: "o/n", resolved: nil, underlying: underlying),
                                          databasePath: nil)
        #expect(report.code == code)
        #expect(report.message.hasPrefix("cannot add 'o/n', nothing was added: "))
        #expect(report.message.hasSuffix(ErrorReporter.report(underlying).message))
    }
}
