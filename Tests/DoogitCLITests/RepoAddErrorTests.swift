import DoogitGitHub
import DoogitSync
import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// `repo add` with many names says which one failed, with the exit code of what went wrong.
@Suite(.serialized)
struct RepoAddErrorTests {
    /// doogit run in-process against `github`, with HOME in `home`: its status, stdout and stderr.
    static func run(_ arguments: [String], github: FakeGitHub, home: TemporaryDirectory)
        -> (status: Int32, out: CapturingSink, err: CapturingSink)
    {
        let environment = ["HOME": home.path, "DOOGIT_API_URL": github.apiURL, "GH_TOKEN": github.token]
        let out = CapturingSink(), err = CapturingSink()
        let console = Console(output: out, errors: err, outputIsTerminal: false, errorsIsTerminal: false)
        let status = Doogit.run(arguments, context: Context(environment: environment, currentDirectory: home.path,
                                                            console: console, runProgram: { _, _ in nil }))
        return (status, out, err)
    }

    @Test func theFailingReferenceIsNamed() throws {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, name: "alpha")
        github.addRepository(id: 2, owner: "other", name: "beta")
        let (status, out, err) = Self.run(["repo", "add", "alpha", "other/beta", "x"], github: github, home: home)
        #expect(status == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "doogit: error: repository 'x' (octocat/x) not found on GitHub, or the token cannot see it; nothing was added. Check the name\n")
    }

    @Test func everyMissingRepositoryIsNamedOnTheOneLine() throws {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, name: "alpha")
        let (status, out, err) = Self.run(["repo", "add", "x", "alpha", "other/y"], github: github, home: home)
        #expect(status == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "doogit: error: 2 of 3 repositories cannot be added, so nothing was added: 'x' (octocat/x) not found; 'other/y' not found. Check the names (GitHub answers not found for a repository the token cannot see), or add the others without them\n")
    }

    @Test func aLongListOfFailuresIsCutShort() {
        let failures = (1...25).map {
            RepositoryTracker.AddError(reference: "o/r\($0)", resolved: nil, underlying: .notFound(.repository("o/r\($0)"), message: "Not Found"))
        }
        let report = ErrorReporter.report(RepositoryTracker.AddFailures(failures: failures, asked: 40), databasePath: nil)
        #expect(report.code == .failure)
        #expect(report.message.hasPrefix("25 of 40 repositories cannot be added, so nothing was added: 'o/r1' not found; "))
        #expect(report.message.contains("'o/r10' not found; and 15 more. Check the names"))
        #expect(!report.message.contains("'o/r11'"))
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
