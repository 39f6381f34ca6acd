import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension IssuePhase {
    /// Brings what a listing shows into the store: linked todos pulled, issues made for a todo
    /// given to it, open issues imported. The issues that name a todo, by its UUID (for
    /// `settleDuplicates`).
    func reconcile(_ repository: RepositoryRecord, _ issues: [GitHubIssue], _ session: inout SyncSession,
                   _ context: Context) throws -> [String: [GitHubIssue]] {
        var linked: [Int64: (id: Int64, entry: TodoEntry)] = [:]
        for todo in try session.store.linkedTodos(repositoryID: repository.id) {
            if let number = todo.entry.issue.value?.number { linked[number] = todo }
        }
        let known = try session.store.knownIssueNumbers(repositoryID: repository.id)
        var seen: Set<Int64> = []
        var updates: [TodoChange] = []
        var imports: [(issue: GitHubIssue, uuid: String?)] = []
        var marked: [String: [GitHubIssue]] = [:]
        // Newest first: a repeated number (changed while the pages were read) counts once, as first seen.
        for issue in issues where !issue.isPullRequest && seen.insert(issue.number).inserted {
            let owner = IssueLinker.markedTodo(in: issue.body ?? "")
            if let owner { marked[owner, default: []].append(issue) }
            if let todo = linked[issue.number] {
                if let change = pull(issue, into: todo, repository, &session, context) { updates.append(change) }
            } else if let owner {
                if try claimForItsTodo(issue, owner: owner, repository, known: known, &session, context) {
                    imports.append((issue, owner))
                }
            } else if try wantsImport(issue, repository, known: known, session, context) {
                imports.append((issue, nil))
            }
        }
        if !session.dryRun && !updates.isEmpty {
            try session.store.replica.apply(ReplicaChanges(todos: updates), at: session.clock(), asLocalChange: true)
        }
        // Oldest issue first, so that the todos come in the order the issues were opened.
        for (issue, uuid) in imports.sorted(by: { $0.issue.number < $1.issue.number }) {
            try importIssue(issue, as: uuid, repository, &session, context)
        }
        return marked
    }

    /// The todo after GitHub's changes to its issue since it was last seen, with the changes
    /// reported; nil when nothing is to be written.
    private func pull(_ issue: GitHubIssue, into todo: (id: Int64, entry: TodoEntry), _ repository: RepositoryRecord,
                      _ session: inout SyncSession, _ context: Context) -> TodoChange? {
        let pulled = IssueReconciler.pull(todo.entry, issue: IssueSnapshot(issue).observation(seenAt: session.seenStamp()),
                                          closedAt: issue.closedAt.flatMap { Timestamp(rfc3339: $0) })
        let name = repository.fullName
        for conflict in pulled.conflicts {
            context.changes.append(.issueConflict(fullName: name, number: issue.number, todoID: todo.id, field: conflict.field,
                                                  keptGitHub: conflict.keptGitHub))
            session.summary.issues.conflicts += 1
        }
        for change in pulled.changes {
            context.changes.append(.issuePulled(fullName: name, number: issue.number, todoID: todo.id, change: change))
        }
        if !pulled.changes.isEmpty { session.summary.issues.pulled += 1 }
        guard pulled.entry != todo.entry else { return nil }
        return TodoChange(entry: pulled.entry, held: todo.entry)
    }

    /// An issue whose body names a todo (doogit made it for that todo) belongs to it: linked to
    /// it when it was never linked, left alone when the user unlinked it, removed it, or linked
    /// it to another issue (a duplicate, settled apart). True when the todo is not here, and the
    /// issue is to be imported as that todo, which the import setting decides.
    private func claimForItsTodo(_ issue: GitHubIssue, owner uuid: String, _ repository: RepositoryRecord, known: Set<Int64>,
                                 _ session: inout SyncSession, _ context: Context) throws -> Bool {
        guard let stored = try session.store.entry(uuid: uuid) else {
            return try wantsImport(issue, repository, known: known, session, context)
        }
        let entry = stored.entry
        guard let id = stored.id, !entry.isRemoved, entry.repository.value == repository.id, entry.issue.stamp == .zero,
              issue.state == .open else {
            if !session.dryRun { try session.store.rememberIssue(repositoryID: repository.id, number: issue.number, at: session.clock()) }
            return false
        }
        if !session.dryRun {
            _ = try session.store.linkIssue(todoID: id, to: IssueSnapshot(issue), at: session.clock())
            try session.store.removePendingIssue(todoUUID: uuid)
        }
        context.changes.append(.issueLinked(fullName: repository.fullName, number: issue.number, todoID: id, foundEarlier: true))
        return false
    }

    /// Two open issues made for one todo (two machines promoted it before they synced): the
    /// first made (the lower number) stays linked, on every machine alike; the other is closed
    /// as a duplicate when pushing is on, and reported otherwise. Only while the todo is linked to
    /// one of its own issues: one the user linked instead leaves the others alone.
    func settleDuplicates(_ marked: [String: [GitHubIssue]], _ repository: RepositoryRecord,
                          _ session: inout SyncSession, _ context: Context) throws {
        for (uuid, issues) in marked.sorted(by: { $0.key < $1.key }) {
            let open = issues.filter { $0.state == .open }
            guard let stored = try session.store.entry(uuid: uuid), let id = stored.id, !stored.entry.isRemoved,
                  let linked = stored.entry.issue.value, linked.repository == repository.id,
                  open.contains(where: { $0.number != linked.number }),
                  let own = try ownIssue(linked.number, of: uuid, listed: issues, repository, session) else { continue }
            // The first made of the open ones stays (a closed linked issue stays linked).
            var kept = linked.number
            if own.state == .open, let first = open.map(\.number).min(), first < linked.number { kept = first }
            var relinked = false
            if kept != linked.number, let issue = open.first(where: { $0.number == kept }) {
                relinked = session.dryRun ? true : try session.store.relinkIssue(todoID: id, to: IssueSnapshot(issue), at: session.clock())
                if !relinked { kept = linked.number }
            }
            for duplicate in open where duplicate.number != kept {
                try closeDuplicate(duplicate, of: kept, todoID: id, relinked: relinked, repository, &session, context)
            }
        }
    }

    /// The linked issue, as listed or as read, when it was made for the todo (its body names it).
    private func ownIssue(_ number: Int64, of uuid: String, listed: [GitHubIssue], _ repository: RepositoryRecord,
                          _ session: SyncSession) throws -> GitHubIssue? {
        if let issue = listed.first(where: { $0.number == number }) { return issue }
        try session.checkBudget()
        let issue: GitHubIssue
        do {
            issue = try session.github.issue(owner: repository.owner, name: repository.name, number: number)
        } catch {
            guard case .notFound = error else { throw error }
            return nil  // deleted or moved away: not one to keep
        }
        return IssueLinker.markedTodo(in: issue.body ?? "") == uuid ? issue : nil
    }

    private func closeDuplicate(_ duplicate: GitHubIssue, of kept: Int64, todoID: Int64, relinked: Bool,
                                _ repository: RepositoryRecord, _ session: inout SyncSession, _ context: Context) throws {
        let push = repository.settings.pushIssues
        if push && repository.archived {
            session.summary.failures.append(SyncFailure(
                fullName: "\(repository.fullName)#\(duplicate.number)",
                error: "not closed as a duplicate of #\(kept): the repository is archived, so GitHub refuses changes to its issues",
                wrote: true))
            return
        }
        if push && !session.dryRun {
            try session.checkBudget()
            do {
                _ = try session.github.closeAsDuplicate(owner: repository.owner, name: repository.name, number: duplicate.number)
            } catch {
                if let stop = SyncSession.stop(for: error) { throw stop }
                session.summary.failures.append(SyncFailure(fullName: "\(repository.fullName)#\(duplicate.number)",
                                                            error: "not closed: " + RepositoryPhase.describe(error), wrote: true))
                return
            }
        }
        context.changes.append(.duplicateIssue(fullName: repository.fullName, number: duplicate.number, keptNumber: kept,
                                               todoID: todoID, closed: push, relinked: relinked))
    }

    func wantsImport(_ issue: GitHubIssue, _ repository: RepositoryRecord, known: Set<Int64>,
                     _ session: SyncSession, _ context: Context) throws(GitHubError) -> Bool {
        guard issue.state == .open, !known.contains(issue.number) else { return false }
        switch repository.settings.importIssues {
        case .off: return false
        case .all: return true
        case .assigned:
            let login = try self.login(session, context)
            return issue.assignees.contains { $0.lowercased() == login.lowercased() }
        }
    }

    private func importIssue(_ issue: GitHubIssue, as uuid: String?, _ repository: RepositoryRecord,
                             _ session: inout SyncSession, _ context: Context) throws {
        var todoID: Int64?
        if !session.dryRun {
            guard let todo = try session.store.importIssue(repositoryID: repository.id, issue: IssueSnapshot(issue), uuid: uuid,
                                                           at: session.clock()) else { return }
            todoID = todo.id
        }
        session.summary.issues.imported += 1
        context.changes.append(.issueImported(fullName: repository.fullName, number: issue.number, todoID: todoID,
                                              title: issue.title))
    }
}
