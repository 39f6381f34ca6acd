import DoogitMerge
import DoogitSupport

/// `next`: the most urgent open todos, ranked as the rows come (`UrgencyRanking`).
extension Store {
    /// The `limit` most urgent open todos (`next`), of the repositories given (nil: all) that
    /// `filter` picks: those of `me` (a GitHub login, see `DetailsFilter.mine`) first, then by
    /// `Urgency` seen from `today` and `now`, the highest first; a tie goes as the list orders
    /// (due date, none last, then priority), then to the todo made first, then to the lower ID.
    public func nextTodos(limit: Int, repositoryIDs: [Int64]? = nil, filter: DetailsFilter = DetailsFilter(),
                          me: String? = nil, today: CalendarDate, now: Timestamp) throws -> [RankedTodo] {
        guard limit > 0 else { return [] }
        let (conditions, values) = Self.listConditions(repositoryIDs: repositoryIDs, filter: .open, details: filter)
        // The ranking reads the few columns the score needs of each open todo (no repository: the
        // conditions are on the todo alone) and keeps the best as it goes; only the todos it keeps
        // are read whole (with their tags), 500 to a query, and put back in its order.
        var ranking = UrgencyRanking(limit: limit)
        let mineColumn = me == nil ? "" : ", " + DetailsFilter.ownedCondition
        let mineValues: [SQLValue] = me.map { [.text($0)] } ?? []
        _ = try database.query("""
            SELECT t.id, t.due, t.priority, t.created_at\(mineColumn) FROM todos t WHERE \(conditions.joined(separator: " AND "))
            """, mineValues + values) { row throws(StoreError) in
            let due = row.withText(1, CalendarDate.init(utf8:)), priority = row.withText(2, Priority.init(utf8:))
            let made = try row.timestamp(3)
            var mine = true
            if me != nil { mine = try row.bool(4) }
            ranking.offer(UrgencyRanking.Entry(
                mine: mine,
                urgency: Urgency(due: due, priority: priority, made: made, today: today, now: now),
                dueDay: due?.dayNumber ?? .max, priorityRank: priority?.rank ?? 3, made: made, id: try row.int64(0)))
        }
        let ranked = ranking.ranked
        guard !ranked.isEmpty else { return [] }
        var todos: [Int64: TodoRecord] = [:]
        var reader = TodoReader()
        // In pieces of at most 500 IDs, within any SQLite's limit on bound values (999 before 3.32).
        var start = 0
        while start < ranked.count {
            let piece = ranked[start..<min(ranked.count, start + 500)]
            start = piece.endIndex
            _ = try database.query("""
                SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id
                WHERE t.id IN (\(piece.map { _ in "?" }.joined(separator: ", ")))
                """, piece.map { .integer($0.id) }) { row throws(StoreError) in
                let todo = try reader.read(row)
                todos[todo.id] = todo
            }
        }
        return ranked.compactMap { item in todos[item.id].map { RankedTodo(todo: $0, urgency: item.urgency) } }
    }
}
