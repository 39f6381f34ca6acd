import DoogitMerge
import DoogitSupport

/// An issue as seen at one exchange with GitHub.
public struct IssueSnapshot: Equatable, Sendable {
    public var number: Int64
    public var url: String
    public var title: String
    public var state: IssueState
    /// GitHub's `updated_at`, as it sent it.
    public var updatedAt: String

    public init(number: Int64, url: String, title: String, state: IssueState, updatedAt: String) {
        self.number = number
        self.url = url
        self.title = title
        self.state = state
        self.updatedAt = updatedAt
    }
}

/// A linked todo with the baselines of both sides: the issue's title as last seen (its state
/// is `todo.issue.state`), and the todo's text and state at the last exchange. A side changed
/// since that exchange when it differs from its baseline.
public struct LinkedTodo: Equatable, Sendable {
    public var todo: TodoRecord
    public var number: Int64
    /// nil: not seen from this machine yet (the link came from another one).
    public var issueTitle: String?
    public var issueState: IssueState
    public var syncedText: String
    public var syncedDone: Bool
    /// The issue's `updated_at` at the last exchange.
    public var syncedAt: String?

    public var textChangedHere: Bool { todo.text != syncedText }
    public var doneChangedHere: Bool { todo.done != syncedDone }
}

/// An issue being created for a todo: recorded before the POST, removed once it is linked.
public struct PendingIssue: Equatable, Sendable {
    public enum State: String, Sendable {
        /// The POST is being sent (a row left in this state: doogit stopped meanwhile).
        case sending
        /// The POST may have reached GitHub; its answer was lost.
        case unknown
    }

    public var todoUUID: String
    public var repositoryID: Int64
    public var title: String
    public var body: String
    public var labels: [String]
    public var marker: String
    public var state: State
    public var createdAt: Timestamp

    public init(todoUUID: String, repositoryID: Int64, title: String, body: String, labels: [String], marker: String,
                state: State = .sending, createdAt: Timestamp) {
        self.todoUUID = todoUUID
        self.repositoryID = repositoryID
        self.title = title
        self.body = body
        self.labels = labels
        self.marker = marker
        self.state = state
        self.createdAt = createdAt
    }
}

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

    public init(branchETag: String?, lastCommitSHA: String?, pushedAt: String? = nil) {
        self.branchETag = branchETag
        self.lastCommitSHA = lastCommitSHA
        self.pushedAt = pushedAt
    }
}

extension Store {
    /// The assignments that forget a todo's issue.
    static let unlinkedColumns = """
        issue_number = NULL, issue_url = NULL, issue_state = NULL, issue_title = NULL, issue_synced_text = NULL,
        issue_synced_done = NULL, issue_synced_at = NULL
        """

    /// The columns of a todo's link (as todos and their tombstones have them).
    static let issueColumns = """
        issue_number, issue_url, issue_state, issue_title, issue_synced_text, issue_synced_done, issue_synced_at
        """

    /// Gives a restored todo back the link its tombstone kept, unless the issue was linked to
    /// another todo meanwhile.
    func restoreIssueLink(todoID: Int64) throws(StoreError) {
        try database.run("""
            UPDATE todos SET (\(Self.issueColumns), issue_clock) =
                (SELECT \(Self.issueColumns), issue_clock FROM todo_tombstones b WHERE b.uuid = todos.uuid)
            WHERE id = ? AND EXISTS (
                SELECT 1 FROM todo_tombstones b WHERE b.uuid = todos.uuid AND b.issue_number IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM todos o WHERE o.repository_id = b.repository_id
                                AND o.issue_number = b.issue_number))
            """, .integer(todoID))
    }

    /// One todo by its local ID.
    public func todo(id: Int64) throws -> TodoRecord {
        try requireTodos([id])[0]
    }

    public func todo(uuid: String) throws -> TodoRecord? {
        try database.query("""
            SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.uuid = ?
            """, [.text(uuid)]) { row throws(StoreError) in try Self.readTodo(row) }.first
    }

    /// Whether a todo with this UUID was removed here (and not restored).
    public func wasRemoved(uuid: String) throws -> Bool {
        try database.scalarInt("SELECT count(*) FROM todo_tombstones WHERE uuid = ?", .text(uuid)) ?? 0 > 0
    }

    // MARK: Links

    /// Links the todo to an issue of its repository, taking both sides as they are now as the
    /// baselines (neither text changes). Refuses a todo that is linked already and an issue
    /// linked to another todo. The issue is remembered, so import never makes a todo of it.
    public func linkIssue(todoID: Int64, to issue: IssueSnapshot, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            let todo = try requireTodos([todoID])[0]
            if let linked = todo.issue { throw .todoAlreadyLinked(todo: todoID, issue: linked.number) }
            if let other = try database.scalarInt(
                "SELECT id FROM todos WHERE repository_id = ? AND issue_number = ?", .integer(todo.repositoryID),
                .integer(issue.number)) {
                throw .issueAlreadyLinked(issue: issue.number, todo: other)
            }
            try database.run("""
                UPDATE todos SET issue_number = ?, issue_url = ?, issue_state = ?, issue_title = ?,
                    issue_synced_text = text, issue_synced_done = done, issue_synced_at = ?
                WHERE id = ?
                """, .integer(issue.number), .text(issue.url), .text(issue.state.rawValue), .text(issue.title),
                .text(issue.updatedAt), .integer(todoID))
            try stamp(.issue, todos: [todoID], at: now)
            try rememberIssue(repositoryID: todo.repositoryID, number: issue.number, at: now)
            // A repository read in full (import on, never read) stays so; otherwise its listing
            // needs to go back no further than this issue as it is now.
            try database.run("""
                UPDATE repositories SET issues_since = coalesce(issues_since, ?) WHERE id = ? AND import_issues = 'off'
                """, .text(issue.updatedAt), .integer(todo.repositoryID))
            return try requireTodos([todoID])[0]
        }
    }

    /// Forgets the todo's issue (the issue itself is untouched, and import still never brings it back).
    public func unlinkIssue(todoID: Int64, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            guard try requireTodos([todoID])[0].issue != nil else { throw .todoNotLinked(todoID) }
            try database.run("UPDATE todos SET \(Self.unlinkedColumns) WHERE id = ?", .integer(todoID))
            try stamp(.issue, todos: [todoID], at: now)
            return try requireTodos([todoID])[0]
        }
    }

    /// The linked todos of a repository, with their baselines, in list order.
    public func linkedTodos(repositoryID: Int64) throws -> [LinkedTodo] {
        try database.query("""
            SELECT \(Self.todoColumns), t.issue_title, t.issue_synced_text, t.issue_synced_done, t.issue_synced_at
            FROM todos t JOIN repositories r ON r.id = t.repository_id
            WHERE t.repository_id = ? AND t.issue_number IS NOT NULL ORDER BY t.done, t.position, t.id
            """, [.integer(repositoryID)]) { row throws(StoreError) in
            let todo = try Self.readTodo(row)
            guard let issue = todo.issue else { throw StoreError.unexpectedNull(column: "issue_url") }
            return LinkedTodo(todo: todo, number: issue.number, issueTitle: try row.optionalString("issue_title"),
                              issueState: issue.state, syncedText: try row.optionalString("issue_synced_text") ?? todo.text,
                              syncedDone: try row.isNull("issue_synced_done") ? todo.done : try row.bool("issue_synced_done"),
                              syncedAt: try row.optionalString("issue_synced_at"))
        }
    }

    /// How many linked todos each repository has (repositories without any are left out).
    public func linkedTodoCounts() throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        _ = try database.query("""
            SELECT repository_id, count(*) AS linked FROM todos WHERE issue_number IS NOT NULL GROUP BY repository_id
            """) { row throws(StoreError) in counts[try row.int64("repository_id")] = Int(try row.int64("linked")) }
        return counts
    }

    /// Records one exchange with a linked todo's issue: the todo's text and state as they are
    /// to be (its `updated_at` moves only when one of them changes), the issue as seen, and the
    /// todo's side of the baseline (an empty title: the title stays unknown). Nothing happens
    /// when the todo is no longer linked to it. What changed is stamped: the text, the state,
    /// and the link when the issue's state or address did.
    @discardableResult
    public func recordIssueExchange(todoID: Int64, text: String, done: Bool, issue: IssueSnapshot, syncedText: String,
                                    syncedDone: Bool, at now: Timestamp) throws -> TodoRecord? {
        try database.transaction { () throws(StoreError) -> TodoRecord? in
            guard let before = try todos(ids: [todoID]).first, before.issue?.number == issue.number else { return nil }
            var fields: TodoFields = []
            if before.text != text { fields.insert(.text) }
            if before.done != done { fields.insert(.done) }
            if before.issue?.state != issue.state || before.issue?.url != issue.url { fields.insert(.issue) }
            try stamp(fields, todos: [todoID], at: now)
            let changed = try database.run("""
                UPDATE todos SET
                    updated_at = CASE WHEN text <> ?1 OR done <> ?2 THEN ?3 ELSE updated_at END,
                    done_at = CASE WHEN done = ?2 THEN done_at WHEN ?2 = 1 THEN ?3 ELSE NULL END,
                    text = ?1, done = ?2, issue_url = ?4, issue_state = ?5, issue_title = ?6, issue_synced_at = ?7,
                    issue_synced_text = ?8, issue_synced_done = ?9
                WHERE id = ?10 AND issue_number = ?11
                """, [.text(text), .bool(done), .text(now.rfc3339), .text(issue.url), .text(issue.state.rawValue),
                      issue.title.isEmpty ? .null : .text(issue.title), .text(issue.updatedAt), .text(syncedText), .bool(syncedDone),
                      .integer(todoID), .integer(issue.number)])
            return changed == 0 ? nil : try requireTodos([todoID])[0]
        }
    }

    // MARK: Import

    /// The numbers of every issue of the repository that was ever linked to a todo here.
    public func knownIssueNumbers(repositoryID: Int64) throws -> Set<Int64> {
        Set(try database.query("SELECT issue_number FROM known_issues WHERE repository_id = ?", [.integer(repositoryID)]) {
            row throws(StoreError) in try row.int64("issue_number")
        })
    }

    func rememberIssue(repositoryID: Int64, number: Int64, at now: Timestamp) throws(StoreError) {
        try database.run("INSERT OR IGNORE INTO known_issues (repository_id, issue_number, seen_at) VALUES (?, ?, ?)",
                         .integer(repositoryID), .integer(number), .text(now.rfc3339))
    }

    /// Makes a linked todo of an issue, at the end of its repository, unless that issue was
    /// linked here before (even to a todo since removed): then nil. `uuid` is the new todo's; by
    /// default the same on every machine (`importedTodoUUID`), so that machines importing one
    /// issue each make one todo between them.
    public func importIssue(repositoryID: Int64, issue: IssueSnapshot, uuid: String? = nil,
                            at now: Timestamp) throws -> TodoRecord? {
        let uuid = uuid ?? Self.importedTodoUUID(repositoryID: repositoryID, issueNumber: issue.number)
        return try database.transaction { () throws(StoreError) -> TodoRecord? in
            guard try database.scalarInt("SELECT count(*) FROM known_issues WHERE repository_id = ? AND issue_number = ?",
                                         .integer(repositoryID), .integer(issue.number)) == 0 else { return nil }
            // Its todo came from another machine, and was unlinked there before the link reached this one.
            guard try database.scalarInt("SELECT (SELECT count(*) FROM todos WHERE uuid = ?1) + (SELECT count(*) FROM todo_tombstones WHERE uuid = ?1)",
                                         .text(uuid)) == 0 else {
                try rememberIssue(repositoryID: repositoryID, number: issue.number, at: now)
                return nil
            }
            let text = issue.title.trimmingSpaces.isEmpty ? "#\(issue.number)" : issue.title
            let done = issue.state == .closed
            try database.run("""
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at,
                                   issue_number, issue_url, issue_state, issue_title, issue_synced_text,
                                   issue_synced_done, issue_synced_at)
                VALUES (?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?, ?,
                        ?, ?, ?, ?, ?, ?, ?)
                """, .text(uuid), .integer(repositoryID), .text(text), .bool(done), .integer(repositoryID),
                .text(now.rfc3339), .text(now.rfc3339), done ? .text(now.rfc3339) : .null, .integer(issue.number),
                .text(issue.url), .text(issue.state.rawValue), .text(issue.title), .text(text), .bool(done),
                .text(issue.updatedAt))
            let id = database.lastInsertedRowID
            try stamp(TodoFields.added.union(.issue), todos: [id], at: now)
            try rememberIssue(repositoryID: repositoryID, number: issue.number, at: now)
            return try requireTodos([id])[0]
        }
    }

    /// The UUID of the todo that importing an issue makes: the same on every machine (a UUID of
    /// version 8 whose bits are the repository's id and the issue's number), so that two machines
    /// importing one issue make one todo, not two. Random UUIDs (version 4) never equal it.
    public static func importedTodoUUID(repositoryID: Int64, issueNumber: Int64) -> String {
        let repository = UInt64(bitPattern: repositoryID) & (1 << 60 - 1)
        let number = UInt64(bitPattern: issueNumber) & (1 << 62 - 1)
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let high = hex(repository >> 12, 12), low = hex(number & (1 << 60 - 1), 15)
        return "\(high.prefix(8))-\(high.suffix(4))-8\(hex(repository & 0xFFF, 3))-"
            + "\(hex(0x8 | number >> 60, 1))\(low.prefix(3))-\(low.suffix(12))"
    }

    // MARK: Issues being created

    public func beginPendingIssue(_ pending: PendingIssue) throws {
        let labels = JSONWriter.write(.array(pending.labels.map(JSONValue.string)))
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                INSERT OR REPLACE INTO pending_issues (todo_uuid, repository_id, title, body, labels, marker, state, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, .text(pending.todoUUID), .integer(pending.repositoryID), .text(pending.title), .text(pending.body),
                .text(labels), .text(pending.marker), .text(pending.state.rawValue), .text(pending.createdAt.rfc3339))
        }
    }

    public func markPendingIssueUnknown(todoUUID: String) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE pending_issues SET state = 'unknown' WHERE todo_uuid = ?", .text(todoUUID))
        }
    }

    public func removePendingIssue(todoUUID: String) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("DELETE FROM pending_issues WHERE todo_uuid = ?", .text(todoUUID))
        }
    }

    /// Issues being created, for one todo or all, oldest first.
    public func pendingIssues(todoUUID: String? = nil) throws -> [PendingIssue] {
        try database.query("""
            SELECT todo_uuid, repository_id, title, body, labels, marker, state, created_at FROM pending_issues
            WHERE ? IS NULL OR todo_uuid = ? ORDER BY created_at, todo_uuid
            """, [.optional(todoUUID), .optional(todoUUID)]) { row throws(StoreError) in
            var labels: [String] = []
            if case .array(let values)? = try? JSONParser.parse(try row.string("labels")) {
                labels = values.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
            return PendingIssue(
                todoUUID: try row.string("todo_uuid"), repositoryID: try row.int64("repository_id"),
                title: try row.string("title"), body: try row.string("body"), labels: labels,
                marker: try row.string("marker"), state: PendingIssue.State(rawValue: try row.string("state")) ?? .unknown,
                createdAt: try Self.timestamp(row, "created_at"))
        }
    }

    // MARK: Settings and what sync remembers

    /// Changes the settings of these repositories in one transaction; nil leaves one as it is.
    /// Turning import on makes the next sync read the repository's issues in full. A change is
    /// stamped, so that it reaches the other machines.
    public func setSettings(repositoryIDs: [Int64], pushIssues: Bool?, importIssues: IssueImport?,
                            scanCommits: Bool?, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            for id in repositoryIDs {
                guard let current = try database.query("SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.id = ?",
                                                        [.integer(id)], { row throws(StoreError) in try Self.readRepository(row) })
                    .first?.settings else { throw StoreError.unknownRepository("id:\(id)") }
                let wanted = RepositorySettings(pushIssues: pushIssues ?? current.pushIssues,
                                                importIssues: importIssues ?? current.importIssues,
                                                scanCommits: scanCommits ?? current.scanCommits)
                guard wanted != current else { continue }
                try writeSettings(wanted, repositoryID: id, stamp: try nextStamp(at: now))
            }
        }
    }

    /// Writes a repository's settings with their stamp.
    func writeSettings(_ settings: RepositorySettings, repositoryID id: Int64, stamp: HybridTimestamp) throws(StoreError) {
        try database.run("""
            UPDATE repositories SET push_issues = ?1, import_issues = ?2, scan_commits = ?3, settings_clock = ?4,
                issues_since = CASE WHEN import_issues = 'off' AND ?2 <> 'off' THEN NULL ELSE issues_since END,
                issues_etag = CASE WHEN import_issues = 'off' AND ?2 <> 'off' THEN NULL ELSE issues_etag END
            WHERE id = ?5
            """, .bool(settings.pushIssues), .text(settings.importIssues.rawValue), .bool(settings.scanCommits),
            .text(stamp.text), .integer(id))
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

    /// The open todos of a repository, in list order.
    public func openTodos(repositoryID: Int64) throws -> [TodoRecord] {
        try database.query("""
            SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id
            WHERE t.repository_id = ? AND t.done = 0 ORDER BY t.position, t.id
            """, [.integer(repositoryID)]) { row throws(StoreError) in try Self.readTodo(row) }
    }
}
