import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension IssuePhase {
    /// With pushing on, makes each linked issue follow its todo where the todo changed after it
    /// was linked (`IssueReconciler.push`). The issue as GitHub answers is recorded as seen, so
    /// the push counts as made only once GitHub confirms it: a push that failed is made by the
    /// next sync that can, once. A push GitHub refuses (an archived repository, a locked issue,
    /// no write access) is reported as such, and the others go on.
    func push(_ repository: RepositoryRecord, _ session: inout SyncSession, _ context: Context) throws {
        guard repository.settings.pushIssues else { return }
        let name = repository.fullName
        for todo in try session.store.linkedTodos(repositoryID: repository.id) {
            guard let wanted = IssueReconciler.push(todo.entry), let number = todo.entry.issue.value?.number else { continue }
            var changes: [IssueChange] = []
            if wanted.closed == true { changes.append(.closed) }
            if wanted.closed == false { changes.append(.reopened) }
            if let title = wanted.title { changes.append(.retitled(title)) }
            if let labels = wanted.labels { changes.append(.relabelled(labels)) }
            if repository.archived {
                session.summary.failures.append(SyncFailure(
                    fullName: "\(name)#\(number)", error: "not updated: the repository is archived, so GitHub refuses changes to its issues",
                    wrote: true))
                continue
            }
            try session.checkBudget()
            if session.dryRun {
                for change in changes {
                    context.changes.append(.issuePushed(fullName: name, number: number, todoID: todo.id, change: change))
                }
                continue
            }
            let updated: GitHubIssue
            do {
                updated = try session.github.updateIssue(
                    owner: repository.owner, name: repository.name, number: number, title: wanted.title,
                    state: wanted.closed.map { $0 ? GitHubIssue.State.closed : .open }, labels: wanted.labels)
            } catch {
                if let stop = SyncSession.stop(for: error) { throw stop }
                // This issue only (deleted, locked, no write access): the others go on.
                session.summary.failures.append(SyncFailure(fullName: "\(name)#\(number)",
                                                            error: "not updated: " + RepositoryPhase.describe(error), wrote: true))
                continue
            }
            session.summary.issues.pushed += 1
            for change in changes {
                context.changes.append(.issuePushed(fullName: name, number: number, todoID: todo.id, change: change))
            }
            // Only now, with GitHub's answer, does the push count as made.
            var entry = todo.entry
            entry.seen.set(IssueSnapshot(updated).observation(seenAt: session.seenStamp()), at: entry.issue.stamp)
            try session.store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: entry, held: todo.entry)]),
                                            at: session.clock(), asLocalChange: true)
        }
    }
}
