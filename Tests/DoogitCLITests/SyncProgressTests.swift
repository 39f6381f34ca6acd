import DoogitGitHub
import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// `sync` shows progress on stderr only when stderr is a terminal (cron mails any output).
@Suite(.serialized)
struct SyncProgressTests {
    func runSync(errorsIsTerminal: Bool, extra: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, owner: "other", name: "one", description: nil)
        github.addRepository(id: 2, owner: "other", name: "two", description: nil)
        let environment = ["HOME": home.path, "DOOGIT_API_URL": github.apiURL, "GH_TOKEN": github.token]
        func run(_ arguments: [String], errorsIsTerminal: Bool) -> (Int32, String, String) {
            let out = CapturingSink(), err = CapturingSink()
            let console = Console(output: out, errors: err, outputIsTerminal: false, errorsIsTerminal: errorsIsTerminal)
            let status = Doogit.run(arguments, context: Context(environment: environment, currentDirectory: home.path,
                                                                console: console, runProgram: { _, _ in nil }))
            return (status, out.text, err.text)
        }
        #expect(run(["repo", "add", "other/one", "other/two"], errorsIsTerminal: false).0 == 0)
        github.rename(2, to: "deux")
        return run(["sync"] + extra, errorsIsTerminal: errorsIsTerminal)
    }

    @Test func progressOnlyOnATerminal() throws {
        let cron = try runSync(errorsIsTerminal: false)
        #expect(cron.status == 0)
        #expect(cron.err.isEmpty)
        #expect(cron.out == "other/two: renamed to other/deux\n")

        let terminal = try runSync(errorsIsTerminal: true)
        #expect(terminal.status == 0)
        #expect(terminal.err.contains("syncing 1/2"))
        #expect(terminal.err.hasSuffix("\r\u{1B}[K"), "the progress line is cleared at the end")
        #expect(terminal.out == "other/two: renamed to other/deux\n")

        let quiet = try runSync(errorsIsTerminal: true, extra: ["--quiet"])
        #expect(quiet.err.isEmpty && quiet.out.isEmpty)
    }
}
