import DoogitMerge
import DoogitSupport

/// What changed here since it was last sent to the remote. Triggers note every change of what
/// machines exchange, whatever made it (`m0008_remote_files.sql`); a note goes once the remote
/// holds the entry as it is here.
extension ReplicaStore {
    /// Each todo that changed, with every repository it was in since it was last sent.
    public func pendingTodos() throws(StoreError) -> [String: Set<Int64>] {
        var pending: [String: Set<Int64>] = [:]
        _ = try database.query("SELECT uuid, repository_id FROM remote_pending_todos") { row throws(StoreError) in
            pending[try row.string("uuid"), default: []].insert(try row.int64("repository_id"))
        }
        return pending
    }

    public func pendingRepositories() throws(StoreError) -> Set<Int64> {
        Set(try database.query("SELECT id FROM remote_pending_repositories") { row throws(StoreError) in try row.int64("id") })
    }

    /// Whether anything waits to be sent.
    public func hasPending() throws -> Bool {
        try database.scalarInt("""
            SELECT EXISTS (SELECT 1 FROM remote_pending_todos) OR EXISTS (SELECT 1 FROM remote_pending_repositories)
            """) == 1
    }

    /// The repositories holding removals made before `time`: kept here only until then.
    public func repositoriesWithRemovals(before time: Timestamp) throws -> Set<Int64> {
        let stamp = HybridTimestamp(wall: time.millisecondsSinceEpoch, counter: 0, machine: HybridTimestamp.githubMachine).text
        return Set(try database.query("""
            SELECT DISTINCT repository_id FROM todo_tombstones WHERE text IS NOT NULL AND removed_clock < ?
            """, [.text(stamp)]) { row throws(StoreError) in try row.int64("repository_id") })
    }

    /// Notes everything here as waiting to be sent (to a remote that has not had it).
    func noteEverything() throws(StoreError) {
        try database.run("INSERT OR IGNORE INTO remote_pending_todos SELECT uuid, repository_id FROM todos")
        try database.run("INSERT OR IGNORE INTO remote_pending_todos SELECT uuid, repository_id FROM todo_tombstones WHERE text IS NOT NULL")
        try database.run("""
            INSERT OR IGNORE INTO remote_pending_repositories SELECT id FROM repositories UNION SELECT id FROM untracked_repositories
            """)
    }

    /// Notes a todo as changed here by what an exchange merged (`withoutNotes` keeps the triggers quiet).
    func note(todo uuid: String, repository: Int64) throws(StoreError) {
        try database.run("INSERT OR IGNORE INTO remote_pending_todos VALUES (?, ?)", .text(uuid), .integer(repository))
    }

    /// Notes what an exchange is about to send (it differs from the remote's), so that it goes
    /// next time if this exchange's write does not reach GitHub.
    public func awaitSending(todos uuids: Set<String>, in merged: Replica, repositories: Set<Int64>) throws {
        try database.transaction { () throws(StoreError) in
            for uuid in uuids.sorted() {
                guard let entry = merged.todos[uuid] else { continue }
                try note(todo: uuid, repository: entry.repository.value)
            }
            for id in repositories.sorted() { try database.run("INSERT OR IGNORE INTO remote_pending_repositories VALUES (?)", .integer(id)) }
        }
    }

    /// Runs `body` with this connection's triggers off, noting nothing: what an exchange writes
    /// of its merge came from the remote, or is noted by the exchange itself. (Triggers also make
    /// each statement keep a journal of its own: a first pull of 10,000 todos runs twice as fast
    /// without them.)
    func withoutNotes<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.enableTriggers(false)
        let result: T
        do { result = try body() } catch {
            _ = try? database.enableTriggers(true)
            throw error
        }
        try database.enableTriggers(true)
        return result
    }

    /// Takes back the notes of what the remote now holds as it is here: each todo given is as the
    /// remote holds it (nil: the remote holds none, and none is here either).
    public func sent(todos: [String: TodoEntry?], repositories: [Int64: RepositoryEntry?]) throws {
        try database.transaction { () throws(StoreError) in
            let machine = try clock().machine
            let pending = try pendingTodos()
            let sentHere = todos.keys.filter { pending[$0] != nil }
            // Many at once (a first push sends every todo): read by repository, not one by one.
            var read: Replica?
            if sentHere.count > 64 {
                var replica = Replica(), annotations = ReplicaAnnotations()
                // The repositories first: a removed todo is read only where its repository is known.
                try readRepositories(into: &replica, annotations: &annotations, machine: machine)
                try readTodos(repositories: Set(sentHere.flatMap { pending[$0] ?? [] }), uuids: Set(sentHere), machine: machine,
                              into: &replica, annotations: &annotations)
                read = replica
            }
            for uuid in sentHere {
                let remote = todos[uuid] ?? nil
                let here: TodoEntry?
                if let read { here = read.todos[uuid] } else { here = try stored(uuid, machine: machine)?.entry }
                let same = switch (here, remote) {
                case (nil, nil): true
                case (let here?, let remote?): ReplicaChanges.sameRegisters(here, remote)
                default: false
                }
                if same { try database.run("DELETE FROM remote_pending_todos WHERE uuid = ?", .text(uuid)) }
            }
            var local = Replica(), annotations = ReplicaAnnotations()
            try readRepositories(into: &local, annotations: &annotations, machine: machine)
            for (id, remote) in repositories where local.repositories[id] == remote.flatMap({ $0 }) {
                try database.run("DELETE FROM remote_pending_repositories WHERE id = ?", .integer(id))
            }
        }
    }
}
