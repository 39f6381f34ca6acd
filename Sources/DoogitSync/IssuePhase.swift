import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Keeps linked todos and their GitHub issues in step, imports open issues, and settles issue
/// creations whose answer was lost.
///
/// - Cheap: only repositories with linked todos (or import on) are read, with one conditional
///   request each for the issues updated since the last change seen (`since`, most recently
///   updated first, so an unchanged first page, a 304 at no rate-limit cost, means nothing
///   changed). First pages go out in parallel batches; further pages follow one by one.
/// - Pull, always: an issue closed on GitHub marks its todo done, reopened makes it open, a new
///   title becomes its text. When both sides changed the same thing since the last exchange,
///   the later change wins and the sync says so.
/// - Push, only with `push_issues` on: a todo whose text or state differs from the last
///   exchange, while its issue did not change, is PATCHed (done closes as completed, undo
///   reopens, edit retitles). The exchange is recorded only when GitHub confirms, so a push that
///   fails is made by the next sync that can, once.
/// - Import, with `import_issues` on: an open issue (assigned to the user, or any) that was never
///   linked here becomes a todo. Pull requests never do.
struct IssuePhase: SyncPhase {
    let batchSize: Int
    /// A read of more issues than this moves `since` forward (the next read costs one request).
    static let sinceAdvanceThreshold = 50
    static let maximumPages = 100

    /// What the phase found out once and reuses: the signed-in user's login.
    final class Context {
        var login: String?
        var changes: [SyncChange] = []
    }

    func run(_ session: inout SyncSession) throws {
        let context = Context()
        defer { session.summary.changes += context.changes.sorted(by: Self.order) }
        let repositories = try session.store.repositories().filter { !$0.gone }
        if !session.dryRun { try settlePendingCreations(&session, repositories, context) }

        let linked = try session.store.linkedTodoCounts()
        let wanted = repositories.filter { linked[$0.id, default: 0] > 0 || $0.settings.importIssues != .off }
        try SyncSession.forEachBatch(of: wanted, size: batchSize, in: &session) { batch, session in
            let states = try batch.map { try session.store.issueListingState(repositoryID: $0.id) }
            let requests = zip(batch, states).map { repository, state in
                (url: session.github.issueListingURL(owner: repository.owner, name: repository.name, since: state.since),
                 etag: state.etag, resource: GitHubResource.repository(repository.fullName))
            }
            let results = session.github.issuePages(requests)
            for (index, repository) in batch.enumerated() {
                do {
                    switch try results[index].get() {
                    case .notModified:
                        break
                    case .modified(let page, let etag):
                        let issues = try readRemainingPages(page, repository, session)
                        try learnLoginIfImportNeedsIt(repository, issues, session, context)
                        // What a listing brought is kept whole or not at all (then it is read again),
                        // in a transaction that waits for no request.
                        let store = session.store
                        try store.transaction {
                            try reconcile(repository, issues, &session, context)
                            if !session.dryRun {
                                try store.saveIssueListingState(
                                    Self.nextListingState(after: issues, etag: etag, since: states[index].since),
                                    repositoryID: repository.id)
                            }
                        }
                    }
                    try push(repository, &session, context)
                } catch let error as GitHubError {
                    try session.fail(error, about: repository.fullName)
                }
            }
        }
    }

    /// Where the next read starts: after a large read, one second before the latest change seen
    /// (GitHub's `since` may or may not include its own second), with no ETag (another URL);
    /// otherwise the same `since`, so that an unchanged listing is answered 304.
    static func nextListingState(after issues: [GitHubIssue], etag: String?, since: String?) -> IssueListingState {
        guard issues.count >= sinceAdvanceThreshold,
              let latest = issues.compactMap({ Timestamp(rfc3339: $0.updatedAt) }).max() else {
            return IssueListingState(etag: etag, since: since)
        }
        let next = GitHubTime.string(Timestamp(millisecondsSinceEpoch: latest.millisecondsSinceEpoch - 1000))
        return IssueListingState(etag: next == since ? etag : nil, since: next)
    }

    private func readRemainingPages(_ first: IssuePage, _ repository: RepositoryRecord, _ session: SyncSession)
        throws(GitHubError) -> [GitHubIssue]
    {
        var issues = first.issues
        var next = first.nextURL
        var visited: Set<String> = []
        while let url = next, visited.count < Self.maximumPages, visited.insert(url).inserted {
            guard case .modified(let page, _) = try session.github.issuePage(url, ifNoneMatch: nil,
                                                                            about: .repository(repository.fullName))
            else { throw .unexpectedResponse("304 without a conditional request") }
            issues += page.issues
            next = page.nextURL
        }
        return issues
    }

    // MARK: Pull and import

    private func reconcile(_ repository: RepositoryRecord, _ issues: [GitHubIssue], _ session: inout SyncSession,
                           _ context: Context) throws {
        var linked: [Int64: LinkedTodo] = [:]
        for todo in try session.store.linkedTodos(repositoryID: repository.id) { linked[todo.number] = todo }
        let known = try session.store.knownIssueNumbers(repositoryID: repository.id)
        var seen: Set<Int64> = []
        var imports: [GitHubIssue] = []
        // Newest first: a repeated number (changed while the pages were read) counts once, as first seen.
        for issue in issues where !issue.isPullRequest && seen.insert(issue.number).inserted {
            if let todo = linked[issue.number] {
                try pull(issue, into: todo, repository, &session, context)
            } else if try wantsImport(issue, repository, known: known, session, context) {
                imports.append(issue)
            }
        }
        // Oldest issue first, so that the todos come in the order the issues were opened.
        for issue in imports.sorted(by: { $0.number < $1.number }) { try importIssue(issue, repository, &session, context) }
    }

    /// The todo after GitHub's changes to its issue since the last exchange, and the exchange recorded.
    private func pull(_ issue: GitHubIssue, into linked: LinkedTodo, _ repository: RepositoryRecord,
                      _ session: inout SyncSession, _ context: Context) throws {
        let snapshot = IssueSnapshot(issue)
        let todo = linked.todo
        // A title never seen here (the link came from another machine) is taken as the baseline:
        // the machine that linked the todo knows whether it changed.
        let titleChanged = linked.issueTitle.map { issue.title != $0 } ?? false
        let stateChanged = snapshot.state != linked.issueState
        guard titleChanged || stateChanged || todo.issue?.url != snapshot.url || linked.issueTitle == nil else { return }
        // GitHub's time of the change, to weigh against the todo's when both changed.
        let theirs = Timestamp(rfc3339: issue.updatedAt) ?? Timestamp(millisecondsSinceEpoch: 0)
        let githubIsLater = theirs > todo.updatedAt
        var text = todo.text, syncedText = linked.syncedText
        var done = todo.done, syncedDone = linked.syncedDone
        var changes: [IssueChange] = []
        let name = repository.fullName

        if titleChanged {
            if issue.title == todo.text {
                syncedText = issue.title
            } else if linked.textChangedHere {
                context.changes.append(.issueConflict(fullName: name, number: issue.number, todoID: todo.id, field: .text,
                                                      keptGitHub: githubIsLater))
                session.summary.issues.conflicts += 1
                if githubIsLater {
                    (text, syncedText) = (issue.title, issue.title)
                    changes.append(.retitled(issue.title))
                }
            } else {
                (text, syncedText) = (issue.title, issue.title)
                changes.append(.retitled(issue.title))
            }
        }
        if stateChanged {
            let closed = snapshot.state == .closed
            if closed == todo.done {
                syncedDone = closed
            } else if linked.doneChangedHere {
                context.changes.append(.issueConflict(fullName: name, number: issue.number, todoID: todo.id, field: .state,
                                                      keptGitHub: githubIsLater))
                session.summary.issues.conflicts += 1
                if githubIsLater {
                    (done, syncedDone) = (closed, closed)
                    changes.append(closed ? .closed : .reopened)
                }
            } else {
                (done, syncedDone) = (closed, closed)
                changes.append(closed ? .closed : .reopened)
            }
        }
        for change in changes {
            context.changes.append(.issuePulled(fullName: name, number: issue.number, todoID: todo.id, change: change))
        }
        if !changes.isEmpty { session.summary.issues.pulled += 1 }
        guard !session.dryRun else { return }
        try session.store.recordIssueExchange(todoID: todo.id, text: text, done: done, issue: snapshot,
                                              syncedText: syncedText, syncedDone: syncedDone, at: session.clock())
    }

    /// Asks who the user is (once a sync) when an issue may be imported as assigned to them.
    private func learnLoginIfImportNeedsIt(_ repository: RepositoryRecord, _ issues: [GitHubIssue],
                                           _ session: SyncSession, _ context: Context) throws {
        guard repository.settings.importIssues == .assigned, context.login == nil else { return }
        let known = try session.store.knownIssueNumbers(repositoryID: repository.id)
        if issues.contains(where: { $0.state == .open && !$0.isPullRequest && !known.contains($0.number) }) {
            _ = try login(session, context)
        }
    }

    private func wantsImport(_ issue: GitHubIssue, _ repository: RepositoryRecord, known: Set<Int64>,
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

    private func importIssue(_ issue: GitHubIssue, _ repository: RepositoryRecord, _ session: inout SyncSession,
                             _ context: Context) throws {
        var todoID: Int64?
        if !session.dryRun {
            guard let todo = try session.store.importIssue(repositoryID: repository.id, issue: IssueSnapshot(issue),
                                                           at: session.clock()) else { return }
            todoID = todo.id
        }
        session.summary.issues.imported += 1
        context.changes.append(.issueImported(fullName: repository.fullName, number: issue.number, todoID: todoID,
                                              title: issue.title))
    }

    private func login(_ session: SyncSession, _ context: Context) throws(GitHubError) -> String {
        if let login = context.login { return login }
        let login = try session.github.currentUser().login
        context.login = login
        return login
    }

    // MARK: Push

    private func push(_ repository: RepositoryRecord, _ session: inout SyncSession, _ context: Context) throws {
        guard repository.settings.pushIssues, !repository.archived else { return }
        for todo in try session.store.linkedTodos(repositoryID: repository.id)
        where todo.textChangedHere || todo.doneChangedHere {
            let title = todo.textChangedHere && todo.todo.text != todo.issueTitle ? todo.todo.text : nil
            let wantedState: IssueState = todo.todo.done ? .closed : .open
            let state = todo.doneChangedHere && wantedState != todo.issueState ? wantedState : nil
            var changes: [IssueChange] = []
            if state == .closed { changes.append(.closed) }
            if state == .open { changes.append(.reopened) }
            if let title { changes.append(.retitled(title)) }
            let name = repository.fullName
            if !changes.isEmpty { try session.checkBudget() }
            if session.dryRun {
                for change in changes {
                    context.changes.append(.issuePushed(fullName: name, number: todo.number, todoID: todo.todo.id, change: change))
                }
                continue
            }
            // An empty title keeps a title not seen yet unknown (see `recordIssueExchange`).
            var snapshot = IssueSnapshot(number: todo.number, url: todo.todo.issue?.url ?? "", title: todo.issueTitle ?? "",
                                         state: todo.issueState, updatedAt: todo.syncedAt ?? "")
            if !changes.isEmpty {
                let updated: GitHubIssue
                do {
                    updated = try session.github.updateIssue(
                        owner: repository.owner, name: repository.name, number: todo.number, title: title,
                        state: state.map { $0 == .closed ? GitHubIssue.State.closed : .open })
                } catch {
                    if let stop = SyncSession.stop(for: error) { throw stop }
                    // This issue only (deleted, locked, no write access): the others go on.
                    session.summary.failures.append(SyncFailure(fullName: "\(name)#\(todo.number)",
                                                                error: "not updated: " + RepositoryPhase.describe(error)))
                    continue
                }
                snapshot = IssueSnapshot(updated)
                session.summary.issues.pushed += 1
                for change in changes {
                    context.changes.append(.issuePushed(fullName: name, number: todo.number, todoID: todo.todo.id, change: change))
                }
            }
            // Only now, with GitHub's answer, does the exchange count as made.
            try session.store.recordIssueExchange(todoID: todo.todo.id, text: todo.todo.text, done: todo.todo.done,
                                                  issue: snapshot, syncedText: todo.todo.text,
                                                  syncedDone: todo.todo.done, at: session.clock())
        }
    }

    // MARK: Creations whose answer was lost

    private func settlePendingCreations(_ session: inout SyncSession, _ repositories: [RepositoryRecord],
                                        _ context: Context) throws {
        let live = Dictionary(uniqueKeysWithValues: repositories.map { ($0.id, $0) })
        let linker = IssueLinker(store: session.store, github: session.github, clock: session.clock)
        for pending in try session.store.pendingIssues() {
            guard let repository = live[pending.repositoryID] else { continue }
            try session.checkBudget()
            do {
                let login = try self.login(session, context)
                guard let linked = try linker.settle(pending, login: login) else { continue }
                context.changes.append(.issueLinked(fullName: repository.fullName, number: linked.number,
                                                    todoID: linked.todo.id, foundEarlier: linked.foundEarlier))
            } catch let error as GitHubError {
                try session.fail(error, about: repository.fullName)
            } catch let error as IssueLinkError {
                // The POST's answer was lost again: GitHub is failing; the next sync looks for it.
                throw SyncStop.interrupted(error)
            }
        }
    }

    /// Changes in a stable order: by repository, then issue.
    static func order(_ lhs: SyncChange, _ rhs: SyncChange) -> Bool {
        let left = key(lhs), right = key(rhs)
        if left.0 != right.0 { return left.0 < right.0 }
        if left.1 != right.1 { return left.1 < right.1 }
        return left.2 < right.2
    }

    private static func key(_ change: SyncChange) -> (String, Int64, Int64) {
        switch change {
        case .issuePulled(let name, let number, let todo, _), .issuePushed(let name, let number, let todo, _),
             .issueConflict(let name, let number, let todo, _, _), .issueLinked(let name, let number, let todo, _):
            return (name.lowercased(), number, todo)
        case .issueImported(let name, let number, let todo, _):
            return (name.lowercased(), number, todo ?? 0)
        case .doneByCommit(let name, let todo, _):
            return (name.lowercased(), 0, todo)
        default:
            return ("", 0, 0)
        }
    }
}
