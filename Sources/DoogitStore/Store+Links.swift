import DoogitMerge
import DoogitSupport

/// An issue as read from GitHub at one moment.
public struct IssueSnapshot: Equatable, Sendable {
    public var number: Int64
    public var url: String
    public var title: String
    public var state: IssueState
    /// GitHub's `updated_at`, as it sent it.
    public var updatedAt: String
    /// The names of its labels.
    public var labels: [String]

    public init(number: Int64, url: String, title: String, state: IssueState, updatedAt: String, labels: [String] = []) {
        self.labels = labels
        self.number = number
        self.url = url
        self.title = title
        self.state = state
        self.updatedAt = updatedAt
    }

    /// What a machine records of it, seen at `seenAt`.
    public func observation(seenAt: HybridTimestamp? = nil) -> IssueObservation {
        IssueObservation(number: number, state: state.rawValue, title: title, url: url, updatedAt: Timestamp(rfc3339: updatedAt),
                         seenAt: seenAt, labels: labels)
    }
}

extension Store {
    /// One todo by its local ID.
    public func todo(id: Int64) throws -> TodoRecord {
        try requireTodos([id])[0]
    }

    public func todo(uuid: String) throws -> TodoRecord? {
        try database.query("""
            SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.uuid = ?
            """, [.text(uuid)]) { row throws(StoreError) in try Self.readTodo(row) }.first
    }

    /// A todo as this machine holds it, live or removed, with its stamps: its local ID (nil for a
    /// removal that arrived from another machine) and its entry; nil when it never had it.
    public func entry(uuid: String) throws -> (id: Int64?, entry: TodoEntry)? {
        try database.reading { () throws(StoreError) -> (id: Int64?, entry: TodoEntry)? in
            try replica.stored(uuid, machine: try replica.clock().machine).map { ($0.id, $0.entry) }
        }
    }

    /// Whether a todo with this UUID was removed here (and not restored).
    public func wasRemoved(uuid: String) throws -> Bool {
        try database.scalarInt("SELECT count(*) FROM todo_tombstones WHERE uuid = ?", .text(uuid)) ?? 0 > 0
    }

    /// Links the todo to an issue of its repository, as the user asked (neither text changes);
    /// the issue as read now is recorded as seen under the new link. Refuses a todo that is
    /// linked already and an issue linked to another todo. The issue is remembered, so import
    /// never makes a todo of it. `listingSince`, when given, is where the repository's listing
    /// starts if it has none yet, instead of the issue's `updated_at` (an issue just made for the
    /// todo: another machine's duplicate of it may be older).
    public func linkIssue(todoID: Int64, to issue: IssueSnapshot, at now: Timestamp,
                          listingSince: String? = nil) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            let todo = try requireTodos([todoID])[0]
            if let linked = todo.issue { throw .todoAlreadyLinked(todo: todoID, issue: linked.number) }
            if let other = try database.scalarInt(
                "SELECT id FROM todos WHERE repository_id = ? AND issue_number = ?", .integer(todo.repositoryID),
                .integer(issue.number)) {
                throw .issueAlreadyLinked(issue: issue.number, todo: other)
            }
            let stamp = try replica.nextStamp(at: now)
            try writeLink(todoID: todoID, issue: issue, stamp: stamp)
            try replica.rememberIssue(repositoryID: todo.repositoryID, number: issue.number, at: now)
            // A repository read in full (import on, never read) stays so; otherwise its listing
            // needs to go back no further than this issue as it is now (or `listingSince`).
            try database.run("""
                UPDATE repositories SET issues_since = coalesce(issues_since, ?) WHERE id = ? AND import_issues = 'off'
                """, .text(listingSince ?? issue.updatedAt), .integer(todo.repositoryID))
            return try requireTodos([todoID])[0]
        }
    }

    /// Writes a link and the issue as seen under it (its labels with it: a todo's labels are
    /// its issue's, apart from its own tags), with one stamp.
    func writeLink(todoID: Int64, issue: IssueSnapshot, stamp: HybridTimestamp) throws(StoreError) {
        let seen = issue.observation()
        try database.run("""
            UPDATE todos SET issue_number = ?1, issue_url = ?2, issue_clock = ?3, seen_number = ?1, seen_state = ?4,
                seen_title = ?5, seen_url = ?2, seen_updated_at = ?6, seen_at = ?3, seen_clock = ?3, seen_labels = ?8
            WHERE id = ?7
            """, .integer(issue.number), .text(issue.url), .text(stamp.text), .text(seen.state), .text(issue.title),
            .optional(seen.updatedAt?.rfc3339), .integer(todoID), .text(seen.labels?.joined(separator: TodoRows.labelSeparator) ?? ""))
    }

    /// Forgets the todo's issue (the issue itself is untouched, and import still never brings it
    /// back). The unlink stands until the user links again: nothing a sync reads links it again.
    public func unlinkIssue(todoID: Int64, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            guard try requireTodos([todoID])[0].issue != nil else { throw .todoNotLinked(todoID) }
            try replica.unlink(todoID, at: now)
            return try requireTodos([todoID])[0]
        }
    }

    /// Links the todo to another issue of its repository (an issue made for it that was made
    /// first), as one change; false, changing nothing, when that issue is linked to another todo.
    public func relinkIssue(todoID: Int64, to issue: IssueSnapshot, at now: Timestamp) throws -> Bool {
        try database.transaction { () throws(StoreError) -> Bool in
            let todo = try requireTodos([todoID])[0]
            guard try database.scalarInt("SELECT count(*) FROM todos WHERE repository_id = ? AND issue_number = ? AND id <> ?",
                                         .integer(todo.repositoryID), .integer(issue.number), .integer(todoID)) == 0
            else { return false }
            try writeLink(todoID: todoID, issue: issue, stamp: try replica.nextStamp(at: now))
            try replica.rememberIssue(repositoryID: todo.repositoryID, number: issue.number, at: now)
            return true
        }
    }

    /// The linked todos of a repository as entries (with their stamps), in list order.
    public func linkedTodos(repositoryID: Int64) throws -> [(id: Int64, entry: TodoEntry)] {
        try database.reading { () throws(StoreError) -> [(id: Int64, entry: TodoEntry)] in
            let machine = try replica.clock().machine
            return try database.query("""
                SELECT \(TodoRows.liveColumns) FROM todos
                WHERE repository_id = ? AND issue_number IS NOT NULL ORDER BY done, position, id
                """, [.integer(repositoryID)]) { row throws(StoreError) in
                let uuid = try row.string("uuid")
                return (try row.int64("id"), try TodoRows.entry(row, removed: false, machine: machine, commits: try replica.commits(of: uuid)))
            }
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
}

/// Labels to add to a linked todo's issue and to take off it, as its tags changed here.
public struct LabelChanges: Equatable, Sendable {
    public var todoID: Int64
    public var uuid: String
    public var issue: Int64
    public var adding: [String]
    public var removing: [String]
}

extension Store {
    /// The label changes that wait for the repository's linked todos (live ones), in ID order;
    /// those of todos no longer linked are dropped.
    public func labelChanges(repositoryID: Int64) throws -> [LabelChanges] {
        try database.transaction { () throws(StoreError) -> [LabelChanges] in
            try database.run("""
                DELETE FROM label_changes WHERE todo_uuid NOT IN (SELECT uuid FROM todos WHERE issue_number IS NOT NULL)
                """)
            var found: [Int64: LabelChanges] = [:]
            _ = try database.query("""
                SELECT t.id, t.uuid, t.issue_number, c.label, c.adding FROM label_changes c JOIN todos t ON t.uuid = c.todo_uuid
                WHERE t.repository_id = ? ORDER BY t.id, c.label
                """, [.integer(repositoryID)]) { row throws(StoreError) in
                let id = try row.int64(0)
                let uuid = try row.string(1), issue = try row.int64(2)
                var changes = found[id] ?? LabelChanges(todoID: id, uuid: uuid, issue: issue, adding: [], removing: [])
                if try row.bool(4) { changes.adding.append(try row.string(3)) } else { changes.removing.append(try row.string(3)) }
                found[id] = changes
            }
            return found.keys.sorted().compactMap { found[$0] }
        }
    }

    /// The label changes of a todo that GitHub took (or that will not go: pushing is off).
    public func forgetLabelChanges(uuid: String, labels: [String]? = nil) throws {
        try database.transaction { () throws(StoreError) in
            guard let labels else {
                try database.run("DELETE FROM label_changes WHERE todo_uuid = ?", .text(uuid))
                return
            }
            for label in labels {
                try database.run("DELETE FROM label_changes WHERE todo_uuid = ? AND label = ?", .text(uuid), .text(label))
            }
        }
    }
}
