import DoogitGitHub
import DoogitSync
import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// `sync` shows progress on stderr only when stderr is a terminal that can take it back (cron
/// mails any output; TERM=dumb cannot erase a line), and `-v` shows every request.
@Suite(.serialized)
struct SyncProgressTests {
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// Two tracked repositories of another owner (so they are fetched by id, in parallel); then
    /// `change` happens on GitHub and `sync` runs with `extra` arguments.
    func runSync(errorsIsTerminal: Bool, extra: [String] = [], environment more: [String: String] = [:],
                 change: (FakeGitHub) -> Void = { $0.rename(2, to: "deux") }) throws -> Run {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, owner: "other", name: "one", description: nil)
        github.addRepository(id: 2, owner: "other", name: "two", description: nil)
        var environment = ["HOME": home.path, "DOOGIT_API_URL": github.apiURL, "GH_TOKEN": github.token]
        environment.merge(more) { _, new in new }
        func run(_ arguments: [String], errorsIsTerminal: Bool) -> Run {
            let out = CapturingSink(), err = CapturingSink()
            let console = Console(output: out, errors: err, outputIsTerminal: false, errorsIsTerminal: errorsIsTerminal)
            let status = Doogit.run(arguments, context: Context(
                environment: environment, currentDirectory: home.path, console: console,
                retryPolicy: RetryPolicy(maximumAttempts: 1, baseDelayMilliseconds: 1, maximumDelayMilliseconds: 1,
                                         longestWaitMilliseconds: 1, deadlineMilliseconds: Patience.deadlineMilliseconds),
                runProgram: { _, _ in nil }))
            return Run(status: status, out: out.text, err: err.text)
        }
        #expect(run(["repo", "add", "other/one", "other/two"], errorsIsTerminal: false).status == 0)
        change(github)
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

        #expect(SyncCommand.progressText(SyncProgress(.commits, done: 3, total: 40)) == "reading commits 3/40")
        #expect(SyncCommand.progressText(SyncProgress(.issues, done: 0, total: 12)) == "reading issues 0/12")

        let quiet = try runSync(errorsIsTerminal: true, extra: ["--quiet"])
        #expect(quiet.err.isEmpty && quiet.out.isEmpty)
    }

    /// A dumb terminal cannot erase a line: no `\r`, no escape sequence, no progress at all.
    @Test func noProgressOnADumbTerminal() throws {
        let dumb = try runSync(errorsIsTerminal: true, environment: ["TERM": "dumb"])
        #expect(dumb.status == 0)
        #expect(dumb.err.isEmpty, "\(dumb.err.debugDescription)")
        #expect(dumb.out == "other/two: renamed to other/deux\n")
    }

    /// `-v` shows each request with its answer, the parallel ones too.
    @Test func verboseShowsEveryRequestWithItsStatus() throws {
        let verbose = try runSync(errorsIsTerminal: false, extra: ["-v"])
        #expect(verbose.status == 0)
        let lines = verbose.err.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("doogit: GET http://127.0.0.1:") && $0.hasSuffix("/repositories/1 -> 304") },
                "\(verbose.err)")
        #expect(lines.contains { $0.hasPrefix("doogit: GET http://127.0.0.1:") && $0.hasSuffix("/repositories/2 -> 200") },
                "\(verbose.err)")
        #expect(lines.contains { $0.contains("GET 2 of 2 in parallel") })
    }

    /// A failed connection reads as words, in the log and in the error, never as `connection(...)`.
    @Test func networkErrorsNeverShowDebugForms() throws {
        let down = try runSync(errorsIsTerminal: false, extra: ["-v"]) { $0.stop() }
        #expect(down.status == 75)
        #expect(down.err.contains("failed: could not connect: "), "\(down.err)")
        for debugForm in ["connection(", "cannotConnect(", "network(", "timeout(", "TransportError", "GitHubError"] {
            #expect(!down.err.contains(debugForm), "\(down.err)")
        }
        #expect(down.err.split(separator: "\n").last?.hasPrefix("doogit: error: sync stopped: cannot reach GitHub (") == true)
    }
}
