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

/// What a sync did, for the summary line and `sync --json`.
public struct SyncSummary: Equatable, Sendable {
    public var repositories = 0
    public var updated = 0
    public var renamed = 0
    public var gone = 0
    public var unchanged = 0
    public var requests = 0
    public var rateLimitRemaining: Int?
    public var changes: [SyncChange] = []

    public init() {}
}

/// Why a sync stopped early. What it did before that is kept (and reported in `summary`).
public enum SyncError: Error, Sendable {
    /// Another sync holds the lock on this database.
    case alreadyRunning
    /// GitHub's rate limit ran out (or is about to); try again after `resetAt`.
    case rateLimited(resetAt: Timestamp?, summary: SyncSummary)
    /// GitHub could not be reached or kept failing; the sync stopped rather than trying every repository.
    case interrupted(underlying: Error, summary: SyncSummary)
}
