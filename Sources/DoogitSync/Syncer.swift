import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings what doogit keeps up to date with GitHub, one phase after another (see `SyncPhase`).
///
/// Every phase shares the stop rules of `SyncSession`: a rate limit reaching the reserve, a
/// network failure or a GitHub that keeps failing stop the sync at once rather than trying every
/// item in turn, and a refused token stops it too. Whatever stops it, what was done is kept and
/// reported in the summary of the `SyncError`. A Syncer only exists under the `FileLock`, so every
/// phase runs with the lock held.
public final class Syncer {
    public let store: Store
    public let github: GitHubClient
    private let lock: FileLock
    private let clock: () -> Timestamp
    /// Stop early when GitHub's remaining budget falls to this, keeping some for the user.
    public var rateLimitReserve = 50
    /// From this many tracked repositories on, the user's listing is read first.
    public var listingThreshold = ListingRead.threshold

    public init(store: Store, github: GitHubClient, lock: FileLock, clock: @escaping () -> Timestamp = Timestamp.now) {
        self.store = store
        self.github = github
        self.lock = lock
        self.clock = clock
    }

    /// The phases of a sync, in the order they run.
    private var phases: [any SyncPhase] {
        [RemotePhase(closing: false),
         RepositoryPhase(listingThreshold: listingThreshold),
         // After the repositories: a shared one renamed on GitHub is asked by its name now.
         SharePhase(closing: false),
         // Trailers before issues: a todo a commit finished closes its issue in the same sync.
         CommitPhase(),
         // The board's ticks before the issues (a tick closes a linked issue in the same sync), its
         // write after them (what the issues changed shows at once).
         BoardPhase(writing: false),
         IssuePhase(),
         // The branches of repositories whose first todos the import just brought.
         CommitPhase(firstReadsOnly: true),
         BoardPhase(writing: true),
         SharePhase(closing: true),
         RemotePhase(closing: true)]
    }

    /// Exchanges one repository's shared todos alone (`repo share`, right after sharing).
    public func exchangeShare(of repositoryID: Int64) throws -> SyncSummary {
        try withExtendedLifetime(lock) {
            var session = SyncSession(store: store, github: github, clock: clock, machine: try store.replica.machineID(), dryRun: false,
                                      rateLimitReserve: rateLimitReserve, progress: { _ in })
            return try run([SharePhase(closing: false, only: repositoryID)], in: &session)
        }
    }

    public func run(dryRun: Bool = false, progress: (SyncProgress) -> Void = { _ in }) throws -> SyncSummary {
        try withExtendedLifetime(lock) {
            try withoutActuallyEscaping(progress) { progress in
                var session = SyncSession(store: store, github: github, clock: clock, machine: try store.replica.machineID(),
                                          dryRun: dryRun, rateLimitReserve: rateLimitReserve, progress: progress)
                return try run(phases, in: &session)
            }
        }
    }

    private func run(_ phases: [any SyncPhase], in session: inout SyncSession) throws -> SyncSummary {
        let requestsBefore = github.requestCount
        func finished() -> SyncSummary {
            var summary = session.summary
            summary.requests = github.requestCount - requestsBefore
            summary.rateLimitRemaining = github.rateLimit?.remaining
            return summary
        }
        // Whatever stops the sync, what it did is reported with the error.
        do {
            for phase in phases { try phase.run(&session) }
        } catch let stop as SyncStop {
            switch stop {
            case .rateLimited(let resetAt): throw SyncError.rateLimited(resetAt: resetAt, summary: finished())
            case .secondaryRateLimited(let retryAt): throw SyncError.secondaryRateLimited(retryAt: retryAt, summary: finished())
            case .reserveReached(let reserve, let resetAt):
                throw SyncError.reserveReached(reserve: reserve, resetAt: resetAt, summary: finished())
            case .interrupted(let error): throw SyncError.interrupted(underlying: error, summary: finished())
            case .failed(let error): throw SyncError.failed(underlying: error, summary: finished())
            }
        } catch {
            throw SyncError.failed(underlying: error, summary: finished())
        }
        for share in session.summary.shares {
            guard let failure = share.failure else { continue }
            session.summary.failures.append(SyncFailure(fullName: share.repository, error: failure.advice, shared: true,
                                                          temporary: failure.isTemporary))
        }
        if let failure = session.summary.remote?.failure { throw SyncError.exchangeFailed(failure, summary: finished()) }
        if !session.summary.failures.isEmpty { throw SyncError.incomplete(summary: finished()) }
        return finished()
    }
}
