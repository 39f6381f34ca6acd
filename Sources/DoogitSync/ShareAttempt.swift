import DoogitMerge
import DoogitStore
import DoogitSupport

/// One attempt of a shared branch's exchange, once the branch is read: the planner's input
/// (`RemoteExchange`, the remote's merge) for the one repository the branch holds.
///
/// The branch is written by others, so it is read for this repository alone: its todos file,
/// and `remote.jsonl` for the machines that merged its removals. Lines there of todos in another
/// repository are not taken, and nothing of this machine's other repositories is given to the
/// planner: no other file is ever written there, and no repository's settings travel.
///
/// What changed here is what differs from the branch as this machine last read or wrote it
/// (`share_files`): whatever made the change (a command, the private remote, an issue), it goes
/// out. A todo kept private (`--private`) never goes there. A todo moved from the repository to
/// another, or made private after it was shared, is left there as it was, and what the branch
/// says of it is not taken here: the move and the privacy are this user's (and their remote's) alone.
struct ShareAttempt {
    let share: ShareSettings
    let now: Timestamp
    /// This machine's todos of the repository as stored, and with stamps far ahead of GitHub's
    /// brought back to its time (what the merge starts from).
    private(set) var local = Replica()
    private(set) var localAtGitHubTime = Replica()
    /// Todos this machine holds that are not for the branch: in another repository here, kept
    /// private, or removed without the branch ever holding them.
    private(set) var keptOut: Set<String> = []
    private(set) var handEdits = 0
    /// What the branch's file holds of removals waiting to leave, as read (kept with the file's entry).
    private(set) var removals: RemoteRemovals?
    private(set) var input: RemoteExchange.Input

    var path: String { RemoteLayout.todosPath(share.repositoryID) }

    /// Whether anything here differs from the branch as this machine knows it.
    var hasNews: Bool { !input.pendingTodos.isEmpty }

    /// Nothing to merge or write: nothing read anew, nothing changed here, nothing of the
    /// branch's to bring up to date (a removal waiting for this machine, a file to write back).
    var isSettled: Bool { freshIsEmpty && !hasNews && !input.reportMerge && input.rewrite.isEmpty }
    // (The caller checks that the branch did not move and that its tree is known.)
    private let freshIsEmpty: Bool

    /// `known`: the branch as read now; `fresh`: the files read anew.
    init(share: ShareSettings, known: RemoteTree, fresh: [String: [UInt8]?], now: Timestamp, store: Store, machine: String) throws {
        self.share = share
        self.now = now
        freshIsEmpty = fresh.isEmpty
        let id = share.repositoryID, path = RemoteLayout.todosPath(share.repositoryID)
        let handEdit = RemoteAttempt.handEditStamp(at: now, machine: machine)
        func content(_ path: String) throws -> [UInt8]? {
            if let read = fresh[path] { return read }
            return known.entries[path] == nil ? nil : try store.shareContent(id, path)
        }
        func decoded<T>(_ path: String, _ decode: () throws(TodoFileError) -> T) throws -> T {
            do { return try decode() } catch { throw ShareFailure.unreadableFile(repository: share.fullName, path: path, error) }
        }
        func ofThisRepository(_ piece: RemotePiece) -> RemotePiece {
            var piece = piece
            piece.replica.todos = piece.replica.todos.filter { $0.value.repository.value == id }
            piece.todoSince = piece.todoSince.filter { piece.replica.todos[$0.key] != nil }
            return piece
        }

        // The stub says which doogit may write here: a newer major version's branch is left as it is.
        if let stub = try content(RemoteLayout.stubPath) {
            _ = try decoded(RemoteLayout.stubPath) { () throws(TodoFileError) in try TodoFile.decode(stub) }
        }
        // The branch as this machine last read or wrote it: what differs from it here is news.
        // (No branch: everything here is.)
        var before: RemotePiece?
        if !known.entries.isEmpty, let bytes = try store.shareContent(id, path) {
            before = ofThisRepository(try decoded(path) { () throws(TodoFileError) in try RemotePiece.decode(bytes, handEdit: handEdit).piece })
        }
        var piece = RemotePiece()
        if let bytes = fresh[path] ?? nil {
            piece = ofThisRepository(try decoded(path) { () throws(TodoFileError) in try RemotePiece.decode(bytes, handEdit: handEdit).piece })
        } else if fresh[path] == nil, known.entries[path] != nil, let before {
            // Not read anew: as last read or written, decoded once.
            piece = before
        }
        var meta = RemoteMeta()
        if let bytes = try content(RemoteLayout.metaPath) {
            meta = try decoded(RemoteLayout.metaPath) { () throws(TodoFileError) in try RemoteMeta.decode(bytes, handEdit: handEdit) }
        }
        var rewrite: Set<String> = []
        if meta.branch != share.branch {
            if try content(RemoteLayout.metaPath) != nil { rewrite.insert(RemoteLayout.metaPath) }
            meta.branch = share.branch
        }

        let heldThere = Set(piece.replica.todos.keys).union(before.map { Array($0.replica.todos.keys) } ?? [])
        var stored = try store.replica.read(repositories: [id], uuids: heldThere)
        stored.repositories = [:]
        // Not for the branch: a todo in another repository here, one kept private, and a removal
        // the branch never held (a todo removed before it was shared, or before it ever went).
        // The branch's copy of such a todo stays there as it is, and changes nothing here.
        let notShared = Set(stored.todos.filter { uuid, entry in
            entry.repository.value != id || entry.details.keptPrivate.value || (entry.isRemoved && !heldThere.contains(uuid))
        }.keys)
        for uuid in notShared { stored.todos[uuid] = nil }
        keptOut = notShared
        local = stored
        let clamped = stored.clamped(to: now)
        localAtGitHubTime = clamped.replica

        if fresh[path] != nil {
            // A value a copy known here holds at the same stamp, but otherwise: changed by hand.
            let restamped = piece.replica.restampingHandEdits(against: [stored] + (before.map { [$0.replica] } ?? []), at: handEdit)
            (piece.replica, handEdits) = (restamped.replica, restamped.edits)
            if handEdits > 0 { rewrite.insert(path) }
        }
        piece.replica = piece.replica.clamped(to: now).replica

        // What changed here: what differs from the branch as last known.
        let pending = Set(localAtGitHubTime.todos.filter { uuid, entry in
            before?.replica.todos[uuid].map { !ReplicaChanges.sameRegisters(entry, $0) } ?? true
        }.keys)
        removals = piece.removals.map { RemoteRemovals(firstSince: $0.first, lastSince: $0.last, oldest: $0.oldest) }
        let ownGeneration = meta.machines[machine]?.generation
        let waitsForThisMachine = removals.map { $0.lastSince > (ownGeneration ?? -1) } ?? false
        input = RemoteExchange.Input(
            // Machines are listed by id alone: their host names are their owners' own.
            machine: machine, machineName: "", now: now, stamp: handEdit, meta: meta,
            repositories: RemotePiece(), todoFiles: [id: piece], existingTodoFiles: known.entries[path] == nil ? [] : [id],
            local: localAtGitHubTime, pendingTodos: pending, pendingRepositories: [],
            formerlyHeldTodos: fresh[path] != nil ? Set(before.map { Array($0.replica.todos.keys) } ?? []) : [],
            // Known there before: what left the branch since is a removal, not news from here.
            exchangedBefore: before != nil, reportMerge: meta.machines[machine] != nil && waitsForThisMachine, rewrite: rewrite)
    }

    /// The plan, and what it changes here: never a todo kept out of the branch, and nothing
    /// purged (this machine's remote, if any, decides that).
    func plan() throws -> (plan: RemoteExchange.Plan, changes: ReplicaChanges) {
        var plan = RemoteExchange.plan(input)
        for uuid in keptOut { plan.local.todos[uuid] = nil }
        for uuid in plan.purgedTodos { plan.local.todos[uuid] = local.todos[uuid] }
        plan.purgedTodos = []
        plan.local.repositories = [:]
        return (plan, ReplicaChanges(from: local, to: plan.local))
    }
}
