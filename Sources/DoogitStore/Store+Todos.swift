import DoogitSupport

extension Store {

    static let todoColumns = """
        t.id AS todo_id, t.uuid, t.repository_id, r.full_name, t.text, t.done, t.position, t.created_at,
        t.updated_at, t.done_at
        """

    static func readTodo(_ row: Row) throws(StoreError) -> TodoRecord {
        TodoRecord(
            id: try row.int64("todo_id"), uuid: try row.string("uuid"), repositoryID: try row.int64("repository_id"),
            repositoryFullName: try row.string("full_name"), text: try row.string("text"),
            done: try row.bool("done"), position: try row.int64("position"),
            createdAt: try timestamp(row, "created_at"), updatedAt: try timestamp(row, "updated_at"),
            doneAt: try optionalTimestamp(row, "done_at"))
    }

    func todos(ids: [Int64]) throws(StoreError) -> [TodoRecord] {
        var found: [TodoRecord] = []
        for id in ids {
            found += try database.query("""
                SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.id = ?
                """, [.integer(id)]) { row throws(StoreError) in try Self.readTodo(row) }
        }
        return found
    }

    /// The todos with these ids, in the order given; throws naming every id that does not exist.
    func requireTodos(_ ids: [Int64]) throws(StoreError) -> [TodoRecord] {
        let found = try todos(ids: ids)
        let known = Set(found.map(\.id))
        let missing = ids.filter { !known.contains($0) }
        guard missing.isEmpty else { throw .unknownTodos(missing) }
        return found
    }

    public func addTodo(repositoryID: Int64, text: String, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            try database.run("""
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at)
                VALUES (?, ?, ?, 0, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?)
                """, .text(UUIDv4.make()), .integer(repositoryID), .text(text), .integer(repositoryID),
                .text(now.rfc3339), .text(now.rfc3339))
            return try requireTodos([database.lastInsertedRowID])[0]
        }
    }

    /// The sections to show: repositories with todos matching `filter` (all tracked ones when
    /// `includeEmpty`), by full name; open todos before done ones, each in list order.
    public func sections(repositoryID: Int64? = nil, filter: TodoFilter = .all, includeEmpty: Bool = false)
        throws -> [TodoSection]
    {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let repositoryID {
            conditions.append("t.repository_id = ?")
            values.append(.integer(repositoryID))
        }
        switch filter {
        case .all: break
        case .open: conditions.append("t.done = 0")
        case .done: conditions.append("t.done = 1")
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // Repositories are read once each, not once for every todo row.
        var repositories: [Int64: RepositoryRecord] = [:]
        for repository in try self.repositories() { repositories[repository.id] = repository }
        var sections: [TodoSection] = []
        _ = try database.query("""
            SELECT \(Self.todoColumns)
            FROM todos t JOIN repositories r ON r.id = t.repository_id \(whereClause)
            ORDER BY r.full_name COLLATE NOCASE, r.id, t.done, t.position, t.id
            """, values) { row throws(StoreError) in
            let todo = try Self.readTodo(row)
            if sections.last?.repository.id == todo.repositoryID {
                sections[sections.count - 1].todos.append(todo)
            } else if let repository = repositories[todo.repositoryID] {
                sections.append(TodoSection(repository: repository, todos: [todo]))
            }
        }
        guard includeEmpty else { return sections }
        let shown = Set(sections.map(\.repository.id))
        for repository in repositories.values
        where !shown.contains(repository.id) && (repositoryID == nil || repository.id == repositoryID) {
            sections.append(TodoSection(repository: repository, todos: []))
        }
        return sections.sorted { lhs, rhs in
            let left = lhs.repository.fullName.lowercased(), right = rhs.repository.fullName.lowercased()
            return left != right ? left < right : lhs.repository.id < rhs.repository.id
        }
    }

    /// Marks the todos done (or open again). All ids are checked first; a todo already in the
    /// asked state is left as it is. Returns the todos as they are afterwards.
    public func setDone(_ ids: [Int64], done: Bool, at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            _ = try requireTodos(ids)
            for id in ids {
                try database.run("""
                    UPDATE todos SET done = ?, done_at = ?, updated_at = ? WHERE id = ? AND done <> ?
                    """, .bool(done), done ? .text(now.rfc3339) : .null, .text(now.rfc3339), .integer(id), .bool(done))
            }
            return try requireTodos(ids)
        }
    }

    public func editTodo(id: Int64, text: String, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            _ = try requireTodos([id])
            try database.run("UPDATE todos SET text = ?, updated_at = ? WHERE id = ? AND text <> ?",
                             .text(text), .text(now.rfc3339), .integer(id), .text(text))
            return try requireTodos([id])[0]
        }
    }

    /// Deletes the todos (all ids checked first) and returns them as they were. Each leaves a
    /// tombstone so the removal can reach other copies of the todo.
    public func removeTodos(_ ids: [Int64], at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            let removed = try requireTodos(ids)
            for todo in removed {
                try database.run("INSERT OR REPLACE INTO todo_tombstones (uuid, repository_id, removed_at) VALUES (?, ?, ?)",
                                 .text(todo.uuid), .integer(todo.repositoryID), .text(now.rfc3339))
                try database.run("DELETE FROM todos WHERE id = ?", .integer(todo.id))
            }
            return removed
        }
    }
}
