import DoogitSupport

/// One machine's exchange with the remote (`RemoteLayout`), as a pure function of what the
/// machine holds and what it read there: what to write here, which files to write there, and
/// what leaves the remote for good.
///
/// - Every entry either side has is merged (`merge`); what differs from the remote goes out, in
///   the files of the repositories it concerns (a moved todo leaves one file for another).
/// - A removal (or an untracked repository) enters the remote with its generation (`since`). It
///   leaves once every machine that exchanged within the horizon has merged that generation, or
///   once it is older than the horizon; the remote's `compacted` point then grows past it.
/// - What this machine sent before, the remote no longer holds, and that is stamped up to the
///   compacted point left the remote after a removal: it is removed here too (restorable here),
///   never brought back. What it made since it last exchanged is sent; an edit it made since of
///   a todo (or a repository) whose removal left the remote meanwhile is dropped: the removal
///   wins, as it would have had this machine merged it before it left. A removal stays here,
///   restorable, until it is older than the horizon; then it goes.
public enum RemoteExchange {
    public struct Input: Sendable {
        public var machine: String
        public var machineName: String
        /// GitHub's time, and a stamp of this machine's for changes of the remote's settings.
        public var now: Timestamp
        public var stamp: HybridTimestamp
        /// The remote as this machine knows it once it has read: `remote.jsonl`, `repositories.jsonl`,
        /// and the todos files of the repositories concerned (an empty piece where there is no file).
        public var meta: RemoteMeta
        public var repositories: RemotePiece
        public var todoFiles: [Int64: RemotePiece]
        /// The repositories whose todos files exist there (any of them, concerned or not).
        public var existingTodoFiles: Set<Int64>
        /// This machine's entries: every repository, and every todo of the repositories concerned,
        /// that the files name, or that waits to be sent.
        public var local: Replica
        /// What changed here since it was last sent.
        public var pendingTodos: Set<String>
        public var pendingRepositories: Set<Int64>
        /// What the files read anew held when this machine last read or wrote them: the todos and
        /// repositories it had exchanged, which a removal may have taken from the remote since.
        public var formerlyHeldTodos: Set<String>
        public var formerlyHeldRepositories: Set<Int64>
        /// Whether this machine sent this remote its list before; if not, everything here goes
        /// out, and nothing is taken for removed for being absent there.
        public var exchangedBefore: Bool
        /// Whether this machine's line must be brought up to date even with nothing else to write
        /// (a removal waits for this machine's merge). A machine without a line gets one with its
        /// first write: until then no removal waits for it, and what it holds of one that left is
        /// removed here by the compaction point (`RemovalsThatLeft`), as its merge would have.
        public var reportMerge: Bool
        /// Files to write back whatever the merge gives (values written there by hand, an older version).
        public var rewrite: Set<String>
        /// Changes of the remote's own settings made here.
        public var forget: Set<String>
        public var horizonDays: Register<Int64>?

        public init(machine: String, machineName: String, now: Timestamp, stamp: HybridTimestamp, meta: RemoteMeta,
                    repositories: RemotePiece, todoFiles: [Int64: RemotePiece], existingTodoFiles: Set<Int64>, local: Replica,
                    pendingTodos: Set<String>, pendingRepositories: Set<Int64>, formerlyHeldTodos: Set<String> = [],
                    formerlyHeldRepositories: Set<Int64> = [], exchangedBefore: Bool, reportMerge: Bool, rewrite: Set<String> = [],
                    forget: Set<String> = [], horizonDays: Register<Int64>? = nil) {
            self.machine = machine
            self.machineName = machineName
            self.now = now
            self.stamp = stamp
            self.meta = meta
            self.repositories = repositories
            self.todoFiles = todoFiles
            self.existingTodoFiles = existingTodoFiles
            self.local = local
            self.pendingTodos = pendingTodos
            self.pendingRepositories = pendingRepositories
            self.formerlyHeldTodos = formerlyHeldTodos
            self.formerlyHeldRepositories = formerlyHeldRepositories
            self.exchangedBefore = exchangedBefore
            self.reportMerge = reportMerge
            self.rewrite = rewrite
            self.forget = forget
            self.horizonDays = horizonDays
        }
    }

    public struct Plan: Equatable, Sendable {
        /// This machine's entries after the merge (those of the input, less what is purged).
        public var local: Replica
        /// What leaves this machine for good: it left the remote after a removal everyone merged.
        public var purgedTodos: Set<String> = []
        public var purgedRepositories: Set<Int64> = []
        /// Todos edited here whose removal left the remote meanwhile: removed here, the edit not sent.
        public var dropped: Set<String> = []
        /// The files to write there (nil: remove the file); none when nothing changed.
        public var files: [String: [UInt8]?] = [:]
        /// The remote's files of repositories and todos after the write, by path (nil: removed).
        public var pieces: [String: RemotePiece?] = [:]
        public var meta: RemoteMeta
        /// Lines of repositories and todos the write adds, changes or removes, what this machine
        /// sends; todos it adds, changes and removes (a removal that leaves the remote counts as
        /// none).
        public var changedLines = 0
        /// Lines of removals the write takes out because they left the remote (every machine
        /// merged them, or they passed the horizon): upkeep, not a change anyone made.
        public var droppedLines = 0
        public var added = 0, changed = 0, removed = 0
        /// What goes out because it differs from the remote's (it waits to be sent until it is there).
        public var sending: Set<String> = []
        public var sendingRepositories: Set<Int64> = []
        /// Todos files the plan needs that the input did not give: plan again with them.
        public var needed: Set<Int64> = []
    }

    public static func plan(_ input: Input) -> Plan {
        let generation = RemoteMeta.generation(after: input.meta.generation)
        var plan = Plan(local: input.local, meta: input.meta)

        // Todos: where the remote has each, merged with this machine's.
        var remote: [String: TodoEntry] = [:]
        var homes: [String: Set<Int64>] = [:]
        // Made to size at once: a first pull brings thousands of todos, each copied at every growth.
        let remoteCount = input.todoFiles.values.reduce(0) { $0 + $1.replica.todos.count }
        remote.reserveCapacity(remoteCount)
        homes.reserveCapacity(remoteCount)
        for (repository, piece) in input.todoFiles {
            for (uuid, entry) in piece.replica.todos {
                remote[uuid] = remote[uuid].map { $0.merged(with: entry) } ?? entry
                homes[uuid, default: []].insert(repository)
            }
        }
        // The smaller side is merged into the larger (a first pull copies none of its thousands
        // of todos once more), this machine's copy first either way: at a tie the merge keeps it.
        let remoteIsLarger = remote.count > input.local.todos.count
        var merged = remoteIsLarger ? remote : input.local.todos
        let smaller = remoteIsLarger ? input.local.todos : remote
        if !smaller.isEmpty { merged.reserveCapacity(merged.count + smaller.count) }  // (made unique, so only when it grows)
        for (uuid, entry) in smaller {
            merged[uuid] = merged[uuid].map { remoteIsLarger ? entry.merged(with: $0) : $0.merged(with: entry) } ?? entry
        }
        // What left the remote: kept here only, as a removal (an edit made here meanwhile dropped).
        let removalsThatLeft = RemovalsThatLeft(compacted: input.meta.compacted)
        var leftRemote: Set<String> = []
        for (uuid, entry) in input.local.todos where remote[uuid] == nil && input.todoFiles[entry.repository.value] != nil
            && input.exchangedBefore {
            let changed = input.pendingTodos.contains(uuid)
            guard removalsThatLeft.left(latest: entry.latestStamp, removed: entry.removed, changedHere: changed,
                                        heldBefore: input.formerlyHeldTodos.contains(uuid)) else { continue }
            leftRemote.insert(uuid)
            guard !entry.isRemoved else { continue }
            merged[uuid]?.removed = removalsThatLeft.removal(over: entry.removed, on: input.machine)
            if changed { plan.dropped.insert(uuid) }
        }
        plan.needed = Set(merged.values.map(\.repository.value)).subtracting(input.todoFiles.keys)
        guard plan.needed.isEmpty else { return plan }

        // Repositories likewise (every one is at hand).
        let remoteRepositories = input.repositories.replica.repositories
        var repositories = merge(Replica(repositories: input.local.repositories), Replica(repositories: remoteRepositories)).repositories
        var repositoriesLeft: Set<Int64> = []
        for (id, entry) in input.local.repositories where remoteRepositories[id] == nil && input.exchangedBefore {
            let untracked = Register(!entry.tracked.value, at: entry.tracked.stamp)
            guard removalsThatLeft.left(latest: entry.latestStamp, removed: untracked, changedHere: input.pendingRepositories.contains(id),
                                        heldBefore: input.formerlyHeldRepositories.contains(id)) else { continue }
            repositoriesLeft.insert(id)
            guard entry.tracked.value else { continue }
            repositories[id]?.tracked = Register(false, at: removalsThatLeft.removal(over: untracked, on: input.machine).stamp)
        }

        // Removals every machine has merged, or older than the horizon, leave (with the remote's
        // settings asked here in force).
        var meta = input.meta
        meta.machines[input.machine] = MachineRecord(id: input.machine, name: input.machineName, generation: generation,
                                                     exchangedAt: input.now, forgotten: forgotten(input))
        if let horizon = input.horizonDays { meta.horizonDays = meta.horizonDays.merged(with: horizon) }
        for id in input.forget where id != input.machine {
            guard let record = meta.machines[id] else { continue }
            meta.machines[id]?.forgotten = record.forgotten.merged(with: Register(true, at: input.stamp))
        }
        let mergedByAll = meta.mergedByAll(at: input.now)
        func leaves(_ since: Int64?, removedAt: HybridTimestamp) -> Bool {
            (since ?? generation) <= mergedByAll || meta.isPastHorizon(removedAt, at: input.now)
        }
        var compacted = input.meta.compacted
        for (repository, piece) in input.todoFiles {
            for (uuid, since) in piece.todoSince {
                guard let entry = merged[uuid], entry.isRemoved, entry.repository.value == repository,
                      !input.pendingTodos.contains(uuid), leaves(since, removedAt: entry.removed.stamp) else { continue }
                leftRemote.insert(uuid)
                compacted = max(compacted, entry.latestStamp)
            }
        }
        let liveRepositories = Set(merged.filter { !$0.value.isRemoved && !leftRemote.contains($0.key) }.values.map(\.repository.value))
        // A repository that holds a todo alive stays there, untracked (a todo added to it meanwhile keeps it).
        repositoriesLeft.subtract(liveRepositories)
        for (id, since) in input.repositories.repositorySince {
            guard let entry = repositories[id], !entry.tracked.value, !input.existingTodoFiles.contains(id),
                  !liveRepositories.contains(id), !input.pendingRepositories.contains(id),
                  leaves(since, removedAt: entry.tracked.stamp) else { continue }
            repositoriesLeft.insert(id)
            compacted = max(compacted, entry.latestStamp)
        }
        // Here, what left the remote goes for good once older than the horizon; till then it is
        // restorable here.
        for uuid in leftRemote {
            guard let entry = merged[uuid], entry.isRemoved, meta.isPastHorizon(entry.removed.stamp, at: input.now) else { continue }
            merged[uuid] = nil
            if input.local.todos[uuid] != nil { plan.purgedTodos.insert(uuid) }
        }
        for id in repositoriesLeft {
            guard let entry = repositories[id], meta.isPastHorizon(entry.tracked.stamp, at: input.now), !liveRepositories.contains(id)
            else { continue }
            repositories[id] = nil
            if input.local.repositories[id] != nil { plan.purgedRepositories.insert(id) }
        }

        // The files that change: each todo that differs from the remote's, where it was and where it is.
        var dirty = Set(input.rewrite.compactMap(RemoteLayout.repository(ofTodosPath:)))
        var byRepository: [Int64: [String]] = [:]
        for (uuid, entry) in merged where !leftRemote.contains(uuid) {
            byRepository[entry.repository.value, default: []].append(uuid)
            guard entry != remote[uuid] else { continue }
            dirty.insert(entry.repository.value)
            dirty.formUnion(homes[uuid] ?? [])
            plan.sending.insert(uuid)
            if let before = remote[uuid] {
                if entry.isRemoved && !before.isRemoved { plan.removed += 1 } else { plan.changed += 1 }
            } else if entry.isRemoved { plan.removed += 1 } else { plan.added += 1 }
        }
        for (uuid, home) in homes where merged[uuid] == nil || leftRemote.contains(uuid) { dirty.formUnion(home) }
        for repository in dirty.sorted() {
            let old = input.todoFiles[repository] ?? RemotePiece()
            var piece = RemotePiece(replica: Replica(formatMinor: old.replica.formatMinor, headerUnknown: old.replica.headerUnknown,
                                                     unknownLines: old.replica.unknownLines))
            for uuid in byRepository[repository] ?? [] {
                guard let entry = merged[uuid] else { continue }
                piece.replica.todos[uuid] = entry
                guard entry.isRemoved else { continue }
                let wasRemoved = old.replica.todos[uuid]?.isRemoved == true
                piece.todoSince[uuid] = wasRemoved ? old.todoSince[uuid] ?? generation : generation
            }
            let path = RemoteLayout.todosPath(repository)
            let exists = input.existingTodoFiles.contains(repository)
            guard piece != old || !exists || input.rewrite.contains(path) else { continue }
            let dropped = old.replica.todos.keys.filter { piece.replica.todos[$0] == nil && leftRemote.contains($0) }.count
            plan.droppedLines += dropped
            plan.changedLines += changedLines(from: old.replica.todos, to: piece.replica.todos) - dropped
            if piece.replica.todos.isEmpty && piece.replica.unknownLines.isEmpty {
                if exists { (plan.files[path], plan.pieces[path]) = (.some(nil), .some(nil)) }
            } else {
                (plan.files[path], plan.pieces[path]) = (piece.encode(title: repositories[repository]?.name.value.fullName), piece)
            }
        }

        let outgoing = repositories.filter { !repositoriesLeft.contains($0.key) }
        var repositoriesPiece = input.repositories
        repositoriesPiece.replica.repositories = outgoing
        repositoriesPiece.repositorySince = [:]
        for (id, entry) in outgoing where !entry.tracked.value {
            let wasUntracked = remoteRepositories[id].map { !$0.tracked.value } ?? false
            repositoriesPiece.repositorySince[id] = wasUntracked ? input.repositories.repositorySince[id] ?? generation : generation
        }
        plan.sendingRepositories = Set(outgoing.filter { remoteRepositories[$0.key] != $0.value }.keys)
        if repositoriesPiece != input.repositories || input.rewrite.contains(RemoteLayout.repositoriesPath) {
            let dropped = remoteRepositories.keys.filter { outgoing[$0] == nil && repositoriesLeft.contains($0) }.count
            plan.droppedLines += dropped
            plan.changedLines += changedLines(from: remoteRepositories, to: outgoing) - dropped
            plan.files[RemoteLayout.repositoriesPath] = repositoriesPiece.encode()
            plan.pieces[RemoteLayout.repositoriesPath] = repositoriesPiece
        }

        // The remote's own line, and this machine's, go with any write.
        meta.compacted = compacted
        meta.generation = generation
        if !plan.files.isEmpty || input.reportMerge || input.rewrite.contains(RemoteLayout.metaPath)
            || meta.horizonDays != input.meta.horizonDays
            || meta.machines.filter({ $0.key != input.machine }) != input.meta.machines.filter({ $0.key != input.machine }) {
            plan.files[RemoteLayout.metaPath] = meta.encode()
            plan.meta = meta
        }

        (plan.local.todos, plan.local.repositories) = (merged, repositories)
        return plan
    }

    /// This machine's `forgotten`: false again once it exchanges (a forget of it stands until then).
    private static func forgotten(_ input: Input) -> Register<Bool> {
        guard let record = input.meta.machines[input.machine] else { return Register(false, at: .zero) }
        return record.forgotten.value ? Register(false, at: max(input.stamp, record.forgotten.stamp.next(on: input.machine)))
            : record.forgotten
    }

    static func changedLines<Key: Hashable, Value: Equatable>(from old: [Key: Value], to new: [Key: Value]) -> Int {
        new.filter { old[$0.key] != $0.value }.count + old.keys.filter { new[$0] == nil }.count
    }
}
