import DoogitMerge
import DoogitSupport
import Testing

/// Machines and a remote in memory, exchanging as `sync` does with the files on GitHub: each
/// machine reads the files that changed since it last read, gives the planner the todos files of
/// the repositories concerned, writes here what it merged and there what the plan says, and
/// remembers what it sent. Exchanges are whole (a lost race is the sync tests' business).
struct RemoteWorld {
    struct Machine {
        let id: String
        var replica = Replica()
        /// UUID -> the repositories it was in when changed since it was last sent.
        var pending: [String: Set<Int64>] = [:]
        var pendingRepositories: Set<Int64> = []
        /// The files as this machine last read or wrote them.
        var cache: [String: [UInt8]] = [:]
        var exchangedBefore = false
        var clock: HybridClock

        init(id: String) {
            self.id = id
            clock = HybridClock(machine: id)
        }

        mutating func stamp(_ now: Int64) -> HybridTimestamp { clock.tick(now: Timestamp(millisecondsSinceEpoch: now)) }

        mutating func changed(_ uuid: String, from repository: Int64? = nil) {
            guard let entry = replica.todos[uuid] else { return }
            pending[uuid, default: []].insert(entry.repository.value)
            if let repository { pending[uuid, default: []].insert(repository) }
        }
    }

    var machines: [Machine]
    var remote: [String: [UInt8]] = [:] {
        didSet { for (path, bytes) in remote where oldValue[path] != bytes { pieces[path] = Self.piece(bytes) } }
    }
    /// The remote's files as read, kept with it.
    private(set) var pieces: [String: RemotePiece] = [:]
    var now: Int64 = 1_800_000_000_000
    var writes = 0
    /// The edits each machine's last exchange dropped (their todos' removal had left the remote).
    var dropped: [Int: Set<String>] = [:]
    /// The plan of the last exchange.
    private(set) var lastPlan: RemoteExchange.Plan?

    init(_ count: Int) {
        machines = (0..<count).map { Machine(id: String(repeating: "\($0 + 1)", count: 12)) }
    }

    static func piece(_ bytes: [UInt8]?) -> RemotePiece {
        bytes.flatMap { try? RemotePiece.decode($0).piece } ?? RemotePiece()
    }

    /// One exchange of machine `index`; whether it wrote.
    @discardableResult
    mutating func exchange(_ index: Int, forget: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var machine = machines[index]
        let meta = remote[RemoteLayout.metaPath].flatMap { try? RemoteMeta.decode($0) } ?? RemoteMeta()
        let changedPaths = Set(remote.keys).union(machine.cache.keys).filter { remote[$0] != machine.cache[$0] }
        var concerned = Set(changedPaths.compactMap(RemoteLayout.repository(ofTodosPath:)))
        for repositories in machine.pending.values { concerned.formUnion(repositories) }
        for path in remote.keys {
            if let id = RemoteLayout.repository(ofTodosPath: path), pieces[path]?.removals != nil { concerned.insert(id) }
        }
        // Removals kept here past the horizon are pruned.
        for entry in machine.replica.todos.values
        where entry.isRemoved && meta.isPastHorizon(entry.removed.stamp, at: Timestamp(millisecondsSinceEpoch: now)) {
            concerned.insert(entry.repository.value)
        }
        let existing = Set(remote.keys.compactMap(RemoteLayout.repository(ofTodosPath:)))
        // What the files read anew held when this machine last read them.
        var heldTodos: Set<String> = [], heldRepositories: Set<Int64> = []
        for path in changedPaths where RemoteLayout.isPiece(path) {
            let before = Self.piece(machine.cache[path]).replica
            heldTodos.formUnion(before.todos.keys)
            heldRepositories.formUnion(before.repositories.keys)
        }
        let ownGeneration = meta.machines[machine.id]?.generation
        let waitsForMe = remote.keys.contains { path in
            pieces[path]?.todoSince.values.contains { $0 > (ownGeneration ?? -1) } == true
        }
        var plan: RemoteExchange.Plan
        repeat {
            var files: [Int64: RemotePiece] = [:]
            for id in concerned { files[id] = pieces[RemoteLayout.todosPath(id)] ?? RemotePiece() }
            var local = Replica(repositories: machine.replica.repositories)
            let named = Set(files.values.flatMap(\.replica.todos.keys))
            for (uuid, entry) in machine.replica.todos
            where concerned.contains(entry.repository.value) || machine.pending[uuid] != nil || named.contains(uuid) {
                local.todos[uuid] = entry
            }
            let stamp = machine.stamp(now)
            plan = RemoteExchange.plan(RemoteExchange.Input(
                machine: machine.id, machineName: "machine \(index)", now: Timestamp(millisecondsSinceEpoch: now), stamp: stamp,
                meta: meta, repositories: pieces[RemoteLayout.repositoriesPath] ?? RemotePiece(), todoFiles: files,
                existingTodoFiles: existing, local: local, pendingTodos: Set(machine.pending.keys),
                pendingRepositories: machine.pendingRepositories, formerlyHeldTodos: heldTodos,
                formerlyHeldRepositories: heldRepositories, exchangedBefore: machine.exchangedBefore,
                reportMerge: ownGeneration != nil && waitsForMe, forget: forget))
            concerned.formUnion(plan.needed)
        } while !plan.needed.isEmpty
        lastPlan = plan
        // Here: the subset replaced by the plan's.
        for uuid in plan.purgedTodos { machine.replica.todos[uuid] = nil }
        for (uuid, entry) in plan.local.todos { machine.replica.todos[uuid] = entry }
        machine.replica.repositories = plan.local.repositories
        _ = machine.clock.observe(machine.replica.latestStamp, reference: Timestamp(millisecondsSinceEpoch: now))
        // There, and what this machine knows of it.
        for (path, bytes) in plan.files {
            remote[path] = bytes ?? nil
            if bytes == nil { pieces[path] = nil }
        }
        if !plan.files.isEmpty {
            writes += 1
            if remote[RemoteLayout.stubPath] == nil { remote[RemoteLayout.stubPath] = RemoteLayout.stub }
        }
        machine.cache = remote
        dropped[index] = plan.dropped
        machine.pending = [:]
        machine.pendingRepositories = []
        machine.exchangedBefore = true
        machines[index] = machine
        return !plan.files.isEmpty
    }

    /// Every machine exchanges, round after round, until a round writes nothing.
    mutating func settle(_ indices: [Int]? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<10 {
            var wrote = false
            for index in indices ?? Array(machines.indices) where exchange(index) { wrote = true }
            if !wrote { return }
        }
        Issue.record("the machines did not settle in 10 rounds", sourceLocation: sourceLocation)
    }

    /// The todos a machine shows: UUID -> repository, text, done.
    func live(_ index: Int) -> [String: String] {
        var shown: [String: String] = [:]
        for (uuid, entry) in machines[index].replica.todos where !entry.isRemoved {
            shown[uuid] = "\(entry.repository.value) \(entry.text.value) \(entry.done.value.done)"
        }
        return shown
    }

    /// The todos the remote holds, removed ones too.
    var remoteTodos: [String: TodoEntry] {
        var todos: [String: TodoEntry] = [:]
        for (path, piece) in pieces where RemoteLayout.repository(ofTodosPath: path) != nil {
            for (uuid, entry) in piece.replica.todos { todos[uuid] = entry }
        }
        return todos
    }

    var remoteBytes: Int { remote.values.map(\.count).reduce(0, +) }

    // MARK: What users do

    mutating func add(_ index: Int, _ uuid: String, repository: Int64, text: String) {
        let stamp = machines[index].stamp(now)
        if machines[index].replica.repositories[repository] == nil {
            machines[index].replica.repositories[repository] = RepositoryEntry(
                id: repository, name: Register(RepositoryName(fullName: "octocat/r\(repository)", url: "https://github.com/octocat/r\(repository)"), at: stamp),
                tracked: Register(true, at: stamp))
            machines[index].pendingRepositories.insert(repository)
        }
        machines[index].replica.todos[uuid] = TodoEntry(uuid: uuid, repository: repository, text: text,
                                                        createdAt: Timestamp(millisecondsSinceEpoch: now), stamp: stamp)
        machines[index].changed(uuid)
    }

    mutating func edit(_ index: Int, _ uuid: String, _ change: (inout TodoEntry, HybridTimestamp) -> Void) {
        guard var entry = machines[index].replica.todos[uuid] else { return }
        let before = entry.repository.value
        change(&entry, machines[index].stamp(now))
        machines[index].replica.todos[uuid] = entry
        machines[index].changed(uuid, from: before)
    }

    mutating func remove(_ index: Int, _ uuid: String) { edit(index, uuid) { $0.removed.set(true, at: $1) } }
    mutating func restore(_ index: Int, _ uuid: String) { edit(index, uuid) { $0.removed.set(false, at: $1) } }
    mutating func retext(_ index: Int, _ uuid: String, _ text: String) { edit(index, uuid) { $0.text.set(text, at: $1) } }
    mutating func finish(_ index: Int, _ uuid: String) {
        let now = Timestamp(millisecondsSinceEpoch: self.now)
        edit(index, uuid) { $0.done.set(DoneState(doneAt: now), at: $1) }
    }

    /// `repo remove --force`: its todos removed, and the repository no longer tracked.
    mutating func untrack(_ index: Int, _ repository: Int64) {
        for (uuid, entry) in machines[index].replica.todos where entry.repository.value == repository && !entry.isRemoved {
            remove(index, uuid)
        }
        guard var entry = machines[index].replica.repositories[repository] else { return }
        entry.tracked.set(false, at: machines[index].stamp(now))
        machines[index].replica.repositories[repository] = entry
        machines[index].pendingRepositories.insert(repository)
    }

    mutating func move(_ index: Int, _ uuid: String, to repository: Int64) {
        if machines[index].replica.repositories[repository] == nil { return }
        edit(index, uuid) { $0.repository.set(repository, at: $1) }
    }

    mutating func advance(days: Int64) { now += days * RemoteMeta.dayMilliseconds }
}
