import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// One part of a sync: repositories now; GitHub issues and the todo file later. `Syncer` runs the
/// phases in order in one session, under the sync lock; a phase ends the whole sync by throwing
/// a `SyncStop`, and what every phase did before that is kept and reported.
protocol SyncPhase {
    func run(_ session: inout SyncSession) throws
}

/// Why a sync stops before the end. `Syncer` turns it into a `SyncError` with the summary.
enum SyncStop: Error {
    case rateLimited(resetAt: Timestamp?)
    /// GitHub answered that a secondary rate limit is met; nothing more is sent before `retryAt`.
    case secondaryRateLimited(retryAt: Timestamp)
    /// GitHub's remaining budget fell to the reserve kept for the user.
    case reserveReached(reserve: Int, resetAt: Timestamp?)
    case interrupted(Error)
    case failed(Error)

    var isAuthentication: Bool {
        if case .failed(GitHubError.unauthorized) = self { return true }
        return false
    }
}

/// What the phases of one sync share: the store and the GitHub client, the options, the summary
/// they add to, and the rules that decide when GitHub's answers end the whole sync.
struct SyncSession {
    let store: Store
    let github: GitHubClient
    let clock: () -> Timestamp
    /// This machine's id (its stamps').
    let machine: String
    let dryRun: Bool
    /// Stop early when GitHub's remaining budget falls to this, keeping some for the user.
    let rateLimitReserve: Int
    /// Reports how far the sync has gone, step by step.
    let progress: (SyncProgress) -> Void
    var summary = SyncSummary()

    /// When this machine saw something on GitHub, to order what it saw within one of GitHub's
    /// seconds (an issue's `updated_at` has whole seconds).
    func seenStamp() -> HybridTimestamp {
        HybridTimestamp(wall: clock().millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    /// The lock of issue creations (see `CreationLock`); nil while another process creates one.
    func creationLock(wait: Bool) throws -> CreationLock? {
        try CreationLock.take(databasePath: store.database.path, wait: wait)
    }

    /// Stops the sync when GitHub's remaining budget has fallen to the reserve.
    func checkBudget() throws(SyncStop) {
        if let budget = github.rateLimit, budget.remaining <= rateLimitReserve {
            throw .reserveReached(reserve: rateLimitReserve, resetAt: budget.resetAt)
        }
    }

    /// How many of `wanted` requests may go out before the budget reaches the reserve (at least one).
    func requestRoom(upTo wanted: Int) -> Int {
        guard let budget = github.rateLimit else { return wanted }
        return max(1, min(wanted, budget.remaining - rateLimitReserve))
    }

    /// The stop that a failed request means for the whole sync, or nil when it concerns only
    /// what it asked for.
    static func stop(for error: GitHubError) -> SyncStop? {
        switch error {
        case .rateLimited(let resetAt): return .rateLimited(resetAt: resetAt)
        case .secondaryRateLimited(let retryAt): return .secondaryRateLimited(retryAt: retryAt)
        case .network(.unavailable), .network(.optionRefused), .network(.untrusted), .missingToken, .unauthorized, .invalidAPIURL,
             .unknownRoute, .redirectRefused, .refusedWithoutToken: return .failed(error)
        case .network, .serverError: return .interrupted(error)
        default: return nil
        }
    }
}

/// GitHub answered "not found" to every repository asked for and to the signed-in user too: the
/// API URL points at something that is not GitHub's API, and nothing was flagged gone.
public struct SyncAPIURLLooksWrong: Error, Equatable, Sendable {
    public init() {}
}
