import DoogitSupport

extension RemoteExchange.Planning {
    /// The todos files that change, each written with the todos it now holds (or removed when it
    /// holds none).
    mutating func writeTodosFiles() {
        let (changing, byRepository) = todosFilesThatChange()
        for repository in changing.sorted() {
            writeTodosFile(of: repository, holding: byRepository[repository] ?? [])
        }
    }

    /// The files that change: each todo that differs from the remote's, where it was and where it
    /// is (what goes out, counted as added, changed or removed); and the todos each file holds.
    private mutating func todosFilesThatChange() -> (changing: Set<Int64>, byRepository: [Int64: [String]]) {
        var changing = Set(input.rewrite.compactMap(RemoteLayout.repository(ofTodosPath:)))
        var byRepository: [Int64: [String]] = [:]
        for (uuid, entry) in todos where !todosLeft.contains(uuid) {
            byRepository[entry.repository.value, default: []].append(uuid)
            guard entry != remoteTodos[uuid] else { continue }
            changing.insert(entry.repository.value)
            changing.formUnion(homes[uuid] ?? [])
            plan.sending.insert(uuid)
            if let before = remoteTodos[uuid] {
                if entry.isRemoved && !before.isRemoved { plan.removed += 1 } else { plan.changed += 1 }
            } else if entry.isRemoved { plan.removed += 1 } else { plan.added += 1 }
        }
        for (uuid, home) in homes where todos[uuid] == nil || todosLeft.contains(uuid) { changing.formUnion(home) }
        return (changing, byRepository)
    }

    /// One repository's todos file: its todos, each removal with the generation it entered the
    /// remote with; written when it differs from the remote's, is new, or is to be written back.
    private mutating func writeTodosFile(of repository: Int64, holding uuids: [String]) {
        let old = input.todoFiles[repository] ?? RemotePiece()
        var piece = RemotePiece(replica: Replica(formatMinor: old.replica.formatMinor, headerUnknown: old.replica.headerUnknown,
                                                 unknownLines: old.replica.unknownLines))
        for uuid in uuids {
            guard let entry = todos[uuid] else { continue }
            piece.replica.todos[uuid] = entry
            guard entry.isRemoved else { continue }
            let wasRemoved = old.replica.todos[uuid]?.isRemoved == true
            piece.todoSince[uuid] = wasRemoved ? old.todoSince[uuid] ?? generation : generation
        }
        let path = RemoteLayout.todosPath(repository)
        let exists = input.existingTodoFiles.contains(repository)
        guard piece != old || !exists || input.rewrite.contains(path) else { return }
        let dropped = old.replica.todos.keys.filter { piece.replica.todos[$0] == nil && todosLeft.contains($0) }.count
        plan.droppedLines += dropped
        plan.changedLines += RemoteExchange.changedLines(from: old.replica.todos, to: piece.replica.todos) - dropped
        if piece.replica.todos.isEmpty && piece.replica.unknownLines.isEmpty {
            if exists { (plan.files[path], plan.pieces[path]) = (.some(nil), .some(nil)) }
        } else {
            (plan.files[path], plan.pieces[path]) = (piece.encode(title: repositories[repository]?.name.value.fullName), piece)
        }
    }

    /// The repositories file: every repository but those that left, each untracked one with the
    /// generation it entered the remote with.
    mutating func writeRepositoriesFile() {
        let outgoing = repositories.filter { !repositoriesLeft.contains($0.key) }
        var repositoriesPiece = input.repositories
        repositoriesPiece.replica.repositories = outgoing
        repositoriesPiece.repositorySince = [:]
        for (id, entry) in outgoing where !entry.tracked.value {
            let wasUntracked = remoteRepositories[id].map { !$0.tracked.value } ?? false
            repositoriesPiece.repositorySince[id] = wasUntracked ? input.repositories.repositorySince[id] ?? generation : generation
        }
        plan.sendingRepositories = Set(outgoing.filter { remoteRepositories[$0.key] != $0.value }.keys)
        guard repositoriesPiece != input.repositories || input.rewrite.contains(RemoteLayout.repositoriesPath) else { return }
        let dropped = remoteRepositories.keys.filter { outgoing[$0] == nil && repositoriesLeft.contains($0) }.count
        plan.droppedLines += dropped
        plan.changedLines += RemoteExchange.changedLines(from: remoteRepositories, to: outgoing) - dropped
        plan.files[RemoteLayout.repositoriesPath] = repositoriesPiece.encode()
        plan.pieces[RemoteLayout.repositoriesPath] = repositoriesPiece
    }

    /// The remote's own line, and this machine's, go with any write.
    mutating func writeMetaLine() {
        meta.compacted = compacted
        meta.generation = generation
        let machine = input.machine
        guard !plan.files.isEmpty || input.reportMerge || input.rewrite.contains(RemoteLayout.metaPath)
            || meta.horizonDays != input.meta.horizonDays || meta.board != input.meta.board
            || meta.machines.filter({ $0.key != machine }) != input.meta.machines.filter({ $0.key != machine }) else { return }
        plan.files[RemoteLayout.metaPath] = meta.encode()
        plan.meta = meta
    }
}
