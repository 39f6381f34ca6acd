import DoogitMerge
import DoogitSupport

/// How a repository's issue listing was last read: its ETag and the `since` it was asked with.
public struct IssueListingState: Equatable, Sendable {
    public var etag: String?
    public var since: String?

    public init(etag: String?, since: String?) {
        self.etag = etag
        self.since = since
    }
}

/// The default branch as last read: its ETag, its head commit, and the repository's `pushed_at`
/// as it was then.
public struct CommitScanState: Equatable, Sendable {
    public var branchETag: String?
    public var lastCommitSHA: String?
    public var pushedAt: String?

    /// `lastCommitSHA` of a branch that had no commit: its first commits are read, not skipped.
    public static let emptyBranch = ""

    /// Whether no commit of the branch was read yet: the next read takes its latest commits.
    public var neverRead: Bool { lastCommitSHA == nil || lastCommitSHA == Self.emptyBranch }

    public init(branchETag: String?, lastCommitSHA: String?, pushedAt: String? = nil) {
        self.branchETag = branchETag
        self.lastCommitSHA = lastCommitSHA
        self.pushedAt = pushedAt
    }
}

extension Store {
    /// Changes the settings of these repositories in one transaction; nil leaves one as it is.
    /// Widening import makes the next sync read the repository's issues in full. A change is
    /// stamped, so that it reaches the other machines.
    public func setSettings(repositoryIDs: [Int64], pushIssues: Bool?, importIssues: IssueImport?,
                            scanCommits: Bool?, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            for id in repositoryIDs {
                guard let current = try database.query("SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.id = ?",
                                                        [.integer(id)], { row throws(StoreError) in try Self.readRepository(row) })
                    .first?.settings else { throw StoreError.unknownRepository("id:\(id)") }
                let wanted = SharedSettings(pushIssues: pushIssues ?? current.pushIssues,
                                            importIssues: (importIssues ?? current.importIssues).rawValue,
                                            scanCommits: scanCommits ?? current.scanCommits)
                guard wanted != SharedSettings(pushIssues: current.pushIssues, importIssues: current.importIssues.rawValue,
                                               scanCommits: current.scanCommits) else { continue }
                try replica.writeSettings(Register(wanted, at: try replica.nextStamp(at: now)), repositoryID: id)
            }
        }
    }

    public func issueListingState(repositoryID: Int64) throws -> IssueListingState {
        try database.query("SELECT issues_etag, issues_since FROM repositories WHERE id = ?", [.integer(repositoryID)]) {
            row throws(StoreError) in
            IssueListingState(etag: try row.optionalString("issues_etag"), since: try row.optionalString("issues_since"))
        }.first ?? IssueListingState(etag: nil, since: nil)
    }

    public func saveIssueListingState(_ state: IssueListingState, repositoryID: Int64) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE repositories SET issues_etag = ?, issues_since = ? WHERE id = ?",
                             .optional(state.etag), .optional(state.since), .integer(repositoryID))
        }
    }

    public func commitScanState(repositoryID: Int64) throws -> CommitScanState {
        try database.query("SELECT branch_etag, last_commit_sha, commits_pushed_at FROM repositories WHERE id = ?",
                           [.integer(repositoryID)]) { row throws(StoreError) in
            CommitScanState(branchETag: try row.optionalString("branch_etag"),
                            lastCommitSHA: try row.optionalString("last_commit_sha"),
                            pushedAt: try row.optionalString("commits_pushed_at"))
        }.first ?? CommitScanState(branchETag: nil, lastCommitSHA: nil)
    }

    public func saveCommitScanState(_ state: CommitScanState, repositoryID: Int64) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run(
                "UPDATE repositories SET branch_etag = ?, last_commit_sha = ?, commits_pushed_at = ? WHERE id = ?",
                .optional(state.branchETag), .optional(state.lastCommitSHA), .optional(state.pushedAt),
                .integer(repositoryID))
        }
    }
}
