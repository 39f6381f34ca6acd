import DoogitMerge
import DoogitSupport

/// A todo to write into this machine's list: its entry as a merge (or an observation) has it,
/// and the entry this machine held when that merge read its list (nil: it did not have the
/// todo), so that a field changed here since then keeps its newer local value.
public struct TodoChange: Equatable, Sendable {
    public var entry: TodoEntry
    public var held: TodoEntry?
    /// The local ID to give a todo new to this machine, when it is free (an import of this
    /// machine's own export keeps its IDs); otherwise the next one.
    public var preferredID: Int64?

    public init(entry: TodoEntry, held: TodoEntry?, preferredID: Int64? = nil) {
        self.entry = entry
        self.held = held
        self.preferredID = preferredID
    }
}

/// A repository to write into this machine's list, as `TodoChange` is for a todo.
public struct RepositoryChange: Equatable, Sendable {
    public var entry: RepositoryEntry
    public var held: RepositoryEntry?
    /// Whether the list shows it: tracked, or still holding a todo that is not removed.
    public var shown: Bool
    /// What is known of it from GitHub, for a repository new here (an import of an export);
    /// sync refreshes it from GitHub anyway.
    public var details: RepositoryDetails?

    public init(entry: RepositoryEntry, held: RepositoryEntry?, shown: Bool, details: RepositoryDetails? = nil) {
        self.entry = entry
        self.held = held
        self.shown = shown
        self.details = details
    }
}

/// What turns this machine's list into a merge of it with another copy.
public struct ReplicaChanges: Equatable, Sendable {
    public var repositories: [RepositoryChange]
    /// In the order they arrived in their repositories.
    public var todos: [TodoChange]
    /// What leaves this machine for good (it left the remote after a removal every machine merged).
    public var purgedTodos: Set<String> = []
    public var purgedRepositories: Set<Int64> = []

    public init(repositories: [RepositoryChange] = [], todos: [TodoChange] = []) {
        self.repositories = repositories
        self.todos = todos
    }

    public var isEmpty: Bool { repositories.isEmpty && todos.isEmpty && purgedTodos.isEmpty && purgedRepositories.isEmpty }
    public var count: Int { repositories.count + todos.count + purgedTodos.count + purgedRepositories.count }

    /// The changes that turn this machine's list `local` into `merged` (a merge of it with
    /// another copy): only what differs, with what `local` held, so that a change made here
    /// meanwhile is kept. Todos come in the order they arrived in their repositories (todos that
    /// arrived at one stamp, as a clock clamped to GitHub's time gives them, in the order they
    /// were made).
    public init(from local: Replica, to merged: Replica, annotations: ReplicaAnnotations = ReplicaAnnotations()) {
        self.init()
        let localLive = local.liveRepositoryIDs, mergedLive = merged.liveRepositoryIDs
        for (id, entry) in merged.repositories.sorted(by: { $0.key < $1.key }) {
            let held = local.repositories[id]
            let shown = entry.tracked.value || mergedLive.contains(id)
            let shownHere = held.map { $0.tracked.value || localLive.contains(id) } ?? false
            if let held, held.name == entry.name, held.tracked == entry.tracked, held.settings == entry.settings,
               shown == shownHere { continue }
            repositories.append(RepositoryChange(entry: entry, held: held, shown: shown, details: annotations.repositories[id]))
        }
        var arriving: [TodoChange] = []
        arriving.reserveCapacity(merged.todos.count)
        for (uuid, entry) in merged.todos {
            let held = local.todos[uuid]
            if let held, Self.sameRegisters(held, entry) { continue }
            arriving.append(TodoChange(entry: entry, held: held, preferredID: annotations.localIDs[uuid]))
        }
        // Sorted by keys made once, the changes (large) moved once (a first pull sorts thousands).
        let order = arriving.indices.map { (arrival: arriving[$0].entry.arrival, created: arriving[$0].entry.createdAt.millisecondsSinceEpoch,
                                            uuid: arriving[$0].entry.uuid, index: $0) }
            .sorted { lhs, rhs in
                if lhs.arrival != rhs.arrival { return lhs.arrival < rhs.arrival }
                return (lhs.created, lhs.uuid) < (rhs.created, rhs.uuid)
            }
        todos = order.map { arriving[$0.index] }
    }

    /// How many of these changes bring what `reference` (this machine's list, its stamps brought
    /// back to GitHub's time where its clock ran ahead) does not hold: a change that only brings
    /// this machine's own stamps back counts nothing, since nothing was received.
    public func count(beyond reference: Replica) -> Int {
        let todoCount = todos.count { change in
            reference.todos[change.entry.uuid].map { !Self.sameRegisters($0, change.entry) } ?? true
        }
        let repositoryCount = repositories.count { change in
            guard let held = reference.repositories[change.entry.id] else { return true }
            return held.name != change.entry.name || held.tracked != change.entry.tracked || held.settings != change.entry.settings
        }
        return todoCount + repositoryCount + purgedTodos.count + purgedRepositories.count
    }

    /// Whether two copies of a todo agree on everything this machine stores (unknown fields are
    /// the file's alone).
    public static func sameRegisters(_ lhs: TodoEntry, _ rhs: TodoEntry) -> Bool {
        lhs.createdAt == rhs.createdAt && lhs.repository == rhs.repository && lhs.text == rhs.text && lhs.done == rhs.done && lhs.removed == rhs.removed
            && lhs.issue == rhs.issue && lhs.seen == rhs.seen && lhs.commits == rhs.commits && lhs.details == rhs.details
    }
}

/// What applying a batch did.
public struct AppliedChanges: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var removed = 0
    public var purged = 0

    public init() {}
}
