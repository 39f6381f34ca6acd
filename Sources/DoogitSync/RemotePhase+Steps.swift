import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// What the read step of an exchange found: the remote as this machine knows it now, the files
/// read anew, the branch's commit, and GitHub's time of the read.
struct RemoteSnapshot {
    var known: RemoteTree
    var fresh: [String: [UInt8]?] = [:]
    var head: String?
    var refETag: String?
    /// GitHub's time of the read (its `Date`); nil when nothing was read.
    var date: Timestamp?
    /// The remote repository, when the read found it public: nothing is written there, and
    /// every sync says so, on every machine, until it is private again.
    var madePublic: String?
    /// Whether the read checked that the repository is still private (no check before a write then).
    var checkedPrivate = false
    /// The repository's name as the read by id gave it (recorded): renamed or transferred on
    /// GitHub since, the rest of the exchange asks it by this name.
    var fullName: String?
    /// The files read anew, decoded as they arrived (nil: GitHub gave no time to stamp hand edits at).
    var decodings: EarlyDecodings?

    func checkPrivate() throws {
        if let madePublic { throw RemoteFailure.madePublic(repository: madePublic) }
    }
}

/// The branch's ref and the repository's visibility, as the round trip of a machine that joins
/// read them (`joinBranch`), for the read step.
struct BranchRound {
    let ref: RefRead
    let visibility: Result<Conditional<GitHubRepository>, GitHubError>
}

/// What the merge step planned: the attempt's input, the plan, what it changes here and the
/// files it writes there (nil: removed).
struct MergedExchange {
    var attempt: RemoteAttempt
    let plan: RemoteExchange.Plan
    let changes: ReplicaChanges
    let files: [String: [UInt8]?]
}

extension RemotePhase {
    /// Step 1: the branch's ref and the repository's visibility (conditional), and, when the
    /// branch moved, what changed there. Nil when the repository had no commit yet and its
    /// first (the stub, through the Contents API) was just made: the exchange starts again.
    func readRemote(_ settings: RemoteSettings, readRef: Bool, attempt: Int, madeFirstCommit: inout Bool,
                    joined: BranchRound? = nil, _ session: SyncSession) throws -> RemoteSnapshot? {
        var settings = settings
        var snapshot = RemoteSnapshot(known: RemoteTree(entries: try session.store.remoteEntries()), head: settings.headCommit,
                                      refETag: settings.refETag)
        // What is known of the tree lacks its root (GitHub named a write otherwise than this
        // machine did, or an older doogit knew it): listed again before anything is written.
        let relist = snapshot.head != nil && snapshot.known.rootSHA == nil
        guard readRef || snapshot.head == nil || relist else { return snapshot }
        let conditional = attempt == 0 && snapshot.head != nil && !relist
        // A machine that joins has them already, from the round trip that checked the branch.
        let (ref, visibility) = try joined.map { ($0.ref, $0.visibility) } ?? session.github.branchRefAndRepository(
            repository: settings.fullName, branch: settings.branch, refETag: conditional ? settings.refETag : nil,
            id: settings.repositoryID, repositoryETag: settings.repositoryETag)
        switch visibility {
        case .success(.modified(let found, let etag)):
            try session.store.recordRemoteRepository(etag: etag, isPublic: !found.isPrivate, fullName: found.fullName)
            if found.isPrivate { snapshot.checkedPrivate = true } else { snapshot.madePublic = found.fullName }
            snapshot.fullName = found.fullName
            settings.fullName = found.fullName
        case .success(.notModified):
            if settings.repositoryPublic { snapshot.madePublic = settings.fullName } else { snapshot.checkedPrivate = true }
        case .failure(.notFound), .failure(.unavailable):
            throw try missingBranch(settings, session)
        case .failure(let error):
            throw error
        }
        switch ref {
        case .notModified(let date):
            snapshot.date = date
        case .head(let commit, let etag, let date):
            (snapshot.date, snapshot.refETag) = (date, etag)
            if commit != snapshot.head || relist {
                // Hand edits are stamped at GitHub's time of the read, as the merge stamps them.
                var decodings = date.map { EarlyDecodings(handEdit: RemoteAttempt.handEditStamp(at: $0, machine: session.machine)) }
                let read = try readTree(commit, known: snapshot.known, settings, session) { path, sha, content in
                    decodings?.arrived(path: path, sha: sha, content: content)
                }
                (snapshot.known, snapshot.fresh, snapshot.head, snapshot.decodings) = (read.tree, read.files, commit, decodings)
            }
        case .empty:
            // A repository without a commit: its first is the stub, through the Contents API.
            guard !madeFirstCommit else {
                throw RemoteFailure.failed(repository: settings.fullName, .unexpectedResponse("the repository stays empty"))
            }
            try snapshot.checkPrivate()
            _ = try session.github.writeFile(repository: settings.fullName, path: RemoteLayout.stubPath, branch: settings.branch,
                                             content: RemoteLayout.stub, sha: nil, message: "doogit: the todos' home")
            madeFirstCommit = true
            return nil
        case .missing:
            throw try missingBranch(settings, session)
        }
        return snapshot
    }

    /// Before this machine's first exchange: the branch that other machines write, should one
    /// have written since `remote init` (the repository's default branch may have moved meanwhile).
    /// Most often the branch found at `remote init` is the one the machines write, and its
    /// `remote.jsonl` says so: that file is asked in the round trip that reads the branch's ref
    /// and the repository, whose answers the read step then takes (`joined`) rather than ask
    /// again. Otherwise the branch is looked for; where another is found, the answers about
    /// this one are dropped.
    func joinBranch(_ settings: RemoteSettings, _ session: SyncSession) throws -> (settings: RemoteSettings, joined: BranchRound?) {
        guard !settings.exchanged && settings.headCommit == nil else { return (settings, nil) }
        // As the read step would ask them: a machine that never read the branch has no ETag for its ref.
        let round = try session.github.branchRefRepositoryAndFile(
            repository: settings.fullName, branch: settings.branch, refETag: nil, id: settings.repositoryID,
            repositoryETag: settings.repositoryETag, path: RemoteLayout.metaPath)
        let joined = BranchRound(ref: round.ref, visibility: round.repository)
        if RemoteBranch.namesItself(try round.file.get(), branch: settings.branch) { return (settings, joined) }
        // The repository as the round trip read it; asked again only where it answered 304 (no body).
        let repository: GitHubRepository
        if case .success(.modified(let found, _)) = round.repository {
            repository = found
        } else {
            do throws(GitHubError) {
                repository = try session.github.repository(id: settings.repositoryID)
            } catch .notFound, .unavailable {
                throw RemoteFailure.repositoryMissing(repository: settings.fullName)
            } catch {
                throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
            }
        }
        let found = try RemoteBranch.find(repository: settings.fullName, defaultBranch: repository.defaultBranch ?? settings.branch,
                                          madeByDoogit: true, github: session.github)
        guard found.holdsDoogitFiles, found.branch != settings.branch else { return (settings, joined) }
        try session.store.setRemoteBranch(found.branch)
        return (try session.store.remoteSettings() ?? settings, nil)
    }

    /// The tree of a commit a ref has just named. Right after a write GitHub's replicas can lag,
    /// and answer 404 for a moment: asked again once after a pause, then a failure to try again later.
    private func readTree(_ commit: String, known: RemoteTree, _ settings: RemoteSettings, _ session: SyncSession,
                          arrived: (_ path: String, _ sha: String, _ content: [UInt8]) -> Void) throws -> RemoteTree.Read
    {
        let blobs = RemoteBlobReader(progress: session.store.readProgress(RemoteBlobReader.progressName)) { wanted in
            try session.checkBudget()
            return session.requestRoom(upTo: wanted)
        }
        do {
            return try known.read(commit: commit, repository: settings.fullName, github: session.github, blobs: blobs,
                                      arrived: arrived)
        } catch GitHubError.notFound(.gitObject, _) {
            guard session.github.waitBeforeRetry(after: 1) else { throw RemoteFailure.lagging(repository: settings.fullName) }
            do {
                return try known.read(commit: commit, repository: settings.fullName, github: session.github, blobs: blobs,
                                      arrived: arrived)
            } catch GitHubError.notFound(.gitObject, _) {
                throw RemoteFailure.lagging(repository: settings.fullName)
            }
        }
    }

    /// Step 2: the merge of what was read with this machine's todos; nil when the remote is
    /// settled (nothing changed there, nothing waits here), which is recorded.
    func mergeRemote(_ snapshot: RemoteSnapshot, _ settings: RemoteSettings, _ summary: inout RemoteSummary,
                     _ session: SyncSession) throws -> MergedExchange? {
        let store = session.store
        let pending = try store.replica.pendingTodos()
        let pendingRepositories = try store.replica.pendingRepositories()
        // GitHub's time: of this read, or (the closing exchange reads nothing) as its answers tell it.
        let now = snapshot.date ?? session.github.gitHubNow ?? session.clock()
        let cachedMeta = try RemoteWaiting.meta(store: store)
        let horizon = settings.horizonDays?.value ?? cachedMeta?.horizonDays.value ?? RemoteMeta.defaultHorizonDays
        let expired = try store.replica.repositoriesWithRemovals(before: RemoteMeta.horizonStart(days: horizon, before: now))
        // Settled: nothing changed there, nothing waits here, and the stub is this format's (an
        // older one is written over at once, so that an older doogit stops writing there).
        if snapshot.fresh.isEmpty && snapshot.head == settings.headCommit && pending.isEmpty && pendingRepositories.isEmpty
            && expired.isEmpty && settings.exchanged && settings.forget.isEmpty && settings.horizonDays == nil && settings.board == nil
            && snapshot.known.entries[RemoteLayout.stubPath]?.sha == RemoteLayout.stubName {
            if !session.dryRun {
                try store.recordRemote(set: [], removed: [], head: snapshot.head, refETag: snapshot.refETag, exchanged: false,
                                       at: session.clock())
            }
            return nil
        }
        var attempt = try RemoteAttempt(settings: settings, known: snapshot.known, fresh: snapshot.fresh, pending: pending,
                                        pendingRepositories: pendingRepositories, expired: expired, now: now, store: store,
                                        machine: session.machine, decodings: snapshot.decodings)
        let plan = try attempt.plan()
        summary.todos = attempt.local.todos.count
        summary.noteDropped(plan, here: attempt.local)
        summary.noteUntracked(plan, here: attempt.local, changedHere: Set(pending.keys))
        summary.handEdits = max(summary.handEdits, attempt.handEdits)
        if let ahead = attempt.thisClockAheadBy { summary.thisClockAheadBy = ahead }
        if let ahead = attempt.otherClockAheadBy { summary.otherClockAheadBy = ahead }
        var changes = ReplicaChanges(from: attempt.local, to: plan.local)
        (changes.purgedTodos, changes.purgedRepositories) = (plan.purgedTodos, plan.purgedRepositories)
        var files = plan.files
        if attempt.needsStub { files[RemoteLayout.stubPath] = RemoteLayout.stub }
        return MergedExchange(attempt: attempt, plan: plan, changes: changes, files: files)
    }

    /// Step 3: the merge committed here, before anything is written there: a sync killed at any
    /// point loses nothing, and the next one reads and sends again what this one did not. With
    /// nothing to write, what was read is recorded as this machine's knowledge of the remote, and
    /// everything here is there: the list counts as exchanged (a machine that joins with nothing
    /// of its own writes nothing, and later absences there are removals, not news from here).
    func commitHere(_ merge: MergedExchange, _ snapshot: RemoteSnapshot, _ session: SyncSession) throws {
        let store = session.store
        let stored = try store.remoteEntries()
        try store.transaction {
            try store.replica.apply(merge.changes, at: session.clock())
            try store.replica.observeClock(merge.plan.local.latestStamp, reference: snapshot.date)
            try store.replica.awaitSending(todos: merge.plan.sending, in: merge.plan.local, repositories: merge.plan.sendingRepositories)
            guard merge.files.isEmpty else { return }
            let recorded = merge.attempt.known.changes(from: stored)
            try store.recordRemote(set: recorded.set, removed: recorded.removed, head: snapshot.head, refETag: snapshot.refETag,
                                   exchanged: true, at: session.clock())
            try store.replica.sent(todos: merge.attempt.held(merge.plan), repositories: merge.attempt.heldRepositories(merge.plan))
        }
    }
}
