import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension IssuePhase {
    /// With pushing on, makes each linked issue follow its todo where the todo changed after it
    /// was linked (`IssueReconciler.push`), and adds to it or takes off it the labels of the
    /// tags changed here (`pushLabels`). The issue as GitHub answers is recorded as seen, so
    /// the push counts as made only once GitHub confirms it: a push that failed is made by the
    /// next sync that can, once. A push GitHub refuses (an archived repository, a locked issue,
    /// no write access) is reported as such, and the others go on.
    func push(_ repository: RepositoryRecord, _ session: inout SyncSession, _ context: Context) throws {
        guard repository.settings.pushIssues else {
            // Changes noted while pushing was on go no more: pushing them later would surprise.
            for changes in try session.store.labelChanges(repositoryID: repository.id) where !session.dryRun {
                try session.store.forgetLabelChanges(uuid: changes.uuid)
            }
            return
        }
        try pushLabels(repository, &session, context)
        let name = repository.fullName
        for todo in try session.store.linkedTodos(repositoryID: repository.id) {
            guard let wanted = IssueReconciler.push(todo.entry), let number = todo.entry.issue.value?.number else { continue }
            var changes: [IssueChange] = []
            if wanted.closed == true { changes.append(.closed) }
            if wanted.closed == false { changes.append(.reopened) }
            if let title = wanted.title { changes.append(.retitled(title)) }
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
                    state: wanted.closed.map { $0 ? GitHubIssue.State.closed : .open })
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

    /// The labels of the tags added to linked todos here, added to their issues (`POST
    /// .../labels`), and those of the tags and labels taken off, removed (`DELETE
    /// .../labels/NAME`; one not there is off already): changes, never a whole set, so a label
    /// someone else gave the issue meanwhile stays. The labels GitHub answers are recorded as
    /// the issue's, seen.
    private func pushLabels(_ repository: RepositoryRecord, _ session: inout SyncSession, _ context: Context) throws {
        let name = repository.fullName
        for changes in try session.store.labelChanges(repositoryID: repository.id) {
            let number = changes.issue
            if repository.archived {
                session.summary.failures.append(SyncFailure(
                    fullName: "\(name)#\(number)", error: "not labelled: the repository is archived, so GitHub refuses changes to its issues",
                    wrote: true))
                continue
            }
            let change = IssueChange.labelsChanged(added: changes.adding, removed: changes.removing)
            if session.dryRun {
                context.changes.append(.issuePushed(fullName: name, number: number, todoID: changes.todoID, change: change))
                continue
            }
            try session.checkBudget()
            var labels: [String]?
            do {
                labels = try session.github.addLabels(owner: repository.owner, name: repository.name, number: number,
                                                      labels: changes.adding)
                for label in changes.removing {
                    let kept = try session.github.removeLabel(owner: repository.owner, name: repository.name, number: number,
                                                              label: label)
                    labels = kept ?? labels?.filter { TagSet.key($0) != TagSet.key(label) }
                }
            } catch {
                if let stop = SyncSession.stop(for: error) { throw stop }
                session.summary.failures.append(SyncFailure(fullName: "\(name)#\(number)",
                                                            error: "not labelled: " + RepositoryPhase.describe(error), wrote: true))
                continue
            }
            try session.store.forgetLabelChanges(uuid: changes.uuid, labels: changes.adding + changes.removing)
            session.summary.issues.pushed += 1
            context.changes.append(.issuePushed(fullName: name, number: number, todoID: changes.todoID, change: change))
            // The labels GitHub answered are the issue's as seen now.
            guard let labels, let todo = try session.store.linkedTodos(repositoryID: repository.id).first(where: { $0.id == changes.todoID }),
                  var seen = todo.entry.seen.value else { continue }
            seen.labels = labels
            var entry = todo.entry
            entry.seen.value = seen
            try session.store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: entry, held: todo.entry)]),
                                            at: session.clock(), asLocalChange: true)
        }
    }
}
