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

    /// A secondary rate limit is not the hour's: it is named, with the minute GitHub allows
    /// requests again (rounded up, so that the advice is never too early).
    @Test func aSecondaryLimitIsNamedWithWhenToTryAgain() throws {
        let retryAt = Timestamp(millisecondsSinceEpoch: 1_700_000_000_000 + 25_000)  // hh:mm:25
        let allowed = Timestamp(millisecondsSinceEpoch: 1_700_000_040_000).localTimeOfDay  // the next minute
        let sync = ErrorReporter.report(SyncError.secondaryRateLimited(retryAt: retryAt, summary: SyncSummary()), databasePath: nil)
        #expect(sync.code == .temporaryFailure)
        #expect(sync.message == "sync stopped: GitHub's secondary rate limit was met (too many requests in a short time); "
            + "what was done is kept; try again after \(allowed)")
        #expect(!sync.message.contains("used up"), "not the hour's limit")
        let single = ErrorReporter.report(GitHubError.secondaryRateLimited(retryAt: retryAt))
        #expect(single.code == .temporaryFailure)
        #expect(single.message == "GitHub's secondary rate limit was met (too many requests in a short time); try again after \(allowed)")
        // On a whole minute already, it stays.
        #expect(ErrorReporter.minuteAfter(Timestamp(millisecondsSinceEpoch: 1_700_000_040_000)) == allowed)
    }

    /// A repository whose reads failed in two phases (its issues, its commits) is one repository
    /// that could not be read, not two.
    @Test func aRepositoryThatFailedTwiceCountsOnce() {
        var summary = SyncSummary()
        summary.failures = [SyncFailure(fullName: "octocat/app", error: "GitHub answered 502"),
                            SyncFailure(fullName: "octocat/app", error: "GitHub answered 502")]
        let once = ErrorReporter.report(SyncError.incomplete(summary: summary), databasePath: nil)
        #expect(once.message == "sync finished, but 1 repository could not be read (octocat/app: GitHub answered 502); run 'doogit sync -v' for details")
        summary.failures.append(SyncFailure(fullName: "octocat/site", error: "not found"))
        summary.failures.append(SyncFailure(fullName: "octocat/app#3", error: "locked", wrote: true))
        let more = ErrorReporter.report(SyncError.incomplete(summary: summary), databasePath: nil)
        #expect(more.message.hasPrefix("sync finished, but 2 repositories could not be read and 1 issue could not be updated (octocat/app: GitHub answered 502; and others)"),
                "\(more.message)")
    }

    /// GitHub may send any time (an `x-ratelimit-reset` at the end of time): no trap rounding it.
    @Test func aRetryTimeAtTheEndsOfTimeIsToldWithoutTrapping() async {
        await #expect(processExitsWith: .success) {
            for milliseconds in [Int64.max, .max - 1, .min, -1] {
                _ = ErrorReporter.report(GitHubError.secondaryRateLimited(retryAt: Timestamp(millisecondsSinceEpoch: milliseconds)))
            }
        }
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
