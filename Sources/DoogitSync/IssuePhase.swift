import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// Keeps linked todos and their GitHub issues in step, imports open issues, and settles issue
/// creations whose answer was lost.
///
/// - Cheap: only repositories with linked todos (or import on) are read, with one conditional
///   request each for the issues updated since the last change seen (`since`, most recently
///   updated first, so an unchanged first page, a 304 at no rate-limit cost, means nothing
///   changed). First pages go out in one sliding window; further pages follow one by one.
/// - Pull, always: an issue closed on GitHub marks its todo done, reopened makes it open, a new
///   title becomes its text, each dated by GitHub's time of it, so a change the user made to the
///   todo later (on any machine) wins, and the sync says so (`IssueReconciler`).
/// - Push, only with `push_issues` on: where the todo changed after it was linked and differs
///   from its issue, the issue is PATCHed (done closes as completed, undo reopens, edit
///   retitles). A push that fails is made by the next sync that can, once.
/// - Import, with `import_issues` on: an open issue (assigned to the user, or any) that was never
///   linked here becomes a todo. Pull requests never do. An issue that doogit made for a todo
///   (its body carries the todo's marker) belongs to that todo: it is linked to it, or imported
///   as that very todo (same UUID), never as a second one; two such issues for one todo (two
///   machines promoted it at once) leave the first linked and the other closed as a duplicate.
struct IssuePhase: SyncPhase {
    /// A read of more issues than this moves `since` forward (the next read costs one request).
    static let sinceAdvanceThreshold = 50
    static let maximumPages = 100

    /// What the phase found out once and reuses (the signed-in user's login, asked before any
    /// listing's transaction), and the changes it reports.
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
        // Every first page in one sliding window; then, one by one, the further pages of those
        // that changed and the pushes.
        try SyncSession.forEachWindow(of: wanted, in: &session, step: .issues) { part, session in
            let states = try part.map { try session.store.issueListingState(repositoryID: $0.id) }
            let requests = zip(part, states).map { repository, state in
                (url: session.github.issueListingURL(owner: repository.owner, name: repository.name, since: state.since),
                 etag: state.etag, resource: GitHubResource.repository(repository.fullName))
            }
            let results = session.github.issuePages(requests)
            for (index, repository) in part.enumerated() {
                do {
                    switch try results[index].get() {
                    case .notModified:
                        break
                    case .modified(let page, let etag):
                        if page.nextURL != nil { try session.checkBudget() }
                        let issues = try readRemainingPages(page, repository, session)
                        try learnLoginIfImportNeedsIt(repository, issues, session, context)
                        // What a listing brought is kept whole or not at all, in a transaction that
                        // waits for no request; duplicates are closed after it. Only then does the
                        // next read start later: a sync cut short reads it again (which changes
                        // nothing twice).
                        let store = session.store
                        let marked = try store.transaction { try reconcile(repository, issues, &session, context) }
                        try settleDuplicates(marked, repository, &session, context)
                        if !session.dryRun {
                            try store.saveIssueListingState(
                                Self.nextListingState(after: issues, etag: etag, since: states[index].since),
                                repositoryID: repository.id)
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

    /// Asks who the user is (once a sync) when an issue may be imported as assigned to them.
    private func learnLoginIfImportNeedsIt(_ repository: RepositoryRecord, _ issues: [GitHubIssue],
                                           _ session: SyncSession, _ context: Context) throws {
        guard repository.settings.importIssues == .assigned, context.login == nil else { return }
        let known = try session.store.knownIssueNumbers(repositoryID: repository.id)
        if issues.contains(where: { $0.state == .open && !$0.isPullRequest && !known.contains($0.number) }) {
            _ = try login(session, context)
        }
    }

    func login(_ session: SyncSession, _ context: Context) throws(GitHubError) -> String {
        if let login = context.login { return login }
        let login = try session.github.currentUser().login
        context.login = login
        return login
    }

    // MARK: Creations whose answer was lost

    /// Settles the creations recorded here, unless another doogit process is sending one now
    /// (`todo promote` or `todo add --issue` hold the creation lock while their POST is out):
    /// then they wait for the next sync, so nothing is posted twice.
    private func settlePendingCreations(_ session: inout SyncSession, _ repositories: [RepositoryRecord],
                                        _ context: Context) throws {
        let pending = try session.store.pendingIssues()
        guard !pending.isEmpty, let lock = try session.creationLock(wait: false) else { return }
        let live = Dictionary(uniqueKeysWithValues: repositories.map { ($0.id, $0) })
        let linker = IssueLinker(store: session.store, github: session.github, clock: session.clock)
        try withExtendedLifetime(lock) {
            for creation in pending {
                guard let repository = live[creation.repositoryID] else { continue }
                try session.checkBudget()
                do {
                    let login = try self.login(session, context)
                    guard let linked = try linker.settle(creation, login: login) else { continue }
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
             .issueConflict(let name, let number, let todo, _, _), .issueLinked(let name, let number, let todo, _),
             .duplicateIssue(let name, let number, _, let todo, _, _):
            return (name.lowercased(), number, todo)
        case .issueImported(let name, let number, let todo, _):
            return (name.lowercased(), number, todo ?? 0)
        case .doneByCommit(let name, let todo, _), .trailerOutranked(let name, let todo, _):
            return (name.lowercased(), 0, todo)
        default:
            return ("", 0, 0)
        }
    }
}

extension IssueSnapshot {
    init(_ issue: GitHubIssue) {
        self.init(number: issue.number, url: issue.htmlURL, title: issue.title,
                  state: issue.state == .closed ? .closed : .open, updatedAt: issue.updatedAt, labels: issue.labels)
    }
}

/// Times as GitHub's query parameters take them: `2026-01-31T12:00:00Z`.
enum GitHubTime {
    static func string(_ time: Timestamp) -> String {
        String(time.rfc3339.prefix(19)) + "Z"
    }
}
