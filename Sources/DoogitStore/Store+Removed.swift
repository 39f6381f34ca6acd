import DoogitSupport

extension Store {
    /// The removed todos that can be brought back here (`restoreTodos`), whichever machine removed
    /// them: one section per tracked repository, most recently removed first, each with the ID it
    /// has here (one no todo has taken since).
    public func removedSections(repositoryIDs: [Int64]? = nil, matching text: String? = nil) throws -> [TodoSection] {
        var repositories: [Int64: RepositoryRecord] = [:]
        for repository in try self.repositories() { repositories[repository.id] = repository }
        let needle = text.map { $0.lowercased() }
        var sections: [TodoSection] = []
        var reader = TodoReader()
        _ = try database.query("""
            SELECT b.todo_id AS todo_id, b.uuid, b.repository_id, r.full_name, b.text, coalesce(b.done, 0) AS done,
                   coalesce(b.position, 0) AS position, coalesce(b.created_at, b.removed_at) AS created_at,
                   coalesce(b.updated_at, b.removed_at) AS updated_at, b.done_at, b.issue_number,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_url ELSE b.issue_url END
                       AS issue_url,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_state END AS issue_state,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_labels END AS issue_labels,
                   b.due, b.priority, b.note, (SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = b.uuid AND is_on = 1) AS tags
            FROM todo_tombstones b JOIN repositories r ON r.id = b.repository_id
            WHERE b.todo_id IS NOT NULL AND b.text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todos WHERE id = b.todo_id)
            ORDER BY r.full_name COLLATE NOCASE, r.id, b.removed_at DESC, b.todo_id
            """) { row throws(StoreError) in
            let todo = try reader.read(row)
            if let repositoryIDs, !repositoryIDs.contains(todo.repositoryID) { return }
            if let needle, !todo.text.lowercased().contains(needle) { return }
            if sections.last?.repository.id == todo.repositoryID {
                sections[sections.count - 1].todos.append(todo)
            } else if let repository = repositories[todo.repositoryID] {
                sections.append(TodoSection(repository: repository, todos: [todo]))
            }
        }
        return sections
    }
}
