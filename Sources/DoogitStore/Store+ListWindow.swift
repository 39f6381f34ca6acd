import DoogitMerge
import DoogitSupport

/// Which way a read of the list goes from a key.
public enum ListDirection: Sendable {
    case forward, backward
}

/// A todo as the list's window reads it: the record, and its key in the index.
public struct ListedTodo: Sendable {
    public var todo: TodoRecord
    public var key: ListKey
}

/// The list read a screen at a time, for the interactive view: a repository's todos from a key
/// on (or back from it), each read from the index `todos_list_order` where it starts, and the
/// counts a header and the status line need, without reading the todos they count.
extension Store {
    /// Up to `limit` todos of the repository in list order, each with its key as the index
    /// holds it: after `key` (from its start when nil) going forward, before it (from its end)
    /// going backward, nearest first; `key`'s own todo too when `inclusive`. `needle`
    /// (lowercased): only todos whose text holds it.
    public func listTodos(inRepository repositoryID: Int64, from key: ListKey?, _ direction: ListDirection,
                          inclusive: Bool = false, limit: Int, matching needle: String? = nil) throws -> [ListedTodo]
    {
        var values: [SQLValue] = [.integer(repositoryID)]
        if let key { values += key.values }
        if let needle { values.append(.text(needle)) }
        values.append(.integer(Int64(max(0, limit))))
        let sql = Self.listWindowSQL(direction, from: key != nil, inclusive: inclusive, matching: needle != nil)
        return try database.query(sql, values) { row throws(StoreError) in
            ListedTodo(todo: try Self.readTodo(row), key: try ListKey(row))
        }
    }

    /// The query of `listTodos`: a range of the index `todos_list_order`, in its order or the
    /// reverse, with the key read as the index holds it (so that the next page starts exactly
    /// where this one ended, whatever a row holds).
    static func listWindowSQL(_ direction: ListDirection, from key: Bool, inclusive: Bool, matching: Bool) -> String {
        var conditions = ["t.repository_id = ?"]
        if key {
            let comparison = direction == .forward ? (inclusive ? ">=" : ">") : (inclusive ? "<=" : "<")
            conditions.append("(\(ListKey.columns.joined(separator: ", "))) \(comparison) (?, ?, ?, ?, ?)")
        }
        if matching { conditions.append("\(TextMatch.sqlName)(t.text, ?)") }
        let order = ListKey.columns.map { direction == .forward ? $0 : $0 + " DESC" }.joined(separator: ", ")
        return """
            SELECT \(todoColumns), t.list_due AS list_due, t.list_rank AS list_rank
            FROM todos t JOIN repositories r ON r.id = t.repository_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ?
            """
    }

    /// How many todos of each repository hold `needle` (lowercased) in their text; repositories
    /// without one are left out. Without `repositoryIDs`, every todo is read once in the table's
    /// order and counted as it goes (`TextMatch.countsName`): neither an index's order, which
    /// would read each todo's row apart, nor groups sorted after.
    public func matchCounts(_ needle: String, repositoryIDs: [Int64]? = nil) throws -> [Int64: Int] {
        var values: [SQLValue] = [.text(needle)]
        var source = "todos t NOT INDEXED"
        if let repositoryIDs {
            source = "todos t WHERE t.repository_id IN (\(repositoryIDs.map { _ in "?" }.joined(separator: ", ")))"
            values += repositoryIDs.map(SQLValue.integer)
        }
        return try database.query("SELECT \(TextMatch.countsName)(t.repository_id, t.text, ?) FROM \(source)", values) {
            row throws(StoreError) in row.withBytes(0, TextMatch.counts)
        }.first ?? [:]
    }

    /// The todo with this id, nil when there is none (removed, or never made).
    public func todoIfAny(id: Int64) throws -> TodoRecord? {
        try todos(ids: [id]).first
    }

    /// The largest id a todo has: the list's IDs are aligned to its width.
    public func largestTodoID() throws -> Int64 {
        try database.scalarInt("SELECT coalesce(max(id), 0) FROM todos") ?? 0
    }
}
