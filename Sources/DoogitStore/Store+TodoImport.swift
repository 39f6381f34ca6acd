import DoogitMerge
import DoogitSupport

extension Store {
    /// Adds todos from another program's file (an import), each at the end of its repository,
    /// in one transaction; a todo whose UUID this machine has (live or removed) is left as it
    /// is. Its details are written in the same transaction, stamped as a change of this machine.
    /// Returns how many were added.
    public func addTodos(_ todos: [NewTodo], at now: Timestamp) throws -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            var added = 0
            for todo in todos {
                guard try database.scalarInt("""
                    SELECT (SELECT count(*) FROM todos WHERE uuid = ?1) + (SELECT count(*) FROM todo_tombstones WHERE uuid = ?1)
                    """, .text(todo.uuid)) == 0 else { continue }
                try database.run("""
                    INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, .text(todo.uuid), .integer(todo.repositoryID), .text(todo.text), .bool(todo.doneAt != nil),
                    .integer(try nextPosition(inRepository: todo.repositoryID)), .text(todo.createdAt.rfc3339), .text(now.rfc3339), .optional(todo.doneAt?.rfc3339))
                let id = database.lastInsertedRowID
                try replica.stamp(.added, todos: [id], at: now)
                // Linked as the file says, unless that issue is (or was) another todo's here.
                if let number = todo.issue, try database.scalarInt("""
                    SELECT (SELECT count(*) FROM todos WHERE repository_id = ?1 AND issue_number = ?2)
                         + (SELECT count(*) FROM known_issues WHERE repository_id = ?1 AND issue_number = ?2)
                    """, .integer(todo.repositoryID), .integer(number)) == 0 {
                    try database.run("""
                        UPDATE todos SET issue_number = ?, issue_url = (SELECT html_url || '/issues/' || ? FROM repositories WHERE id = ?)
                        WHERE id = ?
                        """, .integer(number), .integer(number), .integer(todo.repositoryID), .integer(id))
                    try replica.stamp(.issue, todos: [id], at: now)
                    try replica.rememberIssue(repositoryID: todo.repositoryID, number: number, at: now)
                }
                if !todo.details.isEmpty { try writeDetails(of: try requireTodos([id])[0], todo.details, at: now) }
                added += 1
            }
            return added
        }
    }
}

/// What an import changes of a todo that is here already (a Taskwarrior task changed since the
/// todo was exported): nil leaves a field as it is.
public struct TodoUpdate: Equatable, Sendable {
    public var id: Int64
    public var text: String?
    /// Done at a moment, or open (`DoneState.open`).
    public var done: DoneState?
    /// Due date, priority, tags (as tags to add and to remove) and note.
    public var details: DetailsEdit

    public init(id: Int64, text: String? = nil, done: DoneState? = nil, details: DetailsEdit = DetailsEdit()) {
        self.id = id
        self.text = text
        self.done = done
        self.details = details
    }

    public var isEmpty: Bool { text == nil && done == nil && details.isEmpty }
}

extension Store {
    /// Writes what an import changes of todos here, in one transaction, each field as a change of
    /// this machine made now, as `todo edit` and `todo done` make them (tags through the same
    /// tag-setting operation). Returns how many todos changed.
    public func updateTodos(_ updates: [TodoUpdate], at now: Timestamp) throws -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            var updated = 0
            for update in updates where !update.isEmpty {
                let before = try requireTodos([update.id])[0]
                var changed: TodoFields = []
                if let text = update.text, text != before.text {
                    try database.run("UPDATE todos SET text = ? WHERE id = ?", .text(text), .integer(update.id))
                    changed.insert(.text)
                }
                if let done = update.done, done.done != before.done {
                    try database.run("UPDATE todos SET done = ?, done_at = ? WHERE id = ?", .bool(done.done),
                                     .optional(done.doneAt?.rfc3339), .integer(update.id))
                    changed.insert(.done)
                }
                if !changed.isEmpty {
                    try database.run("UPDATE todos SET updated_at = ? WHERE id = ?", .text(now.rfc3339), .integer(update.id))
                    try replica.stamp(changed, todos: [update.id], at: now)
                }
                try writeDetails(of: try requireTodos([update.id])[0], update.details, at: now)
                if try requireTodos([update.id])[0] != before { updated += 1 }
            }
            return updated
        }
    }
}
