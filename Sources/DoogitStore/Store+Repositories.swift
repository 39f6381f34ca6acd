import DoogitSupport

extension Store {
    /// A repository's columns, first in every row that `readRepository` reads, in the order of
    /// `RepositoryColumn`.
    static let repositoryColumns = """
        r.id AS repository_id, r.owner, r.name, r.full_name, r.description, r.html_url, r.private, r.archived,
        r.gone, r.pushed_at, r.remote_updated_at, r.etag, r.added_at, r.synced_at, r.default_branch, r.push_issues,
        r.import_issues, r.scan_commits
        """

    /// The order of repositories everywhere they are listed, the sections of the list too: by
    /// full name without case, then by id.
    static let repositoryOrder = "r.full_name COLLATE NOCASE, r.id"

    /// The repository of a row that starts with `repositoryColumns`, read by position: the view
    /// reads a thousand at its first frame, and a name looked up per column cost a fifth of it.
    static func readRepository(_ row: Row) throws(StoreError) -> RepositoryRecord {
        typealias C = RepositoryColumn
        return RepositoryRecord(
            id: try row.int64(C.id.rawValue), owner: try row.string(C.owner.rawValue), name: try row.string(C.name.rawValue),
            fullName: try row.string(C.fullName.rawValue), description: row.optionalString(C.description.rawValue),
            url: try row.string(C.url.rawValue), isPrivate: try row.bool(C.isPrivate.rawValue),
            archived: try row.bool(C.archived.rawValue), gone: try row.bool(C.gone.rawValue),
            pushedAt: row.optionalString(C.pushedAt.rawValue), remoteUpdatedAt: row.optionalString(C.remoteUpdatedAt.rawValue),
            etag: row.optionalString(C.etag.rawValue), addedAt: try row.timestamp(C.addedAt.rawValue),
            syncedAt: try row.timestamp(C.syncedAt.rawValue), defaultBranch: row.optionalString(C.defaultBranch.rawValue),
            settings: RepositorySettings(
                pushIssues: try row.bool(C.pushIssues.rawValue),
                importIssues: IssueImport(rawValue: try row.string(C.importIssues.rawValue)) ?? .off,
                scanCommits: try row.bool(C.scanCommits.rawValue)))
    }

    /// Inserts the repository or updates the tracked one with the same GitHub id; the first
    /// `addedAt` is kept. A changed name is remembered, so the repository stays reachable by it.
    public func saveRepository(_ repository: RepositoryRecord) throws {
        try database.transaction { () throws(StoreError) in try upsert(repository) }
    }

    /// Saves several repositories in one transaction: all or none.
    public func saveRepositories(_ repositories: [RepositoryRecord]) throws {
        try database.transaction { () throws(StoreError) in
            for repository in repositories { try upsert(repository) }
        }
    }

    func upsert(_ r: RepositoryRecord) throws(StoreError) {
        let previousName = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?", .integer(r.id))
        try database.run("""
            INSERT INTO repositories (id, owner, name, full_name, description, html_url, private, archived, gone,
                                      pushed_at, remote_updated_at, etag, added_at, synced_at, default_branch)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                owner = excluded.owner, name = excluded.name, full_name = excluded.full_name,
                description = excluded.description, html_url = excluded.html_url, private = excluded.private,
                archived = excluded.archived, gone = excluded.gone, pushed_at = excluded.pushed_at,
                remote_updated_at = excluded.remote_updated_at, etag = excluded.etag, synced_at = excluded.synced_at,
                default_branch = coalesce(excluded.default_branch, default_branch),
                -- Another default branch is read afresh (from the last commit seen).
                branch_etag = CASE WHEN excluded.default_branch IS NOT default_branch
                                        AND excluded.default_branch IS NOT NULL THEN NULL ELSE branch_etag END,
                commits_pushed_at = CASE WHEN excluded.default_branch IS NOT default_branch
                                              AND excluded.default_branch IS NOT NULL THEN NULL ELSE commits_pushed_at END
            """,
            .integer(r.id), .text(r.owner), .text(r.name), .text(r.fullName), .optional(r.description),
            .text(r.url), .bool(r.isPrivate), .bool(r.archived), .bool(r.gone), .optional(r.pushedAt),
            .optional(r.remoteUpdatedAt), .optional(r.etag), .text(r.addedAt.rfc3339), .text(r.syncedAt.rfc3339),
            .optional(r.defaultBranch))
        try stampRepository(r.id, previousName: previousName, at: r.syncedAt)
        // The current name is nobody's former name any more: this repository has it now.
        try database.run("DELETE FROM repository_names WHERE full_name = ?", .text(r.fullName))
        if let previousName, previousName.lowercased() != r.fullName.lowercased() {
            try rememberName(previousName, forRepository: r.id, at: r.syncedAt)
        }
    }

    /// Remembers another name of a tracked repository (a former name, or one GitHub redirected
    /// to it), so that commands find it by that name too. Its current name needs no entry.
    public func rememberName(_ fullName: String, forRepository id: Int64, at now: Timestamp) throws(StoreError) {
        let current = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?", .integer(id))
        guard let current, current.lowercased() != fullName.lowercased() else { return }
        try database.run("""
            INSERT INTO repository_names (full_name, repository_id, seen_at) VALUES (?, ?, ?)
            ON CONFLICT (full_name) DO UPDATE SET repository_id = excluded.repository_id, seen_at = excluded.seen_at
            """, .text(fullName), .integer(id), .text(now.rfc3339))
    }

    /// The names a tracked repository had before, most recent first.
    public func formerNames(ofRepository id: Int64) throws -> [String] {
        try database.query("SELECT full_name FROM repository_names WHERE repository_id = ? ORDER BY seen_at DESC, full_name",
                           [.integer(id)]) { row throws(StoreError) in try row.string("full_name") }
    }

    public func repository(id: Int64) throws -> RepositoryRecord? {
        try database.query("SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.id = ?", [.integer(id)]) {
            row throws(StoreError) in try Self.readRepository(row)
        }.first
    }

    /// Every tracked repository, by full name.
    public func repositories() throws -> [RepositoryRecord] {
        try database.query("SELECT \(Self.repositoryColumns) FROM repositories r ORDER BY \(Self.repositoryOrder)") {
            row throws(StoreError) in try Self.readRepository(row)
        }
    }

    /// Every tracked repository as a section's header shows it, in the order of `repositories()`.
    public func repositoryHeadings() throws -> [RepositoryHeading] {
        try database.query("""
            SELECT r.id, r.full_name, r.description, r.archived, r.gone FROM repositories r
            ORDER BY \(Self.repositoryOrder)
            """) { row throws(StoreError) in
            RepositoryHeading(id: try row.int64(0), fullName: try row.string(1), description: row.optionalString(2),
                              archived: try row.bool(3), gone: try row.bool(4))
        }
    }

    /// Every tracked repository (those of `repositoryIDs`, when given) with its open and done
    /// counts, by full name. The counts are those `todo_counts` keeps (m0018): one row per
    /// repository, whatever the number of todos.
    public func repositorySummaries(repositoryIDs: [Int64]? = nil) throws -> [RepositorySummary] {
        let restriction = repositoryIDs.map { "WHERE r.id IN (\($0.map { _ in "?" }.joined(separator: ", ")))" } ?? ""
        return try database.query("""
            SELECT \(Self.repositoryColumns), coalesce(c.open, 0) AS open_count, coalesce(c.done, 0) AS done_count,
                   s.repository_id IS NOT NULL AS shared, s.unreadable_since
            FROM repositories r LEFT JOIN todo_counts c ON c.repository_id = r.id LEFT JOIN shares s ON s.repository_id = r.id
            \(restriction) ORDER BY \(Self.repositoryOrder)
            """, (repositoryIDs ?? []).map(SQLValue.integer)) { row throws(StoreError) in
            RepositorySummary(repository: try Self.readRepository(row), open: Int(try row.int64("open_count")),
                              done: Int(try row.int64("done_count")), shared: try row.bool("shared"),
                              sharedUnreadableSince: try Self.optionalTimestamp(row, "unreadable_since"))
        }
    }

    /// The tracked repository a user means by `owner/name`, or by `name` alone. Names compare
    /// case-insensitively, as on GitHub. Current names come first, then names the repository had
    /// before; where a live repository and a gone one share a name, the live one is meant. Any
    /// other tie is an error listing the candidates (which `id:ID` tells apart).
    public func findRepository(owner: String?, name: String) throws -> RepositoryRecord {
        let asked = owner.map { "\($0)/\(name)" } ?? name
        let current: [RepositoryRecord]
        if let owner {
            current = try database.query("""
                SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.full_name = ? COLLATE NOCASE ORDER BY r.id
                """, [.text("\(owner)/\(name)")]) { row throws(StoreError) in try Self.readRepository(row) }
        } else {
            current = try database.query("""
                SELECT \(Self.repositoryColumns) FROM repositories r WHERE r.name = ? COLLATE NOCASE
                ORDER BY \(Self.repositoryOrder)
                """, [.text(name)]) { row throws(StoreError) in try Self.readRepository(row) }
        }
        if let found = try Self.single(current, asked: asked) { return found }

        let former: [RepositoryRecord]
        if let owner {
            former = try database.query("""
                SELECT \(Self.repositoryColumns) FROM repository_names n JOIN repositories r ON r.id = n.repository_id
                WHERE n.full_name = ? COLLATE NOCASE
                """, [.text("\(owner)/\(name)")]) { row throws(StoreError) in try Self.readRepository(row) }
        } else {
            // The part after the slash; `like` would treat '_' and '%' in names as wildcards.
            former = try database.query("""
                SELECT DISTINCT \(Self.repositoryColumns) FROM repository_names n JOIN repositories r ON r.id = n.repository_id
                WHERE substr(n.full_name, instr(n.full_name, '/') + 1) = ? COLLATE NOCASE
                ORDER BY \(Self.repositoryOrder)
                """, [.text(name)]) { row throws(StoreError) in try Self.readRepository(row) }
        }
        if let found = try Self.single(former, asked: asked) { return found }
        throw StoreError.unknownRepository(asked)
    }

    /// The one repository of `matches` a name means: the only one, or the only live one among
    /// copies of one name. Nil for none; an error for a real tie.
    private static func single(_ matches: [RepositoryRecord], asked: String) throws(StoreError) -> RepositoryRecord? {
        guard matches.count > 1 else { return matches.first }
        let live = matches.filter { !$0.gone }
        let oneName = Set(matches.map { $0.fullName.lowercased() }).count == 1
        if oneName, live.count == 1 { return live[0] }
        throw .ambiguousRepository(asked, candidates: matches.map { RepositoryMatch(id: $0.id, fullName: $0.fullName, gone: $0.gone) })
    }

    /// OWNER/NAME, with `(id:ID)` when another tracked repository has the same name.
    public func nameTellingApart(_ id: Int64, _ fullName: String) throws(StoreError) -> String {
        let shared = try database.scalarInt("SELECT count(*) FROM repositories WHERE full_name = ? COLLATE NOCASE AND id <> ?",
                                            .text(fullName), .integer(id)) ?? 0
        return shared > 0 ? "\(fullName) (id:\(id))" : fullName
    }

    /// Stops tracking the repositories. Without `force`, refuses (changing nothing) while any of
    /// them has todos, open or done; with it, their todos go too. Returns how many todos were removed.
    @discardableResult
    public func removeRepositories(ids: [Int64], force: Bool, at now: Timestamp) throws -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            var removedTodos = 0
            for id in ids {
                guard let fullName = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?",
                                                               .integer(id))
                else { throw StoreError.unknownRepository("id:\(id)") }
                let open = Int(try database.scalarInt(
                    "SELECT count(*) FROM todos WHERE repository_id = ? AND done = 0", .integer(id)) ?? 0)
                let done = Int(try database.scalarInt(
                    "SELECT count(*) FROM todos WHERE repository_id = ? AND done = 1", .integer(id)) ?? 0)
                if open + done > 0 && !force {
                    throw StoreError.repositoryHasTodos(fullName: try nameTellingApart(id, fullName), open: open, done: done)
                }
                removedTodos += try entomb(where: "repository_id = ?", [.integer(id)], at: now)
                try rememberUntracked(id, at: now)
                try database.run("DELETE FROM repository_names WHERE repository_id = ?", .integer(id))
                try database.run("DELETE FROM repositories WHERE id = ?", .integer(id))
            }
            return removedTodos
        }
    }
}

/// The position of each column of `Store.repositoryColumns` in a row (a test holds the two to
/// the same order).
enum RepositoryColumn: Int32, CaseIterable {
    case id, owner, name, fullName, description, url, isPrivate, archived, gone, pushedAt, remoteUpdatedAt, etag, addedAt,
         syncedAt, defaultBranch, pushIssues, importIssues, scanCommits
}
