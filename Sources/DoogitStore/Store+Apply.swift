import DoogitSupport

/// A todo as another copy of the list has it, identified by UUID: what merging with another
/// machine, importing a file and reading GitHub issues bring in.
public struct TodoState: Equatable, Sendable {
    public var uuid: String
    public var repositoryID: Int64
    public var text: String
    public var done: Bool
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    public var doneAt: Timestamp?
    /// The local ID to give a todo new to this machine, when it is free (an import of this
    /// machine's own export keeps its IDs); otherwise the next one.
    public var preferredID: Int64?

    public init(uuid: String, repositoryID: Int64, text: String, done: Bool, createdAt: Timestamp,
                updatedAt: Timestamp, doneAt: Timestamp?, preferredID: Int64? = nil) {
        self.uuid = uuid
        self.repositoryID = repositoryID
        self.text = text
        self.done = done
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.doneAt = doneAt
        self.preferredID = preferredID
    }
}

/// A batch of changes to apply at once.
public struct StoreChanges: Equatable, Sendable {
    public var repositories: [RepositoryRecord]
    public var todos: [TodoState]
    /// UUIDs of todos removed elsewhere.
    public var removedTodos: [String]

    public init(repositories: [RepositoryRecord] = [], todos: [TodoState] = [], removedTodos: [String] = []) {
        self.repositories = repositories
        self.todos = todos
        self.removedTodos = removedTodos
    }
}

/// What applying a batch did.
public struct AppliedChanges: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var removed = 0

    public init() {}
}

extension Store {
    /// Inserts or updates repositories (by GitHub id) and todos (by UUID), and removes todos (by
    /// UUID), all in one transaction: every change or none. A todo whose state is already the
    /// one given is left alone; a new one goes at the end of its repository, with its preferred
    /// local ID when that is free. A removal leaves a tombstone; an inserted todo clears one.
    @discardableResult
    public func apply(_ changes: StoreChanges, at now: Timestamp) throws -> AppliedChanges {
        try database.transaction { () throws(StoreError) -> AppliedChanges in
            var applied = AppliedChanges()
            for repository in changes.repositories { try upsert(repository) }
            for todo in changes.todos {
                let doneAt: Timestamp? = todo.done ? (todo.doneAt ?? todo.updatedAt) : nil
                let existing = try database.scalarInt("SELECT id FROM todos WHERE uuid = ?", .text(todo.uuid))
                if let existing {
                    let changed = try database.run("""
                        UPDATE todos SET repository_id = ?, text = ?, done = ?, done_at = ?, created_at = ?, updated_at = ?,
                            position = CASE WHEN repository_id = ? THEN position
                                ELSE (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?) END
                        WHERE id = ? AND NOT (repository_id = ? AND text = ? AND done = ? AND done_at IS ?
                                              AND created_at = ? AND updated_at = ?)
                        """, [.integer(todo.repositoryID), .text(todo.text), .bool(todo.done), .optional(doneAt?.rfc3339),
                              .text(todo.createdAt.rfc3339), .text(todo.updatedAt.rfc3339), .integer(todo.repositoryID),
                              .integer(todo.repositoryID), .integer(existing), .integer(todo.repositoryID), .text(todo.text),
                              .bool(todo.done), .optional(doneAt?.rfc3339), .text(todo.createdAt.rfc3339),
                              .text(todo.updatedAt.rfc3339)])
                    applied.updated += changed
                    continue
                }
                let free = try todo.preferredID.map { id throws(StoreError) in
                    try database.scalarInt("SELECT count(*) FROM todos WHERE id = ?", .integer(id)) == 0
                        && id > 0 ? id : nil
                } ?? nil
                try database.run("""
                    INSERT INTO todos (id, uuid, repository_id, text, done, position, created_at, updated_at, done_at)
                    VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?, ?)
                    """, [free.map(SQLValue.integer) ?? .null, .text(todo.uuid), .integer(todo.repositoryID), .text(todo.text),
                          .bool(todo.done), .integer(todo.repositoryID), .text(todo.createdAt.rfc3339),
                          .text(todo.updatedAt.rfc3339), .optional(doneAt?.rfc3339)])
                try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(todo.uuid))
                applied.inserted += 1
            }
            for uuid in changes.removedTodos {
                applied.removed += try entomb(where: "uuid = ?", [.text(uuid)], at: now)
            }
            return applied
        }
    }
}
