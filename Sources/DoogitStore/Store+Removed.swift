import DoogitSupport

extension Store {
    /// The removed todos that can be brought back here (`restoreTodos`), whichever machine removed
    /// them: one section per repository, most recently removed first, each with the ID it has
    /// here (one no todo has taken since). A repository no longer tracked (`repo remove --force`,
    /// here or on another machine) has its section too, marked untracked: it is tracked again
    /// (`repo add`) before its todos can come back.
    public func removedSections(repositoryIDs: [Int64]? = nil, matching text: String? = nil) throws -> [TodoSection] {
        var repositories: [Int64: RepositoryRecord] = [:]
        for repository in try untrackedRepositories() { repositories[repository.id] = repository }
        for repository in try self.repositories() { repositories[repository.id] = repository }
        let needle = text.map { $0.lowercased() }
        var sections: [TodoSection] = []
        var reader = TodoReader()
        _ = try database.query("""
            SELECT b.todo_id AS todo_id, b.uuid, b.repository_id, coalesce(r.full_name, u.full_name) AS full_name, b.text,
                   coalesce(b.done, 0) AS done,
                   coalesce(b.position, 0) AS position, coalesce(b.created_at, b.removed_at) AS created_at,
                   coalesce(b.updated_at, b.removed_at) AS updated_at, b.done_at, b.issue_number,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_url ELSE b.issue_url END
                       AS issue_url,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_state END AS issue_state,
                   CASE WHEN b.seen_number = b.issue_number AND b.seen_clock = b.issue_clock THEN b.seen_labels END AS issue_labels,
                   b.due, b.priority, b.note, b.author, \(Self.finishedByColumn("b")), b.assignee,
                   (SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = b.uuid AND is_on = 1) AS tags
            FROM todo_tombstones b LEFT JOIN repositories r ON r.id = b.repository_id
                 LEFT JOIN untracked_repositories u ON u.id = b.repository_id
            WHERE b.todo_id IS NOT NULL AND b.text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todos WHERE id = b.todo_id)
                  AND (r.id IS NOT NULL OR u.id IS NOT NULL)
            ORDER BY r.id IS NULL, coalesce(r.full_name, u.full_name) COLLATE NOCASE, b.repository_id, b.removed_at DESC,
                     b.todo_id
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

    /// The repositories no longer tracked that are still known here, as records marked untracked.
    func untrackedRepositories() throws -> [RepositoryRecord] {
        try database.query("""
            SELECT id, full_name, html_url FROM untracked_repositories WHERE id NOT IN (SELECT id FROM repositories)
            """) { row throws(StoreError) in
            let fullName = try row.string("full_name")
            let parts = fullName.split(separator: "/", maxSplits: 1).map(String.init)
            var record = RepositoryRecord(id: try row.int64("id"), owner: parts.first ?? "", name: parts.last ?? fullName,
                                          fullName: fullName, description: nil, url: try row.string("html_url"), isPrivate: false,
                                          archived: false, addedAt: Timestamp(millisecondsSinceEpoch: 0),
                                          syncedAt: Timestamp(millisecondsSinceEpoch: 0))
            record.tracked = false
            return record
        }
    }
}
