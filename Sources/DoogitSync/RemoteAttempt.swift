import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// One attempt of an exchange, once the remote is read: the planner's input gathered from what
/// was read and what this machine knows (the files of the repositories concerned, decoded once;
/// this machine's todos of those repositories), with values written there by hand stamped, the
/// stamps of clocks far ahead of GitHub's clamped, and a remote in the single file of format 2
/// taken as the files' content.
struct RemoteAttempt {
    let settings: RemoteSettings
    /// The remote as read now, with the texts of the files read anew.
    private(set) var known: RemoteTree
    let fresh: [String: [UInt8]?]
    let pending: [String: Set<Int64>]
    let pendingRepositories: Set<Int64>
    /// Repositories holding removals kept here past the horizon, to prune.
    let expired: Set<Int64>
    let now: Timestamp
    let store: Store
    let machine: String

    /// This machine's todos of the repositories concerned (and every repository), as stored:
    /// what the plan's merge is written over (stamps clamped by the merge included).
    private(set) var local = Replica()
    /// The same with the stamps of a clock far ahead of GitHub's brought back to its time: what
    /// the merge starts from here, so that only what differs from it was received.
    private(set) var localAtGitHubTime = Replica()
    private(set) var handEdits = 0
    private(set) var thisClockAheadBy: Int64?
    private(set) var otherClockAheadBy: Int64?
    /// Whether the stub at `todos.jsonl` is to be written: missing, or the old single file.
    private(set) var needsStub = false

    private var legacy: RemotePiece?
    private var legacyTodos: [Int64: RemotePiece] = [:]
    private var meta = RemoteMeta()
    private var repositories = RemotePiece()
    private var pieces: [String: RemotePiece] = [:]
    /// The files read anew as this machine last read or wrote them (nil: there was none).
    private var piecesBefore: [String: RemotePiece?] = [:]
    private var rewrite: Set<String> = []
    private let handEdit: HybridTimestamp
    /// The files read anew, decoded (most as they arrived), by blob.
    private var decodings: EarlyDecodings
    /// This machine's copies of what the files read anew hold (see `copiesHere`).
    private var freshCopiesHere: Replica?

    init(settings: RemoteSettings, known: RemoteTree, fresh: [String: [UInt8]?], pending: [String: Set<Int64>],
         pendingRepositories: Set<Int64>, expired: Set<Int64> = [], now: Timestamp, store: Store, machine: String,
         decodings: EarlyDecodings? = nil) throws {
        self.settings = settings
        self.known = known
        self.fresh = fresh
        self.pending = pending
        self.pendingRepositories = pendingRepositories
        self.expired = expired
        self.now = now
        self.store = store
        self.machine = machine
        handEdit = Self.handEditStamp(at: now, machine: machine)
        self.decodings = decodings?.stamping(at: handEdit) ?? EarlyDecodings(handEdit: handEdit)

        if let stub = try content(RemoteLayout.stubPath) {
            let contents = try decoded(RemoteLayout.stubPath) { () throws(TodoFileError) in try TodoFile.decode(stub, handEdit: handEdit) }
            if contents.majorVersion > RemoteLayout.singleFileVersion {
                // Files of format 3 (tags merged as one value): the stub says 4 now, so that a
                // doogit of 3 no longer writes here; each file goes to 4 when next written.
                if contents.majorVersion < TodoFile.majorVersion { needsStub = true }
            } else {
                // The single file of format 2: what it holds is the remote's, split into files now.
                needsStub = true
                legacy = RemotePiece(replica: contents.replica)
                for (uuid, entry) in contents.replica.todos { legacyTodos[entry.repository.value, default: RemotePiece()].replica.todos[uuid] = entry }
                handEdits += contents.handEdits
            }
        } else {
            needsStub = true
        }
        if legacy == nil, let bytes = try content(RemoteLayout.metaPath) {
            meta = try decoded(RemoteLayout.metaPath) { () throws(TodoFileError) in try RemoteMeta.decode(bytes, handEdit: handEdit) }
        }
        // The file names the branch it is on, for a machine that joins after the default branch moved.
        if meta.branch != settings.branch {
            if try content(RemoteLayout.metaPath) != nil { rewrite.insert(RemoteLayout.metaPath) }
            meta.branch = settings.branch
        }
        if let legacy {
            repositories = RemotePiece(replica: Replica(repositories: legacy.replica.repositories))
        } else if let piece = try piece(RemoteLayout.repositoriesPath) {
            repositories = piece
        }
    }

    /// The plan, with every todos file it needs.
    mutating func plan() throws -> RemoteExchange.Plan {
        var concerned = Set(fresh.keys.compactMap(RemoteLayout.repository(ofTodosPath:)))
        for repositories in pending.values { concerned.formUnion(repositories) }
        concerned.formUnion(legacyTodos.keys)
        concerned.formUnion(expired)
        // The files read now are decoded first: what they hold of removals counts below.
        for id in concerned { _ = try todosPiece(id) }
        // Files whose removals may leave now (once this machine has merged everything).
        var after = meta
        after.machines[machine] = MachineRecord(id: machine, name: "", generation: RemoteMeta.generation(after: meta.generation), exchangedAt: now)
        for id in settings.forget { after.machines[id]?.forgotten = Register(true, at: handEdit) }
        if let horizon = settings.horizonDays { after.horizonDays = after.horizonDays.merged(with: horizon) }
        if let board = settings.board { after.board = after.board.merged(with: board) }
        let mergedByAll = after.mergedByAll(at: now)
        let ownGeneration = meta.machines[machine]?.generation
        var waitsForThisMachine = false
        for (path, entry) in known.entries {
            guard let removals = entry.removals else { continue }
            if removals.lastSince > (ownGeneration ?? -1) { waitsForThisMachine = true }
            if let id = RemoteLayout.repository(ofTodosPath: path),
               removals.firstSince <= mergedByAll || meta.isPastHorizon(removals.oldest, at: now) {
                concerned.insert(id)
            }
        }
        // What the files read anew held before: what this machine had exchanged of them.
        var heldTodos: Set<String> = [], heldRepositories: Set<Int64> = []
        for path in fresh.keys where RemoteLayout.isPiece(path) {
            guard let before = try pieceBefore(path) else { continue }
            heldTodos.formUnion(before.replica.todos.keys)
            heldRepositories.formUnion(before.replica.repositories.keys)
        }
        while true {
            var files: [Int64: RemotePiece] = [:]
            for id in concerned { files[id] = try todosPiece(id) }
            let named = Set(files.values.flatMap(\.replica.todos.keys))
            local = try store.replica.read(repositories: concerned, uuids: Set(pending.keys).union(named))
            // Stamps of clocks far ahead of GitHub's are brought back to its time, here too.
            let clampedHere = local.clamped(to: now)
            let here = clampedHere.replica
            localAtGitHubTime = here
            if let ahead = clampedHere.aheadBy { thisClockAheadBy = ahead }
            for (id, piece) in files {
                let clamped = piece.replica.clamped(to: now)
                files[id]?.replica = clamped.replica
                if let ahead = clamped.aheadBy { otherClockAheadBy = max(otherClockAheadBy ?? 0, ahead) }
            }
            var remoteRepositories = repositories
            remoteRepositories.replica = remoteRepositories.replica.clamped(to: now).replica
            let input = RemoteExchange.Input(
                machine: machine, machineName: RemotePhase.hostName(), now: now, stamp: handEdit, meta: meta,
                repositories: remoteRepositories, todoFiles: files, existingTodoFiles: legacy == nil ? known.todoFiles : [],
                local: here, pendingTodos: Set(pending.keys), pendingRepositories: pendingRepositories,
                formerlyHeldTodos: heldTodos, formerlyHeldRepositories: heldRepositories, exchangedBefore: settings.exchanged,
                reportMerge: meta.machines[machine] != nil && waitsForThisMachine, rewrite: rewrite, forget: settings.forget,
                horizonDays: settings.horizonDays, board: settings.board)
            let plan = RemoteExchange.plan(input)
            if plan.needed.isEmpty { return plan }
            concerned.formUnion(plan.needed)
        }
    }

    /// What the remote holds after the plan is carried out (nil: none), of the todos considered
    /// that wait to be sent: those that waited here, and those the plan sends (it notes them):
    /// what `ReplicaStore.sent` compares. A first pull's thousands of todos are not copied for it.
    func held(_ plan: RemoteExchange.Plan) -> [String: TodoEntry?] {
        var held: [String: TodoEntry?] = [:]
        for uuid in Set(pending.keys).union(plan.sending) where local.todos[uuid] != nil || plan.local.todos[uuid] != nil {
            held[uuid] = .some(plan.local.todos[uuid])
        }
        return held
    }

    func heldRepositories(_ plan: RemoteExchange.Plan) -> [Int64: RepositoryEntry?] {
        var held: [Int64: RepositoryEntry?] = [:]
        for id in local.repositories.keys { held[id] = .some(plan.local.repositories[id]) }
        for (id, entry) in plan.local.repositories { held[id] = entry }
        return held
    }

    // MARK: The files

    /// A file's text: as read now, or as last read or written here (nil: there is none).
    private func content(_ path: String) throws -> [UInt8]? {
        if let read = fresh[path] { return read }
        guard known.entries[path] != nil else { return nil }
        return try store.remoteContent(path)
    }

    private mutating func todosPiece(_ id: Int64) throws -> RemotePiece {
        if legacy != nil { return legacyTodos[id] ?? RemotePiece() }
        return try piece(RemoteLayout.todosPath(id)) ?? RemotePiece()
    }

    /// A file's entries, decoded once; values written there by hand are taken as changes made
    /// at GitHub's time of the read, and the file is written back.
    private mutating func piece(_ path: String) throws -> RemotePiece? {
        if let piece = pieces[path] { return piece }
        guard let bytes = try content(path) else { return nil }
        let read = try decodedFile(path, bytes)
        var piece = read.piece
        var edits = read.handEdits
        if fresh[path] != nil {
            // A value a copy known here holds at the same stamp, but otherwise: changed by hand.
            var copies = [try copiesHere()]
            if let previous = try pieceBefore(path) { copies.append(previous.replica) }
            let restamped = piece.replica.restampingHandEdits(against: copies, at: handEdit)
            (piece.replica, edits) = (restamped.replica, edits + restamped.edits)
            if let removals = piece.removals {
                known.entries[path]?.removals = RemoteRemovals(firstSince: removals.first, lastSince: removals.last, oldest: removals.oldest)
            }
        }
        if edits > 0 {
            rewrite.insert(path)
            handEdits += edits
        }
        pieces[path] = piece
        return piece
    }

    /// A file's entries as they are there, with hand edits stamped `handEdit`. A file read anew
    /// is decoded once, kept by its blob's sha.
    private mutating func decodedFile(_ path: String, _ bytes: [UInt8]) throws -> EarlyDecodings.Decoded {
        guard fresh[path] != nil, let sha = known.entries[path]?.sha else {
            return try decoded(path) { () throws(TodoFileError) in try RemotePiece.decode(bytes, handEdit: handEdit) }
        }
        let result = decodings.decoding(sha: sha, content: bytes)
        return try decoded(path) { () throws(TodoFileError) in try result.get() }
    }

    /// The stamp that values written there by hand take: GitHub's time of the read, on this machine.
    static func handEditStamp(at now: Timestamp, machine: String) -> HybridTimestamp {
        HybridTimestamp(wall: now.millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    /// This machine's copies of the todos and repositories that the files read anew hold, read
    /// once for all of them (read file by file, each read scanned every UUID here).
    private mutating func copiesHere() throws -> Replica {
        if let freshCopiesHere { return freshCopiesHere }
        var uuids: Set<String> = [], repositories: Set<Int64> = []
        for (path, bytes) in fresh where RemoteLayout.isPiece(path) {
            // A file that cannot be read is reported when its turn comes.
            guard let bytes, let read = try? decodedFile(path, bytes) else { continue }
            uuids.formUnion(read.piece.replica.todos.keys)
            repositories.formUnion(read.piece.replica.todos.values.map(\.repository.value))
        }
        let copies = try store.replica.read(repositories: repositories, uuids: uuids)
        freshCopiesHere = copies
        return copies
    }

    /// A file read anew as this machine last read or wrote it, decoded once (nil: none, or unreadable).
    private mutating func pieceBefore(_ path: String) throws -> RemotePiece? {
        if let piece = piecesBefore[path] { return piece }
        let old = try store.remoteContent(path)
        let piece = old.flatMap { try? RemotePiece.decode($0, handEdit: handEdit).piece }
        piecesBefore[path] = .some(piece)
        return piece
    }

    private func decoded<T>(_ path: String, _ decode: () throws(TodoFileError) -> T) throws -> T {
        do { return try decode() } catch { throw RemoteFailure.unreadableFile(repository: settings.fullName, path: path, error) }
    }
}
