import DoogitMerge
import DoogitSupport

/// This machine's list as a replica to merge with other copies, with what an export adds.
public struct LocalReplica: Equatable, Sendable {
    public var replica: Replica
    /// Local IDs, and what this machine knows of each repository from GitHub.
    public var annotations: ReplicaAnnotations
}

extension ReplicaStore {
    /// Everything this machine holds, read in one transaction: tracked repositories and those it
    /// stopped tracking, todos and removed todos, each field with its stamp.
    public func read() throws -> LocalReplica {
        try database.reading { () throws(StoreError) -> LocalReplica in
            let machine = try clock().machine
            var replica = Replica()
            var annotations = ReplicaAnnotations()
            try readRepositories(into: &replica, annotations: &annotations, machine: machine)
            let commits = try allCommits()
            _ = try database.query("SELECT \(TodoRows.liveColumns) FROM todos") { row throws(StoreError) in
                let uuid = try row.string("uuid")
                replica.todos[uuid] = try TodoRows.entry(row, removed: false, machine: machine, commits: commits[uuid] ?? [])
                annotations.localIDs[uuid] = try row.int64("id")
            }
            _ = try database.query("""
                SELECT \(TodoRows.removedColumns) FROM todo_tombstones WHERE text IS NOT NULL
                """) { row throws(StoreError) in
                try addRemoved(row, to: &replica, annotations: &annotations, machine: machine, commits: commits)
            }
            return LocalReplica(replica: replica, annotations: annotations)
        }
    }

    /// Part of the list, read in one transaction: every repository, and the todos (live or
    /// removed) of `repositories` or of `uuids`.
    public func read(repositories ids: Set<Int64>, uuids: Set<String>) throws -> Replica {
        try database.reading { () throws(StoreError) -> Replica in
            let machine = try clock().machine
            var replica = Replica()
            var annotations = ReplicaAnnotations()
            try readRepositories(into: &replica, annotations: &annotations, machine: machine)
            try readTodos(repositories: ids, uuids: uuids, machine: machine, into: &replica, annotations: &annotations)
            return replica
        }
    }

    /// The todos (live or removed) of `repositories` or of `uuids`, into `replica`.
    func readTodos(repositories ids: Set<Int64>, uuids: Set<String>, machine: String, into replica: inout Replica,
                   annotations: inout ReplicaAnnotations) throws(StoreError) {
        let commits = try allCommits()
        func live(_ row: Row) throws(StoreError) {
            let uuid = try row.string("uuid")
            replica.todos[uuid] = try TodoRows.entry(row, removed: false, machine: machine, commits: commits[uuid] ?? [])
        }
        func removed(_ row: Row) throws(StoreError) {
            try addRemoved(row, to: &replica, annotations: &annotations, machine: machine, commits: commits)
        }
        for id in ids.sorted() {
            _ = try database.query("SELECT \(TodoRows.liveColumns) FROM todos WHERE repository_id = ?", [.integer(id)], live)
            _ = try database.query("""
                SELECT \(TodoRows.removedColumns) FROM todo_tombstones WHERE repository_id = ? AND text IS NOT NULL
                """, [.integer(id)], removed)
        }
        // Many UUIDs (a first pull names every todo): only those here are looked for.
        let wanted = uuids.count > 64 ? uuids.intersection(try allUUIDs()) : uuids
        for uuid in wanted.sorted() where replica.todos[uuid] == nil {
            _ = try database.query("SELECT \(TodoRows.liveColumns) FROM todos WHERE uuid = ?", [.text(uuid)], live)
            _ = try database.query("""
                SELECT \(TodoRows.removedColumns) FROM todo_tombstones WHERE uuid = ? AND text IS NOT NULL
                """, [.text(uuid)], removed)
        }
    }

    func readRepositories(into replica: inout Replica, annotations: inout ReplicaAnnotations,
                                  machine: String) throws(StoreError) {
        _ = try database.query("""
            SELECT id, full_name, html_url, description, private, archived, gone, synced_at, added_at, name_clock, tracked_clock,
                   push_issues, import_issues, scan_commits, settings_clock
            FROM repositories
            """) { row throws(StoreError) in
            let id = try row.int64("id")
            replica.repositories[id] = try Self.trackedRepository(row, id: id, machine: machine)
            annotations.repositories[id] = RepositoryDetails(
                description: try row.optionalString("description"), isPrivate: try row.bool("private"),
                archived: try row.bool("archived"), gone: try row.bool("gone"))
        }
        _ = try database.query("""
            SELECT id, full_name, html_url, name_clock, tracked_clock, push_issues, import_issues, scan_commits, settings_clock
            FROM untracked_repositories
            """) { row throws(StoreError) in
            let id = try row.int64("id")
            guard let tracked = HybridTimestamp(text: try row.string("tracked_clock")),
                  let named = HybridTimestamp(text: try row.string("name_clock")) else { throw .corrupt }
            if var entry = replica.repositories[id] {
                // Still listed for a todo left in it: the name as tracked, tracking as stopped.
                entry.tracked = Register(false, at: tracked)
                replica.repositories[id] = entry
            } else {
                replica.repositories[id] = RepositoryEntry(
                    id: id, name: Register(RepositoryName(fullName: try row.string("full_name"), url: try row.string("html_url")),
                                           at: named),
                    tracked: Register(false, at: tracked), settings: try Self.settingsRegister(row))
            }
        }
    }

    private func allCommits() throws(StoreError) -> [String: Set<String>] {
        var commits: [String: Set<String>] = [:]
        _ = try database.query("SELECT todo_uuid, sha FROM todo_commits") { row throws(StoreError) in
            commits[try row.string("todo_uuid"), default: []].insert(try row.string("sha"))
        }
        return commits
    }

    /// A removed todo's row, unless a live one has its UUID or no machine knows its repository
    /// any more (removed before stamps existed: nothing to exchange).
    private func addRemoved(_ row: Row, to replica: inout Replica, annotations: inout ReplicaAnnotations, machine: String,
                            commits: [String: Set<String>]) throws(StoreError) {
        let uuid = try row.string("uuid")
        guard replica.todos[uuid] == nil, replica.repositories[try row.int64("repository_id")] != nil else { return }
        replica.todos[uuid] = try TodoRows.entry(row, removed: true, machine: machine, commits: commits[uuid] ?? [])
        if !(try row.isNull("id")) { annotations.localIDs[uuid] = try row.int64("id") }
    }

    /// A row of `repositories` (with `full_name`, `html_url`, `synced_at`, `added_at`, the
    /// settings and their stamps) as a tracked repository's entry.
    static func trackedRepository(_ row: Row, id: Int64, machine: String) throws(StoreError) -> RepositoryEntry {
        RepositoryEntry(
            id: id,
            name: Register(RepositoryName(fullName: try row.string("full_name"), url: try row.string("html_url")),
                           at: try TodoRows.stamp(row, "name_clock", fallback: try Store.timestamp(row, "synced_at"), machine: machine)),
            tracked: Register(true, at: try TodoRows.stamp(row, "tracked_clock", fallback: try Store.timestamp(row, "added_at"),
                                                           machine: machine)),
            settings: try settingsRegister(row))
    }

    /// The settings of a row with `push_issues`, `import_issues`, `scan_commits` and
    /// `settings_clock`, at the zero stamp when no machine set them.
    static func settingsRegister(_ row: Row) throws(StoreError) -> Register<SharedSettings> {
        let settings = SharedSettings(pushIssues: try row.bool("push_issues"), importIssues: try row.string("import_issues"),
                                      scanCommits: try row.bool("scan_commits"))
        guard let text = try row.optionalString("settings_clock") else { return Register(settings, at: .zero) }
        guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
        return Register(settings, at: stamp)
    }
}
