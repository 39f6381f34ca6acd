import DoogitMerge
import DoogitSupport

extension Store {

    /// A todo's columns for `readTodo`; its issue's state and address are as last seen under
    /// the present link (the state unknown otherwise).
    static let todoColumns = listColumns + ", " + tagsColumn

    /// A todo's tags, joined by spaces.
    static let tagsColumn = "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = t.uuid AND is_on = 1) AS tags"

    /// `todoColumns` without the tags, which a listing of many todos reads in one go (`tagsByTodoID`).
    static let listColumns = "r.full_name, " + ownColumns

    /// The columns of a todo read from `todos t` alone, without its repository's name.
    static let ownColumns = """
        t.id AS todo_id, t.uuid, t.repository_id, t.text, t.done, t.position, t.created_at,
        t.updated_at, t.done_at, t.issue_number,
        CASE WHEN t.seen_number = t.issue_number AND t.seen_clock = t.issue_clock THEN t.seen_url ELSE t.issue_url END AS issue_url,
        CASE WHEN t.seen_number = t.issue_number AND t.seen_clock = t.issue_clock THEN t.seen_state END AS issue_state,
        CASE WHEN t.seen_number = t.issue_number AND t.seen_clock = t.issue_clock THEN t.seen_labels END AS issue_labels,
        CASE WHEN t.seen_labels IS NOT NULL AND t.seen_labels <> '' AND t.issue_number IS NOT NULL
             THEN (SELECT group_concat(label, char(31)) FROM label_changes WHERE todo_uuid = t.uuid AND adding = 0)
        END AS labels_leaving,
        t.due, t.priority, t.note, t.author, \(finishedByColumn("t")), t.assignee
        """

    /// Who finished the todo of table `alias`, known only while it is done by that change (its
    /// stamp the done state's); tested first for a login, since most todos have none.
    static func finishedByColumn(_ alias: String) -> String {
        "CASE WHEN \(alias).finished_by IS NOT NULL AND \(alias).done = 1 AND \(alias).finished_by_clock = \(alias).done_clock "
            + "THEN \(alias).finished_by END AS finished_by"
    }

    /// The todo of a row that has `todoColumns` (or `listColumns`, then with `tags`).
    static func readTodo(_ row: Row, tags: [String]? = nil) throws(StoreError) -> TodoRecord {
        var reader = TodoReader()
        return try reader.read(row, tags: tags)
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

    /// The todos with these ids, in the order given; throws naming every id that does not exist,
    /// and apart those of removed todos that `restoreTodos` can bring back.
    public func requireTodos(_ ids: [Int64]) throws(StoreError) -> [TodoRecord] {
        let found = try todos(ids: ids)
        let known = Set(found.map(\.id))
        let missing = ids.filter { !known.contains($0) }
        guard missing.isEmpty else {
            let restorable = Set(try database.query("""
                SELECT b.todo_id FROM todo_tombstones b JOIN repositories r ON r.id = b.repository_id
                WHERE b.todo_id IS NOT NULL AND b.text IS NOT NULL
                """) { row throws(StoreError) in try row.int64(0) })
            var removed: [Int64] = []
            for id in missing where restorable.contains(id) && !removed.contains(id) { removed.append(id) }
            if removed.isEmpty { throw .unknownTodos(missing) }
            throw .removedTodos(removed, unknown: missing.filter { !restorable.contains($0) })
        }
        return found
    }

    /// Adds an open todo at the end of its repository; `uuid` names it (a new one by default),
    /// `author` is the GitHub login that adds it (nil: not known here).
    public func addTodo(repositoryID: Int64, text: String, uuid: String = UUIDv4.make(), details: DetailsEdit = DetailsEdit(),
                        author: String? = nil, at now: Timestamp) throws -> TodoRecord
    {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            try database.run("""
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, author) VALUES (?, ?, ?, 0, ?, ?, ?, ?)
                """, .text(uuid), .integer(repositoryID), .text(text), .integer(try nextPosition(inRepository: repositoryID)),
                .text(now.rfc3339), .text(now.rfc3339), .optional(author))
            let id = database.lastInsertedRowID
            try replica.stamp(author == nil ? .added : TodoFields.added.union(.author), todos: [id], at: now)
            if !details.isEmpty { try writeDetails(of: try requireTodos([id])[0], details, at: now) }
            return try requireTodos([id])[0]
        }
    }

    /// The position after a repository's last todo: two lookups of the index (repository_id,
    /// done, position), one per state. `max(position)` of the repository alone reads every row
    /// of it, and adding many todos grew with the square of their number.
    func nextPosition(inRepository id: Int64) throws(StoreError) -> Int64 {
        let open = try database.scalarInt("SELECT max(position) FROM todos WHERE repository_id = ? AND done = 0", .integer(id)) ?? 0
        let done = try database.scalarInt("SELECT max(position) FROM todos WHERE repository_id = ? AND done = 1", .integer(id)) ?? 0
        return max(open, done) + 1
    }

    /// Marks the todos done (or open again). All ids are checked first; a todo already in the
    /// asked state is left as it is. `by`: the GitHub login that finishes them (nil: not known
    /// here), kept with the done state and cleared when a todo opens again. Returns the todos as
    /// they are afterwards.
    public func setDone(_ ids: [Int64], done: Bool, by login: String? = nil, at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            let before = try requireTodos(ids)
            try replica.stamp([.done, .finishedBy], todos: before.filter { $0.done != done }.map(\.id), at: now)
            for id in ids {
                try database.run("""
                    UPDATE todos SET done = ?, done_at = ?, finished_by = ?, updated_at = ? WHERE id = ? AND done <> ?
                    """, .bool(done), done ? .text(now.rfc3339) : .null, done ? .optional(login) : .null, .text(now.rfc3339),
                    .integer(id), .bool(done))
            }
            return try requireTodos(ids)
        }
    }

    public func editTodo(id: Int64, text: String, at now: Timestamp) throws -> TodoRecord {
        try editTodo(id: id, text: .some(text), details: DetailsEdit(), at: now)
    }

    /// Changes a todo's text (nil: kept) and details, in one transaction.
    public func editTodo(id: Int64, text: String?, details: DetailsEdit, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            if let text {
                if try requireTodos([id])[0].text != text { try replica.stamp(.text, todos: [id], at: now) }
                try database.run("UPDATE todos SET text = ?, updated_at = ? WHERE id = ? AND text <> ?",
                                 .text(text), .text(now.rfc3339), .integer(id), .text(text))
            }
            if !details.isEmpty { try writeDetails(of: try requireTodos([id])[0], details, at: now) }
            return try requireTodos([id])[0]
        }
    }

    /// Deletes the todos (all ids checked first) and returns them as they were. Each leaves a
    /// tombstone with its values, so `restoreTodos` can bring it back and the removal can reach
    /// other copies of the todo.
    public func removeTodos(_ ids: [Int64], at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            let removed = try requireTodos(ids)
            for todo in removed { try entomb(where: "id = ?", [.integer(todo.id)], at: now) }
            return removed
        }
    }

    /// Removes every done todo (of one repository, or of all), restorably, and returns them.
    public func clearDone(repositoryID: Int64?, at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            var reader = TodoReader()
            let done = try database.query("""
                SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id
                WHERE t.done = 1 AND (? IS NULL OR t.repository_id = ?) ORDER BY r.full_name COLLATE NOCASE, t.position
                """, [repositoryID.map(SQLValue.integer) ?? .null, repositoryID.map(SQLValue.integer) ?? .null]) {
                row throws(StoreError) in try reader.read(row)
            }
            for todo in done { try entomb(where: "id = ?", [.integer(todo.id)], at: now) }
            return done
        }
    }

    /// Deletes the todos the condition selects, leaving tombstones that keep their values and
    /// stamps. The removal is stamped now, as a local change.
    @discardableResult
    func entomb(where condition: String, _ values: [SQLValue], at now: Timestamp) throws(StoreError) -> Int {
        guard try !database.query("SELECT 1 FROM todos WHERE \(condition) LIMIT 1", values, { _ in true }).isEmpty else {
            return 0
        }
        let removal = try replica.nextStamp(at: now)
        let registers = TodoRows.registerColumns.map { $0 == "removed_clock" ? "?" : $0 }.joined(separator: ", ")
        try database.run("""
            INSERT OR REPLACE INTO todo_tombstones (uuid, todo_id, removed_at, position, created_at, updated_at, \(TodoRows.registerList))
            SELECT uuid, id, ?, position, created_at, updated_at, \(registers) FROM todos WHERE \(condition)
            """, [.text(now.rfc3339), .text(removal.text)] + values)
        return try database.run("DELETE FROM todos WHERE \(condition)", values)
    }

    /// Brings removed todos back with their IDs, UUIDs, text and state, at the end of their
    /// repository. All ids are checked first: each must be a removed todo whose repository is
    /// still tracked, and whose ID nothing else has taken since. A todo comes back linked,
    /// unless its issue was linked to another todo meanwhile: then unlinked, a change of its own.
    /// A linked one catches up with its issue at the next sync (`ReplicaStore.rereadIssue`).
    public func restoreTodos(_ ids: [Int64], at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            let machine = try replica.clock().machine
            var found: [(Int64, TodoEntry)] = []
            var missing: [Int64] = []
            var asked: Set<Int64> = []
            for id in ids where asked.insert(id).inserted {
                let entry = try database.query("""
                    SELECT \(TodoRows.removedColumns) FROM todo_tombstones b JOIN repositories r ON r.id = b.repository_id
                    WHERE b.todo_id = ? AND b.text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todos WHERE id = b.todo_id)
                    ORDER BY b.removed_at DESC LIMIT 1
                    """, [.integer(id)]) { row throws(StoreError) in
                    try TodoRows.entry(row, removed: true, machine: machine, commits: try replica.commits(of: try row.string("uuid")))
                }.first
                if let entry { found.append((id, entry)) } else { missing.append(id) }
            }
            guard missing.isEmpty else {
                // Removed with its repository (`repo remove --force`, here or elsewhere): tracked first.
                if let first = missing.first, let untracked = try database.query("""
                    SELECT u.full_name FROM todo_tombstones b JOIN untracked_repositories u ON u.id = b.repository_id
                    WHERE b.todo_id = ? AND b.text IS NOT NULL AND u.id NOT IN (SELECT id FROM repositories)
                    """, [.integer(first)], { row throws(StoreError) in try row.string("full_name") }).first {
                    throw StoreError.repositoryNotTracked(ids: missing, fullName: untracked)
                }
                throw StoreError.notRestorable(missing)
            }
            for (id, removed) in found {
                var entry = removed
                let stamp = try replica.nextStamp(at: now)
                entry.removed = Register(false, at: stamp)
                if let link = entry.issue.value, try database.scalarInt(
                    "SELECT count(*) FROM todos WHERE repository_id = ? AND issue_number = ?", .integer(link.repository),
                    .integer(link.number)) != 0 {
                    entry.issue = Register(nil, at: stamp)
                }
                try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(entry.uuid))
                let inserted = try replica.insertLive(entry, id: id, at: now)
                if let link = entry.issue.value {
                    try database.run("UPDATE todos SET issue_number = ?, issue_url = ? WHERE id = ?",
                                     .integer(link.number), .text(link.url), .integer(inserted))
                    try replica.rereadIssue(of: entry)
                }
            }
            return try requireTodos(found.map(\.0))
        }
    }

    /// Moves the todos (all checked first) to the end of another tracked repository, in the
    /// order given; their IDs and UUIDs stay. A linked issue belongs to the repository the todo
    /// leaves, so a linked todo is refused, naming its issue, unless `unlinking`: then the link is
    /// forgotten. Returns them as they are afterwards.
    public func moveTodos(_ ids: [Int64], toRepository repositoryID: Int64, unlinking: Bool = false,
                          at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            guard try database.scalarInt("SELECT count(*) FROM repositories WHERE id = ?", .integer(repositoryID)) == 1 else {
                throw StoreError.unknownRepository("id:\(repositoryID)")
            }
            let moving = try requireTodos(ids).filter { $0.repositoryID != repositoryID }
            if !unlinking, let linked = moving.first(where: { $0.issue != nil }), let issue = linked.issue {
                throw StoreError.movingLinkedTodo(todo: linked.id, repository: linked.repositoryFullName, issue: issue.number)
            }
            for todo in moving {
                try replica.stamp(todo.issue == nil ? .repository : [.repository, .issue], todos: [todo.id], at: now)
                try database.run("""
                    UPDATE todos SET repository_id = ?, updated_at = ?, issue_number = NULL, issue_url = NULL, position = ? WHERE id = ?
                    """, .integer(repositoryID), .text(now.rfc3339), .integer(try nextPosition(inRepository: repositoryID)),
                    .integer(todo.id))
            }
            return try requireTodos(ids)
        }
    }

    /// The IDs of removed todos that can still be restored, most recently removed first.
    public func restorableTodoIDs() throws -> [Int64] {
        try database.query("""
            SELECT b.todo_id FROM todo_tombstones b JOIN repositories r ON r.id = b.repository_id
            WHERE b.todo_id IS NOT NULL AND b.text IS NOT NULL ORDER BY b.removed_at DESC, b.todo_id DESC
            """) { row throws(StoreError) in try row.int64("todo_id") }
    }
}
