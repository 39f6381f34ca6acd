import DoogitGitHub
import DoogitSupport
import DoogitSync
import Testing
@testable import DoogitCLI

/// How a stopped sync is reported: which limit stopped it, and no internal forms.
@Suite struct SyncErrorReportTests {
    @Test func theReserveIsNamedWhenItStoppedTheSync() {
        let report = ErrorReporter.report(SyncError.reserveReached(reserve: 50, resetAt: nil, summary: SyncSummary()),
                                          databasePath: nil)
        #expect(report.code == .temporaryFailure)
        #expect(report.message == "sync stopped to keep 50 requests of GitHub's rate limit in reserve; what was done is kept; try again later")
        let used = ErrorReporter.report(SyncError.rateLimited(resetAt: nil, summary: SyncSummary()), databasePath: nil)
        #expect(used.message.hasPrefix("sync stopped: GitHub's rate limit is used up"))
    }

    /// A failed exchange does not hide the repositories that failed too; a temporary failure of
    /// the exchange is then no longer one to retry without doing anything.
    @Test func aFailedExchangeTellsWhatElseFailed() {
        var summary = SyncSummary()
        let failure = RemoteFailure.keptChanging(repository: "octocat/todos", attempts: 6)
        let alone = ErrorReporter.report(SyncError.exchangeFailed(failure, summary: summary), databasePath: nil)
        #expect(alone.code == .temporaryFailure)
        #expect(!alone.message.contains("could not be read"))
        summary.failures = [SyncFailure(fullName: "octocat/app", error: "not found", wrote: false)]
        let both = ErrorReporter.report(SyncError.exchangeFailed(failure, summary: summary), databasePath: nil)
        #expect(both.code == .failure)
        #expect(both.message.hasPrefix("sync finished, but the todo file in octocat/todos kept changing"))
        #expect(both.message.hasSuffix("; and 1 repository could not be read (octocat/app: not found); run 'doogit sync -v' for details"))
        #expect(!both.message.contains("\n"))
    }
}
