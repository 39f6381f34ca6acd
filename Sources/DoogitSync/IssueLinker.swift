import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Why linking a todo to an issue was refused, or could not be finished.
public enum IssueLinkError: Error, Equatable, Sendable {
    /// The issue belongs to another repository than the todo's.
    case otherRepository(issue: String, todoRepository: String)
    /// The number names a pull request, which is not linked.
    case pullRequest(repository: String, number: Int64)
    /// The POST that creates the todo's issue may have reached GitHub, but its answer was lost.
    /// Nothing is posted again before the issue is looked for (by `promote` again, or `sync`).
    case creationUnknown(todoID: Int64, repository: String, request: String, reason: String)
}

/// Creates and links the issues of todos: `todo promote`, `todo add --issue`, `todo link`.
///
/// A creation is a POST, which doogit never repeats blindly. Before the POST, the creation is
/// recorded with the marker the issue's body carries (`<!-- doogit:UUID -->`); once the issue
/// is linked the record goes. A record that stays means the issue may exist, so before anything
/// is posted again the user's recent issues in the repository are searched for the marker. A
/// promote looks for an open issue with the todo's marker first, too (another machine may have
/// promoted the todo), and creations hold the `CreationLock`, so a sync never settles one that
/// is still on the wire.
public struct IssueLinker {
    public let store: Store
    public let github: GitHubClient
    public let clock: () -> Timestamp

    public init(store: Store, github: GitHubClient, clock: @escaping () -> Timestamp = Timestamp.now) {
        self.store = store
        self.github = github
        self.clock = clock
    }

    /// A linked issue, and how it came to be linked.
    public struct Linked: Equatable, Sendable {
        public var todo: TodoRecord
        public var repository: String
        public var number: Int64
        public var url: String
        /// It existed already: made for the todo by an earlier attempt whose answer was lost, or
        /// by another machine, and found by its marker.
        public var foundEarlier: Bool
        /// The issue is closed (the todo keeps its own state).
        public var closed = false
    }

    /// The invisible part of an issue's body that names its todo.
    public static func marker(for uuid: String) -> String { "<!-- doogit:\(uuid) -->" }

    /// The todo an issue's body names with its marker, if any.
    public static func markedTodo(in body: String) -> String? {
        let bytes = Array(body.utf8), opening = Array("<!-- doogit:".utf8), closing = Array(" -->".utf8)
        guard bytes.count >= opening.count + 36 + closing.count else { return nil }
        for start in 0...(bytes.count - opening.count - 36 - closing.count)
        where bytes[start] == opening[0] && Array(bytes[start..<start + opening.count]) == opening {
            let uuidStart = start + opening.count
            let uuid = String(decoding: bytes[uuidStart..<uuidStart + 36], as: UTF8.self)
            if UUIDv4.isValid(uuid) && Array(bytes[uuidStart + 36..<uuidStart + 36 + closing.count]) == closing { return uuid }
        }
        return nil
    }

    /// The body sent: the user's text, then the marker.
    static func body(_ text: String, uuid: String) -> String {
        text.trimmingSpaces.isEmpty ? marker(for: uuid) : text + "\n\n" + marker(for: uuid)
    }

    /// Creates an issue for the todo, titled with its text, with `body` (nil: the todo's note) as
    /// its body, and links the two. An issue made for it already (an earlier attempt whose answer
    /// was lost, or another machine's promote) is looked for first, and linked instead.
    public func promote(todoID: Int64, body: String?, labels: [String]) throws -> Linked {
        let lock = try creationLock()
        return try withExtendedLifetime(lock) {
            let todo = try store.todo(id: todoID)
            if let issue = todo.issue { throw StoreError.todoAlreadyLinked(todo: todoID, issue: issue.number) }
            let repository = try requireRepository(todo.repositoryID)
            let earlier = try store.pendingIssues(todoUUID: todo.uuid).first
            // An earlier attempt's issue may be closed by now; another machine's is looked for open.
            let since = min(earlier?.createdAt ?? todo.createdAt, todo.createdAt)
            let searching = Stopwatch()
            if let found = try findIssue(madeFor: todo.uuid, in: repository, since: since, openOnly: earlier == nil, login: nil) {
                return try link(found, to: todo, in: repository, foundEarlier: true)
            }
            // Its tags go as labels, with those asked for.
            let pending = PendingIssue(todoUUID: todo.uuid, repositoryID: repository.id, title: todo.text,
                                       body: Self.body(body ?? todo.note ?? "", uuid: todo.uuid), labels: Array(Set(labels + todo.tags)).sorted(),
                                       marker: Self.marker(for: todo.uuid), createdAt: clock())
            let issue = try create(pending, in: repository, todoID: todo.id, addTodo: nil)
            return try link(issue, to: todo, in: repository, foundEarlier: false, madeAfterSearching: searching)
        }
    }

    /// Adds a todo and creates its issue as one step. The POST comes first: if GitHub refuses
    /// it, no todo is added. If its answer is lost the todo is kept, with the creation recorded,
    /// so that the next `sync` links the issue if GitHub made it, or creates it.
    public func addTodoWithIssue(repositoryID: Int64, text: String, body: String, labels: [String], author: String? = nil)
        throws -> Linked {
        let repository = try requireRepository(repositoryID)
        let uuid = UUIDv4.make()
        let pending = PendingIssue(todoUUID: uuid, repositoryID: repository.id, title: text,
                                   body: Self.body(body, uuid: uuid), labels: labels, marker: Self.marker(for: uuid),
                                   createdAt: clock())
        let lock = try creationLock()
        return try withExtendedLifetime(lock) {
            let issue = try create(pending, in: repository, todoID: nil) {
                try store.addTodo(repositoryID: repository.id, text: text, uuid: uuid, author: author, at: clock())
            }
            return try store.transaction {
                let todo = try store.addTodo(repositoryID: repository.id, text: text, uuid: uuid, author: author, at: clock())
                return try link(issue, to: todo, in: repository, foundEarlier: false)
            }
        }
    }

    /// Links an existing issue of the todo's repository (`owner`/`name` as the user named it,
    /// nil for the todo's own). Neither text nor state changes. A pull request is refused.
    public func link(todoID: Int64, owner: String?, name: String?, number: Int64) throws -> Linked {
        let todo = try store.todo(id: todoID)
        if let issue = todo.issue { throw StoreError.todoAlreadyLinked(todo: todoID, issue: issue.number) }
        let repository = try requireRepository(todo.repositoryID)
        if let owner, let name {
            let named = "\(owner)/\(name)".lowercased()
            let names = [repository.fullName.lowercased()] + (try store.formerNames(ofRepository: repository.id)).map {
                $0.lowercased()
            }
            guard names.contains(named) else {
                throw IssueLinkError.otherRepository(issue: "\(owner)/\(name)#\(number)", todoRepository: repository.fullName)
            }
        }
        let issue = try github.issue(owner: repository.owner, name: repository.name, number: number)
        if issue.isPullRequest { throw IssueLinkError.pullRequest(repository: repository.fullName, number: number) }
        let todoAfter = try store.linkIssue(todoID: todo.id, to: IssueSnapshot(issue), at: clock())
        return Linked(todo: todoAfter, repository: repository.fullName, number: issue.number, url: issue.htmlURL,
                      foundEarlier: false, closed: issue.state == .closed)
    }

    // MARK: Creations

    /// Waits for the other creations of this database (and a sync settling them) to finish.
    private func creationLock() throws -> CreationLock? {
        try CreationLock.take(databasePath: store.database.path, wait: true)
    }

    /// POSTs the issue, with the creation recorded meanwhile. A refusal forgets the record; a
    /// lost answer keeps it (and runs `addTodo`, for a todo that must not be lost) and throws
    /// `creationUnknown`.
    func create(_ pending: PendingIssue, in repository: RepositoryRecord, todoID: Int64?,
                addTodo: (() throws -> TodoRecord)? = nil) throws -> GitHubIssue {
        try store.beginPendingIssue(pending)
        do {
            return try github.createIssue(owner: repository.owner, name: repository.name, title: pending.title,
                                          body: pending.body, labels: pending.labels)
        } catch GitHubError.outcomeUnknown(let request, let reason) {
            let id = try store.transaction { () throws -> Int64? in
                try store.markPendingIssueUnknown(todoUUID: pending.todoUUID)
                return try addTodo?().id ?? todoID
            }
            throw IssueLinkError.creationUnknown(todoID: id ?? 0, repository: repository.fullName, request: request,
                                                 reason: reason)
        } catch {
            try? store.removePendingIssue(todoUUID: pending.todoUUID)
            throw error
        }
    }

    /// Links a created or found issue to the todo and forgets its creation, in one transaction.
    /// An issue created after a search for the todo's issues found none (`madeAfterSearching`,
    /// started before that search) may have a duplicate that another machine made meanwhile: the
    /// repository's listing starts early enough to show it (`listingSince`).
    private func link(_ issue: GitHubIssue, to todo: TodoRecord, in repository: RepositoryRecord,
                      foundEarlier: Bool, madeAfterSearching searching: Stopwatch? = nil) throws -> Linked {
        let listingSince = searching.flatMap { Self.listingSince(issue, madeWithin: $0.elapsed()) }
        let linked = try store.transaction {
            let linked = try store.linkIssue(todoID: todo.id, to: IssueSnapshot(issue), at: clock(), listingSince: listingSince)
            try store.removePendingIssue(todoUUID: todo.uuid)
            return linked
        }
        return Linked(todo: linked, repository: repository.fullName, number: issue.number, url: issue.htmlURL,
                      foundEarlier: foundEarlier, closed: issue.state == .closed)
    }

    /// Seconds an issue may take to show in GitHub's listings after it was made.
    static let searchLag: Int64 = 60

    /// Where the listing starts for an issue made `milliseconds` after the search that found no
    /// other for its todo began: a duplicate made elsewhere since is one the search did not see,
    /// made after it began, so at most that long before this one (by GitHub's clock; measured
    /// here as a duration, so neither machine's clock matters). Whole seconds, as `updated_at`
    /// has them, and `searchLag` more: GitHub's `since` may or may not include its own second,
    /// and an issue made just before the search may not be listed yet.
    static func listingSince(_ issue: GitHubIssue, madeWithin milliseconds: Double) -> String? {
        guard let updated = Timestamp(rfc3339: issue.updatedAt) else { return nil }
        let seconds = Int64(max(0, milliseconds / 1000).rounded(.up)) + Self.searchLag
        return GitHubTime.string(Timestamp(millisecondsSinceEpoch: updated.millisecondsSinceEpoch - seconds * 1000))
    }

    /// The issue made for the todo `uuid` (its body carries the marker), among the issues the
    /// signed-in user opened in the repository and that changed since shortly before `since`;
    /// nil when there is none. `since` was taken by this machine's clock (a creation's record,
    /// a todo's making), and GitHub lists by its own: it is moved onto GitHub's clock as the
    /// answers so far date it (the one to `currentUser` at the latest), with ten minutes of
    /// leeway for a clock set since, or a todo made on another machine.
    func findIssue(madeFor uuid: String, in repository: RepositoryRecord, since: Timestamp, openOnly: Bool,
                   login: String?) throws -> GitHubIssue? {
        let user = try login ?? github.currentUser().login
        let from = Timestamp(millisecondsSinceEpoch: github.onGitHubsClock(since, now: clock()).millisecondsSinceEpoch - 600_000)
        let issues = try github.issuesOpened(owner: repository.owner, name: repository.name, by: user,
                                             since: GitHubTime.string(from))
        return issues.filter { !$0.isPullRequest && Self.markedTodo(in: $0.body ?? "") == uuid && (!openOnly || $0.state == .open) }
            .min { $0.number < $1.number }
    }

    /// Settles a recorded creation (for `sync`, which holds the creation lock): links the issue
    /// if an earlier attempt made it (making its todo if the todo was never added), else creates
    /// it when its todo still wants one. A todo removed, moved, or linked meanwhile (another
    /// machine linked it, or imported its issue as it) wants none: the record is dropped.
    /// Returns the linked issue, or nil when the creation was simply dropped.
    func settle(_ pending: PendingIssue, login: String) throws -> Linked? {
        guard let repository = try store.repository(id: pending.repositoryID) else {
            try store.removePendingIssue(todoUUID: pending.todoUUID)
            return nil
        }
        let todo = try store.todo(uuid: pending.todoUUID)
        if try store.wasRemoved(uuid: pending.todoUUID) || (todo.map { $0.repositoryID != repository.id || $0.issue != nil } ?? false) {
            try store.removePendingIssue(todoUUID: pending.todoUUID)
            return nil
        }
        let searching = Stopwatch()
        if let found = try findIssue(madeFor: pending.todoUUID, in: repository, since: pending.createdAt, openOnly: false,
                                     login: login) {
            // The issue is another todo's here already (an older doogit imported it apart): left so.
            if try store.linkedTodos(repositoryID: repository.id).contains(where: { $0.entry.issue.value?.number == found.number }) {
                try store.removePendingIssue(todoUUID: pending.todoUUID)
                return nil
            }
            let target = try todo ?? store.addTodo(repositoryID: repository.id, text: pending.title,
                                                   uuid: pending.todoUUID, at: clock())
            return try link(found, to: target, in: repository, foundEarlier: true)
        }
        guard let todo else {
            try store.removePendingIssue(todoUUID: pending.todoUUID)
            return nil
        }
        var again = pending
        again.state = .sending
        let issue = try create(again, in: repository, todoID: todo.id)
        return try link(issue, to: todo, in: repository, foundEarlier: false, madeAfterSearching: searching)
    }

    private func requireRepository(_ id: Int64) throws -> RepositoryRecord {
        guard let repository = try store.repository(id: id) else { throw StoreError.unknownRepository("id:\(id)") }
        return repository
    }
}
