import DoogitMerge
import DoogitSupport

/// Which way a read of the list goes from a key.
public enum ListDirection: Sendable {
    case forward, backward
}

/// The list read a screen at a time, for the interactive view: a repository's todos from a key
/// on (or back from it), each read from the index `todos_list_order` where it starts, and the
/// counts a header and the status line need, without reading the todos they count.
extension Store {
    /// Up to `limit` todos of the repository in list order: after `key` (from its start when
    /// nil) going forward, before it (from its end) going backward, nearest first; `key`'s own
    /// todo too when `inclusive`. `needle` (lowercased): only todos whose text holds it.
    public func listTodos(inRepository repositoryID: Int64, from key: ListKey?, _ direction: ListDirection,
                          inclusive: Bool = false, limit: Int, matching needle: String? = nil) throws -> [TodoRecord]
    {
        var conditions = ["t.repository_id = ?"]
        var values: [SQLValue] = [.integer(repositoryID)]
        if let key {
            let comparison = direction == .forward ? (inclusive ? ">=" : ">") : (inclusive ? "<=" : "<")
            conditions.append("\(ListKey.columns) \(comparison) (?, ?, ?, ?, ?)")
            values += key.values
        }
        if let needle {
            conditions.append("\(TextMatch.sqlName)(t.text, ?)")
            values.append(.text(needle))
        }
        let order = direction == .forward ? "" : " DESC"
        values.append(.integer(Int64(max(0, limit))))
        return try database.query("""
            SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY t.done\(order), t.list_due\(order), t.list_rank\(order), t.position\(order), t.id\(order) LIMIT ?
            """, values) { row throws(StoreError) in try Self.readTodo(row) }
    }

    /// How many todos of each repository hold `needle` (lowercased) in their text; repositories
    /// without one are left out.
    public func matchCounts(_ needle: String, repositoryIDs: [Int64]? = nil) throws -> [Int64: Int] {
        var values: [SQLValue] = [.text(needle)]
        var restriction = ""
        if let repositoryIDs {
            restriction = " AND t.repository_id IN (\(repositoryIDs.map { _ in "?" }.joined(separator: ", ")))"
            values += repositoryIDs.map(SQLValue.integer)
        }
        var counts: [Int64: Int] = [:]
        _ = try database.query("""
            SELECT t.repository_id, count(*) FROM todos t WHERE \(TextMatch.sqlName)(t.text, ?)\(restriction)
            GROUP BY t.repository_id
            """, values) { row throws(StoreError) in counts[try row.int64(0)] = Int(try row.int64(1)) }
        return counts
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
