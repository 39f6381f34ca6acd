import DoogitSupport

extension RemoteExchange {
    /// An exchange's plan as it is made: what each step of `plan` decided, for the steps after it.
    struct Planning {
        let input: Input
        /// The remote's generation once this write is made.
        let generation: Int64
        var plan: Plan
        /// Each todo as the remote holds it (merged, where several files hold it), and the
        /// repositories whose files hold it.
        var remoteTodos: [String: TodoEntry] = [:]
        var homes: [String: Set<Int64>] = [:]
        /// Every todo either side holds, merged; and those that left the remote, before this
        /// exchange or with its write.
        var todos: [String: TodoEntry] = [:]
        var todosLeft: Set<String> = []
        /// Every repository either side holds, merged; and those that left the remote.
        var repositories: [Int64: RepositoryEntry] = [:]
        var repositoriesLeft: Set<Int64> = []
        /// The remote's own line as this write leaves it, and its compaction point.
        var meta: RemoteMeta
        var compacted: HybridTimestamp
        /// Repositories that hold a todo alive: they stay there, untracked or not.
        var liveRepositories: Set<Int64> = []

        init(_ input: Input) {
            self.input = input
            generation = RemoteMeta.generation(after: input.meta.generation)
            plan = Plan(local: input.local, meta: input.meta)
            meta = input.meta
            compacted = input.meta.compacted
        }

        var remoteRepositories: [Int64: RepositoryEntry] { input.repositories.replica.repositories }

        /// What this machine can tell of the removals that left the remote before this exchange.
        var removalsThatLeft: RemovalsThatLeft { RemovalsThatLeft(compacted: input.meta.compacted) }

        /// Todos: where the remote has each, merged with this machine's.
        mutating func mergeTodos() {
            // Made to size at once: a first pull brings thousands of todos, each copied at every growth.
            let remoteCount = input.todoFiles.values.reduce(0) { $0 + $1.replica.todos.count }
            remoteTodos.reserveCapacity(remoteCount)
            homes.reserveCapacity(remoteCount)
            for (repository, piece) in input.todoFiles {
                for (uuid, entry) in piece.replica.todos {
                    remoteTodos[uuid] = remoteTodos[uuid].map { $0.merged(with: entry) } ?? entry
                    homes[uuid, default: []].insert(repository)
                }
            }
            // The smaller side is merged into the larger (a first pull copies none of its thousands
            // of todos once more), this machine's copy first either way: at a tie the merge keeps it.
            let remoteIsLarger = remoteTodos.count > input.local.todos.count
            todos = remoteIsLarger ? remoteTodos : input.local.todos
            let smaller = remoteIsLarger ? input.local.todos : remoteTodos
            if !smaller.isEmpty { todos.reserveCapacity(todos.count + smaller.count) }  // (made unique, so only when it grows)
            for (uuid, entry) in smaller {
                todos[uuid] = todos[uuid].map { remoteIsLarger ? entry.merged(with: $0) : $0.merged(with: entry) } ?? entry
            }
        }

        /// What left the remote while this machine was away: kept here only, as a removal (an edit
        /// made here meanwhile dropped).
        mutating func removeTodosThatLeftWhileAway() {
            guard input.exchangedBefore else { return }
            let removalsThatLeft = removalsThatLeft
            for (uuid, entry) in input.local.todos where remoteTodos[uuid] == nil && input.todoFiles[entry.repository.value] != nil {
                let changed = input.pendingTodos.contains(uuid)
                guard removalsThatLeft.left(latest: entry.latestStamp, removed: entry.removed, changedHere: changed,
                                            heldBefore: input.formerlyHeldTodos.contains(uuid)) else { continue }
                todosLeft.insert(uuid)
                guard !entry.isRemoved else { continue }
                todos[uuid]?.removed = removalsThatLeft.removal(over: entry.removed, on: input.machine)
                if changed { plan.dropped.insert(uuid) }
            }
        }

        /// The todos files the plan needs that the input did not give: those of every todo's repository.
        mutating func noteMissingTodoFiles() {
            plan.needed = Set(todos.values.map(\.repository.value)).subtracting(input.todoFiles.keys)
        }

        /// Repositories likewise (every one is at hand).
        mutating func mergeRepositories() {
            repositories = merge(Replica(repositories: input.local.repositories), Replica(repositories: remoteRepositories)).repositories
        }

        /// A repository whose line left the remote while this machine was away is untracked here too.
        mutating func untrackRepositoriesThatLeftWhileAway() {
            guard input.exchangedBefore else { return }
            let removalsThatLeft = removalsThatLeft
            for (id, entry) in input.local.repositories where remoteRepositories[id] == nil {
                let untracked = Register(!entry.tracked.value, at: entry.tracked.stamp)
                guard removalsThatLeft.left(latest: entry.latestStamp, removed: untracked, changedHere: input.pendingRepositories.contains(id),
                                            heldBefore: input.formerlyHeldRepositories.contains(id)) else { continue }
                repositoriesLeft.insert(id)
                guard entry.tracked.value else { continue }
                repositories[id]?.tracked = Register(false, at: removalsThatLeft.removal(over: untracked, on: input.machine).stamp)
            }
        }

        /// The machines' register: this machine's line, and the remote's settings asked here in force.
        mutating func registerThisMachine() {
            meta.machines[input.machine] = MachineRecord(id: input.machine, name: input.machineName, generation: generation,
                                                         exchangedAt: input.now, forgotten: thisMachineForgotten)
            if let horizon = input.horizonDays { meta.horizonDays = meta.horizonDays.merged(with: horizon) }
            if let board = input.board { meta.board = meta.board.merged(with: board) }
            for id in input.forget where id != input.machine {
                guard let record = meta.machines[id] else { continue }
                meta.machines[id]?.forgotten = record.forgotten.merged(with: Register(true, at: input.stamp))
            }
        }

        /// This machine's `forgotten`: false again once it exchanges (a forget of it stands until then).
        private var thisMachineForgotten: Register<Bool> {
            guard let record = input.meta.machines[input.machine] else { return Register(false, at: .zero) }
            return record.forgotten.value ? Register(false, at: max(input.stamp, record.forgotten.stamp.next(on: input.machine)))
                : record.forgotten
        }

        /// Removals every machine has merged, or older than the horizon, leave the remote now, and
        /// the compaction point grows past them.
        mutating func takeOutRemovalsThatLeave() {
            let mergedByAll = meta.mergedByAll(at: input.now)
            for (repository, piece) in input.todoFiles {
                for (uuid, since) in piece.todoSince {
                    guard let entry = todos[uuid], entry.isRemoved, entry.repository.value == repository,
                          !input.pendingTodos.contains(uuid),
                          leaves(since, removedAt: entry.removed.stamp, mergedByAll: mergedByAll) else { continue }
                    todosLeft.insert(uuid)
                    compacted = max(compacted, entry.latestStamp)
                }
            }
            liveRepositories = Set(todos.filter { !$0.value.isRemoved && !todosLeft.contains($0.key) }.values.map(\.repository.value))
            // A repository that holds a todo alive stays there, untracked (a todo added to it meanwhile keeps it).
            repositoriesLeft.subtract(liveRepositories)
            for (id, since) in input.repositories.repositorySince {
                guard let entry = repositories[id], !entry.tracked.value, !input.existingTodoFiles.contains(id),
                      !liveRepositories.contains(id), !input.pendingRepositories.contains(id),
                      leaves(since, removedAt: entry.tracked.stamp, mergedByAll: mergedByAll) else { continue }
                repositoriesLeft.insert(id)
                compacted = max(compacted, entry.latestStamp)
            }
        }

        /// A removal that entered the remote at generation `since` (this write's, when it enters now)
        /// leaves once every active machine merged that generation, or once it is older than the horizon.
        private func leaves(_ since: Int64?, removedAt: HybridTimestamp, mergedByAll: Int64) -> Bool {
            (since ?? generation) <= mergedByAll || meta.isPastHorizon(removedAt, at: input.now)
        }

        /// Here, what left the remote goes for good once older than the horizon; till then it is
        /// restorable here.
        mutating func purgeWhatLeftPastTheHorizon() {
            for uuid in todosLeft {
                guard let entry = todos[uuid], entry.isRemoved, meta.isPastHorizon(entry.removed.stamp, at: input.now) else { continue }
                todos[uuid] = nil
                if input.local.todos[uuid] != nil { plan.purgedTodos.insert(uuid) }
            }
            for id in repositoriesLeft {
                guard let entry = repositories[id], meta.isPastHorizon(entry.tracked.stamp, at: input.now), !liveRepositories.contains(id)
                else { continue }
                repositories[id] = nil
                if input.local.repositories[id] != nil { plan.purgedRepositories.insert(id) }
            }
        }

        /// The plan, with this machine's entries as the merge leaves them.
        func finished() -> Plan {
            var plan = plan
            (plan.local.todos, plan.local.repositories) = (todos, repositories)
            return plan
        }
    }
}
