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
                    VALUES (?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?, ?)
                    """, .text(todo.uuid), .integer(todo.repositoryID), .text(todo.text), .bool(todo.doneAt != nil),
                    .integer(todo.repositoryID), .text(todo.createdAt.rfc3339), .text(now.rfc3339), .optional(todo.doneAt?.rfc3339))
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
