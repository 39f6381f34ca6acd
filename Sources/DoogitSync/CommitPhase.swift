import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// Marks todos done from commits that reach a repository's default branch with a trailer
/// `Doogit-Done: <first 8 or more hex digits of the todo's UUID>`.
///
/// Only repositories with `scan_commits` on and open todos are read, and only when something was
/// pushed since the last read: the repository's `pushed_at`, which the repository phase has just
/// brought up to date, has moved (GitHub's times have whole seconds, so a read in the same
/// second as the last push is not trusted to have seen every push of that second). Then the
/// default branch is one conditional request (all of them in one sliding window): unchanged, it
/// is a 304 at no rate-limit cost. A branch that moved is read from the last commit seen
/// (`compare`, every page), so no commit is read twice. The first time (a repository that had no
/// open todo until now: tracked with import on, or given its first todo by hand), its latest
/// commits are read, up to `recentCommitsBound`, so that a trailer pushed before this sync still
/// finishes its todo: a commit can only name a todo that exists, and one already applied is
/// recorded with its todo. A repository without todos costs no request at all. A force-push (the
/// last commit seen is gone, or no longer behind the head) is read from the latest commits of the
/// new head too, and does not fail.
///
/// A trailer is an observation: the commit is recorded with the todo (`TodoEntry.commits`), so
/// it finishes the todo once on every machine, whatever rescans or force-pushes follow, and the
/// change is dated by the commit, so a todo reopened after it stays open.
struct CommitPhase: SyncPhase {
    static let recentCommitsBound = 100

    /// Only repositories whose branch was never read: after the issue phase, those whose first
    /// todos this sync's import brought, so that their first read is paid by the sync that
    /// brought them and the next sync, with nothing new, costs nothing.
    var firstReadsOnly = false

    func run(_ session: inout SyncSession) throws {
        var changes: [SyncChange] = []
        defer { session.summary.changes += changes.sorted(by: IssuePhase.order) }
        var repositories: [RepositoryRecord] = []
        for summary in try session.store.repositorySummaries()
        where !summary.repository.gone && summary.repository.settings.scanCommits && summary.open > 0 {
            let state = try session.store.commitScanState(repositoryID: summary.repository.id)
            if firstReadsOnly && state.lastCommitSHA != nil { continue }
            guard let known = try withDefaultBranch(summary.repository, &session) else { continue }
            if state.lastCommitSHA != nil, let pushedAt = known.pushedAt, state.pushedAt == pushedAt { continue }
            repositories.append(known)
        }
        // Every branch in one sliding window; then the latest commits of those read for the first
        // time in another; then, one by one, the commits of those that moved since the last read.
        try SyncSession.forEachWindow(of: repositories, in: &session, step: .commits) { part, session in
            let states = try part.map { try session.store.commitScanState(repositoryID: $0.id) }
            let results = session.github.branchHeads(zip(part, states).map { repository, state in
                (url: session.github.branchURL(owner: repository.owner, name: repository.name,
                                               branch: repository.defaultBranch ?? ""),
                 etag: state.branchETag, resource: GitHubResource.repository(repository.fullName))
            })
            let firstReads = try Self.firstReads(of: part, states: states, heads: results, &session)
            for (index, repository) in part.enumerated() {
                let now = session.clock()
                let pushedAt = { (date: Timestamp?) in Self.trustedPushedAt(repository.pushedAt, readAt: date ?? now) }
                do {
                    let read = try results[index].get()
                    switch read.head {
                    case .modified(let head, let etag):
                        let commits: [GitHubCommit]
                        if let first = firstReads[index] {
                            commits = try first.get()
                        } else {
                            try session.checkBudget()
                            commits = try newCommits(repository, from: states[index].lastCommitSHA, to: head, session)
                        }
                        try record(commits, of: repository,
                                   state: CommitScanState(branchETag: etag, lastCommitSHA: head, pushedAt: pushedAt(read.date)),
                                   readAt: read.date, &session, &changes)
                    case .notModified:
                        // The branch did not move (a push elsewhere): noted, so that the next sync does not ask.
                        if !session.dryRun {
                            var state = states[index]
                            state.pushedAt = pushedAt(read.date)
                            try session.store.saveCommitScanState(state, repositoryID: repository.id)
                        }
                    }
                } catch let error as GitHubError where GitHubClient.isMissingBranch(error) {
                    // No commit yet: nothing to read, and its first commits will count (the first
                    // push moves `pushed_at`, and the branch is read again).
                    if !session.dryRun {
                        try session.store.saveCommitScanState(
                            CommitScanState(branchETag: nil, lastCommitSHA: CommitScanState.emptyBranch, pushedAt: pushedAt(nil)),
                            repositoryID: repository.id)
                    }
                } catch let error as GitHubError {
                    try session.fail(error, about: repository.fullName)
                }
            }
        }
    }

    /// The repository's `pushed_at` as read, when the branch was read in a later second (GitHub's
    /// times have whole seconds: a push later in the same second would not move it); else nil,
    /// so the next sync reads the branch again (a 304 when it did not move, at no cost).
    static func trustedPushedAt(_ pushedAt: String?, readAt date: Timestamp?) -> String? {
        guard let pushedAt, let pushed = Timestamp(rfc3339: pushedAt), let date,
              date.millisecondsSinceEpoch / 1000 > pushed.millisecondsSinceEpoch / 1000 else { return nil }
        return pushedAt
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

    /// The latest commits, oldest first, of the branches in `part` that moved and were never
    /// read (`heads` says which moved), read at once, by their index in `part`: as many as the
    /// rate-limit budget leaves room for; the others are read one by one (`newCommits`).
    private static func firstReads(of part: [RepositoryRecord], states: [CommitScanState],
                                   heads: [Result<BranchRead, GitHubError>], _ session: inout SyncSession) throws
        -> [Int: Result<[GitHubCommit], GitHubError>] {
        var wanted: [(index: Int, owner: String, name: String, sha: String)] = []
        for (index, repository) in part.enumerated() where states[index].neverRead {
            if case .success(let read) = heads[index], case .modified(let head, _) = read.head {
                wanted.append((index, repository.owner, repository.name, head))
            }
        }
        guard !wanted.isEmpty else { return [:] }
        try session.checkBudget()
        wanted = Array(wanted.prefix(session.requestRoom(upTo: wanted.count)))
        let read = session.github.recentCommits(of: wanted.map { ($0.owner, $0.name, $0.sha) }, limit: recentCommitsBound)
        var commits: [Int: Result<[GitHubCommit], GitHubError>] = [:]
        for (position, item) in wanted.enumerated() { commits[item.index] = read[position].map { $0.reversed() } }
        return commits
    }

    /// Records the trailers of `commits` (oldest first), which reached the branch since the last
    /// read, with the todos they name, together with the new head (`state`), in one transaction.
    private func record(_ commits: [GitHubCommit], of repository: RepositoryRecord, state: CommitScanState,
                        readAt date: Timestamp?, _ session: inout SyncSession, _ changes: inout [SyncChange]) throws {
        // The repository's todos are read only for commits that name one (most name none).
        let named = commits.map { CommitTrailers.doneReferences(in: $0.message) }
        let todos = named.allSatisfy(\.isEmpty) ? [] : try session.store.sections(repositoryIDs: [repository.id]).flatMap(\.todos)
        var updates: [TodoChange] = []
        var finished: Set<Int64> = []
        for (commit, references) in zip(commits, named) {
            for digits in references {
                let matches = todos.filter { $0.uuid.lowercased().filter { $0 != "-" }.hasPrefix(digits) }
                guard matches.count == 1 else {
                    if matches.count > 1 {
                        changes.append(.ambiguousTrailer(fullName: repository.fullName, sha: commit.sha, prefix: digits))
                    }
                    continue
                }
                let todo = matches[0]
                let index = updates.firstIndex { $0.entry.uuid == todo.uuid }
                guard let held = try index.map({ updates[$0].entry }) ?? session.store.entry(uuid: todo.uuid)?.entry,
                      !held.commits.contains(commit.sha) else { continue }
                let outcome = CommitTrailers.apply(commit, to: held, readAt: date ?? session.clock())
                if let index { updates[index].entry = outcome.entry } else {
                    updates.append(TodoChange(entry: outcome.entry, held: held))
                }
                if outcome.finished && finished.insert(todo.id).inserted {
                    changes.append(.doneByCommit(fullName: repository.fullName, todoID: todo.id, sha: commit.sha))
                } else if outcome.outranked {
                    changes.append(.trailerOutranked(fullName: repository.fullName, todoID: todo.id, sha: commit.sha))
                }
            }
        }
        session.summary.issues.closedByCommit += finished.count
        guard !session.dryRun else { return }
        try session.store.transaction {
            if !updates.isEmpty {
                try session.store.replica.apply(ReplicaChanges(todos: updates), at: session.clock(), asLocalChange: true)
            }
            try session.store.saveCommitScanState(state, repositoryID: repository.id)
        }
    }

    /// The commits after `last` up to `head`, oldest first. The first time (no `last`), and after
    /// a force-push (`last` is gone or not an ancestor of `head`), the latest commits of `head`;
    /// when `head` went back to an ancestor of `last`, nothing is new.
    private func newCommits(_ repository: RepositoryRecord, from last: String?, to head: String, _ session: SyncSession)
        throws -> [GitHubCommit] {
        guard let last, last != CommitScanState.emptyBranch else {
            return try session.github.recentCommits(owner: repository.owner, name: repository.name, from: head,
                                                    limit: Self.recentCommitsBound).reversed()
        }
        if last == head { return [] }
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
    /// What a commit's trailer does to the todo it names: the commit is recorded with it, and it
    /// is done as of the commit (dated by GitHub's second of it, late in that second, and never
    /// before the todo was made nor after GitHub's time of the read), unless a reopen is dated
    /// later: then the todo keeps that (`outranked`). A todo open since it was made (or moved)
    /// was never reopened: the commit finishes it whatever the clocks say.
    static func apply(_ commit: GitHubCommit, to entry: TodoEntry, readAt date: Timestamp)
        -> (entry: TodoEntry, finished: Bool, outranked: Bool) {
        var result = entry
        result.commits.insert(commit.sha)
        guard !entry.done.value.done else { return (result, false, false) }
        let committed = commit.committedAt ?? date
        let wall = min(max(committed.millisecondsSinceEpoch + 999, entry.createdAt.millisecondsSinceEpoch + 1),
                       max(date.millisecondsSinceEpoch, entry.createdAt.millisecondsSinceEpoch + 1))
        var stamp = HybridTimestamp.event(at: Timestamp(millisecondsSinceEpoch: wall))
        if entry.done.stamp <= entry.repository.stamp { stamp = max(stamp, .event(after: entry.done.stamp)) }
        result.done.set(DoneState(doneAt: committed), at: stamp)
        return (result, result.done.value.done, !result.done.value.done)
    }

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
