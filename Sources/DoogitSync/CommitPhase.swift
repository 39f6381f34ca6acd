import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Marks todos done from commits that reach a repository's default branch with a trailer
/// `Doogit-Done: <first 8 or more hex digits of the todo's UUID>`.
///
/// Only repositories with `scan_commits` on and open todos are read, and only when something was
/// pushed since the last read: the repository's `pushed_at`, which the repository phase has just
/// brought up to date, has moved. Then the default branch is one conditional request (several in
/// parallel batches): unchanged, it is a 304 at no rate-limit cost. A branch that moved is read from the last commit seen (`compare`, every page), so no
/// commit is read twice. The first time, the head is only remembered: commits from before are
/// not read back. A force-push (the last commit seen is gone, or no longer behind the head) is
/// read from the latest commits of the new head, up to `recentCommitsBound`, and does not fail.
struct CommitPhase: SyncPhase {
    let batchSize: Int
    static let recentCommitsBound = 100

    func run(_ session: inout SyncSession) throws {
        var changes: [SyncChange] = []
        defer { session.summary.changes += changes.sorted(by: IssuePhase.order) }
        var repositories: [RepositoryRecord] = []
        for summary in try session.store.repositorySummaries()
        where !summary.repository.gone && summary.repository.settings.scanCommits && summary.open > 0 {
            guard let known = try withDefaultBranch(summary.repository, &session) else { continue }
            let state = try session.store.commitScanState(repositoryID: known.id)
            if state.lastCommitSHA != nil, let pushedAt = known.pushedAt, state.pushedAt == pushedAt { continue }
            repositories.append(known)
        }
        try SyncSession.forEachBatch(of: repositories, size: batchSize, in: &session) { batch, session in
            let states = try batch.map { try session.store.commitScanState(repositoryID: $0.id) }
            let results = session.github.branchHeads(zip(batch, states).map { repository, state in
                (url: session.github.branchURL(owner: repository.owner, name: repository.name,
                                               branch: repository.defaultBranch ?? ""),
                 etag: state.branchETag, resource: GitHubResource.repository(repository.fullName))
            })
            for (index, repository) in batch.enumerated() {
                do {
                    switch try results[index].get() {
                    case .modified(let head, let etag):
                        try scan(repository, from: states[index].lastCommitSHA, to: head, etag: etag, &session, &changes)
                    case .notModified:
                        // The branch did not move (a push elsewhere): noted, so that the next sync does not ask.
                        if !session.dryRun {
                            var state = states[index]
                            state.pushedAt = repository.pushedAt
                            try session.store.saveCommitScanState(state, repositoryID: repository.id)
                        }
                    }
                } catch let error as GitHubError {
                    try session.fail(error, about: repository.fullName)
                }
            }
        }
    }

    /// The repository with its default branch's name; a repository saved before doogit kept it
    /// is read once (one request) to learn it. Nil when it cannot be known.
    private func withDefaultBranch(_ repository: RepositoryRecord, _ session: inout SyncSession) throws
        -> RepositoryRecord? {
        if repository.defaultBranch != nil { return repository }
        try session.checkBudget()
        do {
            guard case .modified(let remote, let etag) = try session.github.repository(id: repository.id, ifNoneMatch: nil),
                  remote.defaultBranch != nil else { return nil }
            let record = RepositoryTracker.record(for: remote, etag: etag, existing: repository, at: session.clock())
            if !session.dryRun { try session.store.saveRepository(record) }
            return record
        } catch let error as GitHubError {
            try session.fail(error, about: repository.fullName)
            return nil
        }
    }

    /// Reads the commits that reached the branch since `last` and marks the todos they name done,
    /// together with the new head, in one transaction.
    private func scan(_ repository: RepositoryRecord, from last: String?, to head: String, etag: String?,
                      _ session: inout SyncSession, _ changes: inout [SyncChange]) throws {
        var commits: [GitHubCommit] = []
        if let last, last != head {
            commits = try newCommits(repository, from: last, to: head, session)
        }
        let todos = try session.store.sections(repositoryIDs: [repository.id]).flatMap(\.todos)
        var finished: [Int64] = []
        for commit in commits {
            for digits in CommitTrailers.doneReferences(in: commit.message) {
                let matches = todos.filter { $0.uuid.lowercased().filter { $0 != "-" }.hasPrefix(digits) }
                guard matches.count == 1 else {
                    if matches.count > 1 {
                        changes.append(.ambiguousTrailer(fullName: repository.fullName, sha: commit.sha, prefix: digits))
                    }
                    continue
                }
                let todo = matches[0]
                guard !todo.done, !finished.contains(todo.id) else { continue }
                finished.append(todo.id)
                changes.append(.doneByCommit(fullName: repository.fullName, todoID: todo.id, sha: commit.sha))
            }
        }
        session.summary.issues.closedByCommit += finished.count
        guard !session.dryRun else { return }
        try session.store.transaction {
            if !finished.isEmpty { _ = try session.store.setDone(finished, done: true, at: session.clock()) }
            try session.store.saveCommitScanState(
                CommitScanState(branchETag: etag, lastCommitSHA: head, pushedAt: repository.pushedAt),
                repositoryID: repository.id)
        }
    }

    /// The commits after `last` up to `head`, oldest first. After a force-push (`last` is gone
    /// or not an ancestor of `head`), the latest commits of `head`; when `head` went back to an
    /// ancestor of `last`, nothing is new.
    private func newCommits(_ repository: RepositoryRecord, from last: String, to head: String, _ session: SyncSession)
        throws -> [GitHubCommit] {
        do {
            let comparison = try session.github.compare(owner: repository.owner, name: repository.name, base: last, head: head)
            switch comparison.status {
            case "ahead", "identical": return comparison.commits
            case "behind": return []
            default: break
            }
        } catch GitHubError.notFound {
            // The last commit seen no longer exists: the branch was rewritten.
        }
        return try session.github.recentCommits(owner: repository.owner, name: repository.name, from: head,
                                                limit: Self.recentCommitsBound).reversed()
    }
}

/// The `Doogit-Done:` trailers of a commit message.
enum CommitTrailers {
    /// The UUID digits each `Doogit-Done:` line names (the key in any case; values separated by
    /// commas or spaces): lowercase hex without dashes, 8 to 32 digits. Others are ignored.
    static func doneReferences(in message: String) -> [String] {
        var found: [String] = []
        for line in message.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingSpaces
            guard let colon = trimmed.firstIndex(of: ":"),
                  trimmed[..<colon].trimmingSpaces.lowercased() == "doogit-done" else { continue }
            for value in trimmed[trimmed.index(after: colon)...].split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
                let digits = value.lowercased().filter { $0 != "-" }
                guard (8...32).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isHexDigit }), !found.contains(digits)
                else { continue }
                found.append(digits)
            }
        }
        return found
    }
}
