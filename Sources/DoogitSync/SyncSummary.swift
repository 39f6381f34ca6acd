import DoogitStore
import DoogitSupport

/// One thing a sync changed (or, in a dry run, would change).
public enum SyncChange: Equatable, Sendable {
    case renamed(from: String, to: String)
    case descriptionChanged(fullName: String, description: String?)
    case archived(fullName: String)
    case unarchived(fullName: String)
    case visibilityChanged(fullName: String, isPrivate: Bool)
    case gone(fullName: String)
    case back(fullName: String)
}

/// What a sync did, for the summary lines and `sync --json`.
public struct SyncSummary: Equatable, Sendable {
    public var repositories = 0
    /// Repositories whose name, description or flags changed (gone ones counted in `gone`).
    public var updated = 0
    public var renamed = 0
    public var gone = 0
    public var unchanged = 0
    public var requests = 0
    public var rateLimitRemaining: Int?
    public var changes: [SyncChange] = []
    /// Repositories GitHub refused to show for a reason other than their absence (say, a
    /// missing SSO authorization); they were left as they were.
    public var failures: [SyncFailure] = []

    public init() {}
}

public struct SyncFailure: Equatable, Sendable {
    public var fullName: String
    public var error: String
}

/// Why a sync stopped early. What it did before that is kept (and reported in `summary`).
public enum SyncError: Error, Sendable {
    /// GitHub's rate limit ran out (or is about to); try again after `resetAt`.
    case rateLimited(resetAt: Timestamp?, summary: SyncSummary)
    /// The sync stopped while `reserve` requests of the rate limit were left, to keep them for the user.
    case reserveReached(reserve: Int, resetAt: Timestamp?, summary: SyncSummary)
    /// GitHub could not be reached or kept failing; the sync stopped rather than trying every repository.
    case interrupted(underlying: Error, summary: SyncSummary)
    /// The sync went through, but some repositories could not be read (see `summary.failures`).
    case incomplete(summary: SyncSummary)
    /// Anything else that stopped it: a refused token, a database error.
    case failed(underlying: Error, summary: SyncSummary)

    /// What the sync did before it stopped.
    public var summary: SyncSummary {
        switch self {
        case .rateLimited(_, let summary), .reserveReached(_, _, let summary), .interrupted(_, let summary),
             .incomplete(let summary), .failed(_, let summary):
            return summary
        }
    }
}
