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
    /// A linked issue changed on GitHub, and so did its todo here.
    case issuePulled(fullName: String, number: Int64, todoID: Int64, change: IssueChange)
    /// A todo's change was pushed to its issue.
    case issuePushed(fullName: String, number: Int64, todoID: Int64, change: IssueChange)
    /// An open issue became a todo (nil: in a dry run, none was made).
    case issueImported(fullName: String, number: Int64, todoID: Int64?, title: String)
    /// Both sides changed the same thing since the last sync; the later change was kept.
    case issueConflict(fullName: String, number: Int64, todoID: Int64, field: IssueField, keptGitHub: Bool)
    /// An issue being created was linked: created now, or found from an earlier attempt.
    case issueLinked(fullName: String, number: Int64, todoID: Int64, foundEarlier: Bool)
    /// A commit's `Doogit-Done:` trailer marked a todo done.
    case doneByCommit(fullName: String, todoID: Int64, sha: String)
    /// A trailer's digits fit several todos, so it was ignored.
    case ambiguousTrailer(fullName: String, sha: String, prefix: String)
    /// A commit's trailer named a todo that was reopened after the commit: it stays open.
    case trailerOutranked(fullName: String, todoID: Int64, sha: String)
    /// An open issue made for a todo that has its issue already (two machines promoted it at
    /// once): closed as a duplicate of `keptNumber`, or (pushing off) reported. `relinked`: the
    /// todo was linked to the other one, and now to `keptNumber`, the first made.
    case duplicateIssue(fullName: String, number: Int64, keptNumber: Int64, todoID: Int64, closed: Bool, relinked: Bool)
}

/// What happened to a todo or its issue.
public enum IssueChange: Equatable, Sendable {
    case closed, reopened
    case retitled(String)
    /// Pulled: the issue's labels now (the todo's tags are its own).
    case relabelled([String])
    /// Pushed: labels added to the issue and taken off it, as the todo's tags changed here.
    case labelsChanged(added: [String], removed: [String])
}

/// What of a todo and its issue both sides changed.
public enum IssueField: String, Equatable, Sendable {
    case text, state
}

/// How many todos and issues a sync brought in step (`sync --json`'s `issues`).
public struct IssueCounts: Equatable, Sendable {
    /// Todos changed from their issues.
    public var pulled = 0
    /// Issues changed from their todos.
    public var pushed = 0
    public var imported = 0
    public var closedByCommit = 0
    public var conflicts = 0

    public init() {}
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
    public var issues = IssueCounts()
    /// Repositories GitHub refused to show for a reason other than their absence (say, a
    /// missing SSO authorization); they were left as they were.
    public var failures: [SyncFailure] = []
    /// The exchange with the file on GitHub (`remote init`); nil when no remote is set.
    public var remote: RemoteSummary?
    /// The board (`board on`); nil when it is not kept.
    public var board: BoardSummary?
    /// The exchanges of shared todos (`repo share`), by repository.
    public var shares: [ShareSummary] = []
    /// Tracked repositories found to have shared todos that are not shared from here (said once).
    public var sharesOffered: [String] = []

    public init() {}
}

public struct SyncFailure: Equatable, Sendable {
    /// The repository (OWNER/NAME), or the issue (OWNER/NAME#N).
    public var fullName: String
    public var error: String
    /// A write GitHub refused (an issue not updated), not a read.
    public var wrote: Bool
    /// The exchange of the repository's shared todos, not a read of the repository.
    public var shared: Bool
    /// Trying again later may be all it takes (GitHub unreachable or failing).
    public var temporary: Bool

    public init(fullName: String, error: String, wrote: Bool = false, shared: Bool = false, temporary: Bool = false) {
        self.fullName = fullName
        self.error = error
        self.wrote = wrote
        self.shared = shared
        self.temporary = temporary
    }
}

/// Why a sync stopped early. What it did before that is kept (and reported in `summary`).
public enum SyncError: Error, Sendable {
    /// GitHub's rate limit ran out (or is about to); try again after `resetAt`.
    case rateLimited(resetAt: Timestamp?, summary: SyncSummary)
    /// GitHub answered that a secondary rate limit is met (too many requests at once or in a
    /// minute, or too much content made); it asks for nothing more before `retryAt`.
    case secondaryRateLimited(retryAt: Timestamp, summary: SyncSummary)
    /// The sync stopped while `reserve` requests of the rate limit were left, to keep them for the user.
    case reserveReached(reserve: Int, resetAt: Timestamp?, summary: SyncSummary)
    /// GitHub could not be reached or kept failing; the sync stopped rather than trying every repository.
    case interrupted(underlying: Error, summary: SyncSummary)
    /// The sync went through, but some repositories could not be read, or some issues updated
    /// (see `summary.failures`).
    case incomplete(summary: SyncSummary)
    /// The sync went through, but the exchange with the file on GitHub failed; the local changes wait.
    case exchangeFailed(RemoteFailure, summary: SyncSummary)
    /// Anything else that stopped it: a refused token, a database error.
    case failed(underlying: Error, summary: SyncSummary)

    /// What the sync did before it stopped.
    public var summary: SyncSummary {
        switch self {
        case .rateLimited(_, let summary), .secondaryRateLimited(_, let summary), .reserveReached(_, _, let summary), .interrupted(_, let summary),
             .incomplete(let summary), .failed(_, let summary), .exchangeFailed(_, let summary):
            return summary
        }
    }
}
