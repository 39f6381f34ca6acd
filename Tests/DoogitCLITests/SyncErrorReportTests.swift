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
}
