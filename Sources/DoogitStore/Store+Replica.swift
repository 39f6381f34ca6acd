import DoogitMerge
import DoogitSupport

/// This machine's list as a replica to merge with other copies, with what an export adds.
public struct LocalReplica: Equatable, Sendable {
    public var replica: Replica
    /// Local IDs, and what this machine knows of each repository from GitHub.
    public var annotations: TodoFile.Annotations
    /// `Store.localChangeCount()` when the list was read.
    public var changeCount: Int64
}

extension TodoStamps {
    public init(_ entry: TodoEntry) {
        self.init(repository: entry.repository.stamp, text: entry.text.stamp, done: entry.done.stamp, removed: entry.removed.stamp,
                  issue: entry.issue.stamp)
    }
}

extension Store {
    /// A stamp column; a missing one (a row no stamping method wrote) counts as made here when
    /// the row last changed.
    static func stamp(_ row: Row, _ column: String, fallback: Timestamp, machine: String) throws(StoreError) -> HybridTimestamp {
        if let text = try row.optionalString(column) {
            guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
            return stamp
        }
        return HybridTimestamp(wall: fallback.millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    /// Everything this machine holds, read in one transaction: tracked repositories and those it
    /// stopped tracking, todos and removed todos, each field with its stamp.
    public func localReplica() throws -> LocalReplica {
        try database.transaction { () throws(StoreError) -> LocalReplica in
            let machine = try clock().machine
            var replica = Replica()
            var annotations = TodoFile.Annotations()
            _ = try database.query("""
                SELECT id, full_name, html_url, description, private, archived, gone, synced_at, added_at, name_clock, tracked_clock,
                       push_issues, import_issues, scan_commits, settings_clock
                FROM repositories
                """) { row throws(StoreError) in
                let id = try row.int64("id")
                replica.repositories[id] = RepositoryEntry(
                    id: id,
                    name: Register(RepositoryName(fullName: try row.string("full_name"), url: try row.string("html_url")),
                                   at: try Self.stamp(row, "name_clock", fallback: try Self.timestamp(row, "synced_at"), machine: machine)),
                    tracked: Register(true, at: try Self.stamp(row, "tracked_clock", fallback: try Self.timestamp(row, "added_at"),
                                                               machine: machine)),
                    settings: try Self.settingsRegister(row))
                annotations.repositories[id] = TodoFile.RepositoryDetails(
                    description: try row.optionalString("description"), isPrivate: try row.bool("private"),
                    archived: try row.bool("archived"), gone: try row.bool("gone"))
            }
            _ = try database.query("""
                SELECT id, full_name, html_url, name_clock, tracked_clock, push_issues, import_issues, scan_commits, settings_clock
                FROM untracked_repositories
                """) {
                row throws(StoreError) in
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
            _ = try database.query("""
                SELECT id, uuid, repository_id, text, done_at, created_at, updated_at, repository_clock, text_clock, done_clock,
                       removed_clock, issue_number, issue_url, issue_state, issue_clock FROM todos
                """) { row throws(StoreError) in
                let uuid = try row.string("uuid")
                replica.todos[uuid] = try Self.readEntry(row, removed: false, machine: machine)
                annotations.localIDs[uuid] = try row.int64("id")
            }
            _ = try database.query("""
                SELECT todo_id AS id, uuid, repository_id, text, done_at, coalesce(created_at, removed_at) AS created_at,
                       coalesce(updated_at, removed_at) AS updated_at, repository_clock, text_clock, done_clock, removed_clock,
                       issue_number, issue_url, issue_state, issue_clock
                FROM todo_tombstones WHERE text IS NOT NULL
                """) { row throws(StoreError) in
                let uuid = try row.string("uuid")
                // Removed with a repository no machine knows any more (before stamps existed): nothing to exchange.
                guard replica.todos[uuid] == nil, replica.repositories[try row.int64("repository_id")] != nil else { return }
                replica.todos[uuid] = try Self.readEntry(row, removed: true, machine: machine)
                if !(try row.isNull("id")) { annotations.localIDs[uuid] = try row.int64("id") }
            }
            return LocalReplica(replica: replica, annotations: annotations, changeCount: try database.scalarInt("SELECT changes FROM replica WHERE id = 1") ?? 0)
        }
    }

    private static func readEntry(_ row: Row, removed: Bool, machine: String) throws(StoreError) -> TodoEntry {
        let updated = try timestamp(row, "updated_at")
        let removal: Register<Bool>
        if try row.isNull("removed_clock") {
            removal = Register(removed, at: removed ? HybridTimestamp(wall: updated.millisecondsSinceEpoch, counter: 0, machine: machine) : .zero)
        } else {
            removal = Register(removed, at: try stamp(row, "removed_clock", fallback: updated, machine: machine))
        }
        let (issue, issueStamp) = try linkedIssue(row, machine: machine)
        return TodoEntry(
            uuid: try row.string("uuid"), createdAt: try timestamp(row, "created_at"),
            repository: Register(try row.int64("repository_id"), at: try stamp(row, "repository_clock", fallback: updated, machine: machine)),
            text: Register(try row.string("text"), at: try stamp(row, "text_clock", fallback: updated, machine: machine)),
            done: Register(DoneState(doneAt: try optionalTimestamp(row, "done_at")),
                           at: try stamp(row, "done_clock", fallback: updated, machine: machine)),
            removed: removal, issue: Register(issue, at: issueStamp))
    }

    /// The link of a todo row (live or removed) with `issue_number`, `issue_url`, `issue_state`,
    /// `issue_clock` and `updated_at`, and its stamp: the zero stamp for a todo never linked.
    static func linkedIssue(_ row: Row, machine: String) throws(StoreError) -> (LinkedIssue?, HybridTimestamp) {
        var issue: LinkedIssue?
        if !(try row.isNull("issue_number")), let url = try row.optionalString("issue_url"),
           let state = try row.optionalString("issue_state"), LinkedIssue.states.contains(state) {
            issue = LinkedIssue(number: try row.int64("issue_number"), repository: try row.int64("repository_id"), state: state, url: url)
        }
        if try row.isNull("issue_clock") {
            // Linked by no stamping method (never happens since stamps exist): as made here when it last changed.
            guard issue != nil else { return (nil, .zero) }
        }
        return (issue, try stamp(row, "issue_clock", fallback: try timestamp(row, "updated_at"), machine: machine))
    }

    /// The changes that turn this machine's list `local` into `merged` (a merge of it with
    /// another copy): only what differs, each with the stamps `local` held, so that a change
    /// made here meanwhile is kept. Todos come in the order they arrived in their repositories.
    public static func changes(from local: Replica, to merged: Replica, annotations: TodoFile.Annotations = .init()) -> StoreChanges {
        var changes = StoreChanges()
        let localLive = local.liveRepositoryIDs, mergedLive = merged.liveRepositoryIDs
        for (id, entry) in merged.repositories.sorted(by: { $0.key < $1.key }) {
            let held = local.repositories[id]
            let shown = entry.tracked.value || mergedLive.contains(id)
            let shownHere = held.map { $0.tracked.value || localLive.contains(id) } ?? false
            if let held, held.name == entry.name, held.tracked == entry.tracked, held.settings == entry.settings,
               shown == shownHere { continue }
            changes.repositoryStates.append(RepositoryState(
                id: id, fullName: entry.name.value.fullName, url: entry.name.value.url, nameStamp: entry.name.stamp,
                tracked: entry.tracked.value, trackedStamp: entry.tracked.stamp, settings: entry.settings.value,
                settingsStamp: entry.settings.stamp, shown: shown, expectedNameStamp: held?.name.stamp,
                expectedTrackedStamp: held?.tracked.stamp, expectedSettingsStamp: held?.settings.stamp,
                details: annotations.repositories[id]))
        }
        var todos: [(arrival: HybridTimestamp, state: TodoState)] = []
        for (uuid, entry) in merged.todos {
            let held = local.todos[uuid]
            if let held, held.repository == entry.repository, held.text == entry.text, held.done == entry.done,
               held.removed == entry.removed, held.issue == entry.issue { continue }
            let state = TodoState(
                uuid: uuid, repositoryID: entry.repository.value, text: entry.text.value, done: entry.done.value.done,
                createdAt: entry.createdAt, updatedAt: entry.latestStamp.timestamp, doneAt: entry.done.value.doneAt,
                preferredID: annotations.localIDs[uuid], removed: entry.isRemoved, issue: entry.issue.value, stamps: TodoStamps(entry),
                expected: held.map(TodoStamps.init))
            todos.append((entry.arrival, state))
        }
        changes.todos = todos.sorted { $0.arrival != $1.arrival ? $0.arrival < $1.arrival : $0.state.uuid < $1.state.uuid }.map(\.state)
        return changes
    }
}
