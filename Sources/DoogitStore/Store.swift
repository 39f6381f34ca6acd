import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The todo list on disk: repositories as sections, todos as items. Every change runs in one
/// immediate transaction and checks everything it needs before it writes anything, so a refused
/// or failed command leaves the database as it was.
public final class Store {
    public let database: Database

    /// Refuses a database from a newer doogit before anything is written to it; otherwise turns
    /// on WAL and brings the schema up to date.
    public init(database: Database) throws {
        self.database = database
        let found = try Migrator.currentVersion(of: database)
        guard found <= Migrations.latestVersion else {
            throw StoreError.newerSchema(found: found, known: Migrations.latestVersion)
        }
        try database.enableWriteAheadLog()
        try Migrator.migrate(database)
    }

    /// Opens (creating if needed) the database at `path`: missing parent folders are made with
    /// mode 0700 and a new file with mode 0600, before SQLite writes anything to it.
    public static func open(path: String) throws -> Store {
        if path != ":memory:" && !Files.exists(path) {
            let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : ""
            if !folder.isEmpty, let reason = Files.createDirectories(folder, mode: 0o700) {
                throw StoreError.cannotCreateDirectory(path: folder, reason: reason)
            }
            if let reason = Files.createFileIfMissing(path, mode: 0o600) {
                throw StoreError.cannotCreateFile(path: path, reason: reason)
            }
        }
        return try Store(database: try Database(path: path))
    }

    // MARK: Repositories

    private static let repositoryColumns = """
        r.id, r.owner, r.name, r.full_name, r.description, r.html_url, r.private, r.archived, r.gone,
        r.pushed_at, r.remote_updated_at, r.etag, r.added_at, r.synced_at
        """

    private static func readRepository(_ row: Row, from first: Int32 = 0) throws(StoreError) -> RepositoryRecord {
        RepositoryRecord(
            id: try row.int64(first), owner: try row.string(first + 1), name: try row.string(first + 2),
            fullName: try row.string(first + 3), description: row.optionalString(first + 4),
            url: try row.string(first + 5), isPrivate: try row.bool(first + 6), archived: try row.bool(first + 7),
            gone: try row.bool(first + 8), pushedAt: row.optionalString(first + 9),
            remoteUpdatedAt: row.optionalString(first + 10), etag: row.optionalString(first + 11),
            addedAt: try timestamp(row, first + 12), syncedAt: try timestamp(row, first + 13))
    }

    private static func timestamp(_ row: Row, _ column: Int32) throws(StoreError) -> Timestamp {
        let text = try row.string(column)
        guard let value = Timestamp(rfc3339: text) else {
            throw .sqlite(code: 11, message: "malformed timestamp '\(text)'", sql: nil)  // SQLITE_CORRUPT
        }
        return value
    }

    private static func optionalTimestamp(_ row: Row, _ column: Int32) throws(StoreError) -> Timestamp? {
        row.isNull(column) ? nil : try timestamp(row, column)
    }

    /// Inserts the repository or updates the tracked one with the same GitHub id; the first
    /// `addedAt` is kept.
    public func saveRepository(_ repository: RepositoryRecord) throws {
        try database.transaction { () throws(StoreError) in try upsert(repository) }
    }

    /// Saves several repositories in one transaction: all or none.
    public func saveRepositories(_ repositories: [RepositoryRecord]) throws {
        try database.transaction { () throws(StoreError) in
            for repository in repositories { try upsert(repository) }
        }
    }

    private func upsert(_ r: RepositoryRecord) throws(StoreError) {
        try database.run("""
            INSERT INTO repositories (id, owner, name, full_name, description, html_url, private, archived, gone,
                                      pushed_at, remote_updated_at, etag, added_at, synced_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                owner = excluded.owner, name = excluded.name, full_name = excluded.full_name,
                description = excluded.description, html_url = excluded.html_url, private = excluded.private,
                archived = excluded.archived, gone = excluded.gone, pushed_at = excluded.pushed_at,
                remote_updated_at = excluded.remote_updated_at, etag = excluded.etag, synced_at = excluded.synced_at
            """,
            .integer(r.id), .text(r.owner), .text(r.name), .text(r.fullName), .optional(r.description),
            .text(r.url), .bool(r.isPrivate), .bool(r.archived), .bool(r.gone), .optional(r.pushedAt),
            .optional(r.remoteUpdatedAt), .optional(r.etag), .text(r.addedAt.rfc3339), .text(r.syncedAt.rfc3339))
    }

    public func repository(id: Int64) throws -> RepositoryRecord? {
        try database.query("SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.id = ?", [.integer(id)]) {
            row throws(StoreError) in try Self.readRepository(row)
        }.first
    }

    /// Every tracked repository, by full name.
    public func repositories() throws -> [RepositoryRecord] {
        try database.query("SELECT \(Self.repositoryColumns) FROM repositories r ORDER BY r.full_name COLLATE NOCASE, r.id") {
            row throws(StoreError) in try Self.readRepository(row)
        }
    }

    /// Every tracked repository with its open and done counts, by full name.
    public func repositorySummaries() throws -> [RepositorySummary] {
        try database.query("""
            SELECT \(Self.repositoryColumns),
                   (SELECT count(*) FROM todos t WHERE t.repository_id = r.id AND t.done = 0),
                   (SELECT count(*) FROM todos t WHERE t.repository_id = r.id AND t.done = 1)
            FROM repositories r ORDER BY r.full_name COLLATE NOCASE, r.id
            """) { row throws(StoreError) in
            RepositorySummary(repository: try Self.readRepository(row), open: Int(try row.int64(14)),
                              done: Int(try row.int64(15)))
        }
    }

    /// The tracked repository named `owner/name`, or by `name` alone when exactly one tracked
    /// repository has that name. Names compare case-insensitively, as on GitHub.
    public func findRepository(owner: String?, name: String) throws -> RepositoryRecord {
        let matches: [RepositoryRecord]
        if let owner {
            matches = try database.query("""
                SELECT \(Self.repositoryColumns) FROM repositories r
                WHERE r.full_name = ? COLLATE NOCASE ORDER BY r.gone, r.id
                """, [.text("\(owner)/\(name)")]) { row throws(StoreError) in try Self.readRepository(row) }
            // A gone repository may still hold a name that a live one has taken since.
            if let first = matches.first { return first }
            throw StoreError.unknownRepository("\(owner)/\(name)")
        }
        matches = try database.query("""
            SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.name = ? COLLATE NOCASE
            ORDER BY r.full_name COLLATE NOCASE
            """, [.text(name)]) { row throws(StoreError) in try Self.readRepository(row) }
        switch matches.count {
        case 0: throw StoreError.unknownRepository(name)
        case 1: return matches[0]
        default: throw StoreError.ambiguousRepository(name, candidates: matches.map(\.fullName))
        }
    }

    /// Stops tracking the repositories. Without `force`, refuses (changing nothing) while any of
    /// them has open todos; with it, their todos go too. Returns how many todos were removed.
    @discardableResult
    public func removeRepositories(ids: [Int64], force: Bool, at now: Timestamp) throws -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            var removedTodos = 0
            for id in ids {
                guard let fullName = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?",
                                                               .integer(id))
                else { throw StoreError.unknownRepository(String(id)) }
                let open = Int(try database.scalarInt(
                    "SELECT count(*) FROM todos WHERE repository_id = ? AND done = 0", .integer(id)) ?? 0)
                if open > 0 && !force { throw StoreError.repositoryHasOpenTodos(fullName: fullName, open: open) }
                try database.run("""
                    INSERT OR REPLACE INTO todo_tombstones (uuid, repository_id, removed_at)
                    SELECT uuid, repository_id, ? FROM todos WHERE repository_id = ?
                    """, .text(now.rfc3339), .integer(id))
                removedTodos += try database.run("DELETE FROM todos WHERE repository_id = ?", .integer(id))
                try database.run("DELETE FROM repositories WHERE id = ?", .integer(id))
            }
            return removedTodos
        }
    }

    // MARK: Todos

    private static let todoColumns = """
        t.id, t.uuid, t.repository_id, r.full_name, t.text, t.done, t.position, t.created_at, t.updated_at, t.done_at
        """

    private static func readTodo(_ row: Row, from first: Int32 = 0) throws(StoreError) -> TodoRecord {
        TodoRecord(
            id: try row.int64(first), uuid: try row.string(first + 1), repositoryID: try row.int64(first + 2),
            repositoryFullName: try row.string(first + 3), text: try row.string(first + 4),
            done: try row.bool(first + 5), position: try row.int64(first + 6),
            createdAt: try timestamp(row, first + 7), updatedAt: try timestamp(row, first + 8),
            doneAt: try optionalTimestamp(row, first + 9))
    }

    private func todos(ids: [Int64]) throws(StoreError) -> [TodoRecord] {
        var found: [TodoRecord] = []
        for id in ids {
            found += try database.query("""
                SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.id = ?
                """, [.integer(id)]) { row throws(StoreError) in try Self.readTodo(row) }
        }
        return found
    }

    /// The todos with these ids, in the order given; throws naming every id that does not exist.
    private func requireTodos(_ ids: [Int64]) throws(StoreError) -> [TodoRecord] {
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
