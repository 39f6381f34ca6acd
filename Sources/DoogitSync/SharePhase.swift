import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// Exchanges each shared repository's todos (`repo share`) with the branch they live on in that
/// repository (`Store.sharedBranch`): an orphan whose tree holds only doogit's files for this
/// one repository, in the remote's layout and by the remote's merge (`ShareAttempt`).
///
/// An exchange is the remote's four steps. The read asks the branch's ref and the repository
/// together, each conditional on its last ETag (a settled branch is two free 304s); the merge
/// is committed here before anything is written there; the write is one commit on the commit
/// read, checked to keep every other file before the branch moves without force (a branch that
/// is not there yet is made by the first write, with no parent). A lost race is read, merged
/// and tried again, at most 5 times.
///
/// GitHub's permissions decide the rest: a token that may not push (the repository's
/// `permissions.push`) reads the branch and writes nothing, its changes waiting here, said once
/// per change in their number; a repository GitHub no longer shows keeps what was last seen. A
/// failure of one branch fails only its exchange, kept in the summary with its advice.
public struct SharePhase: SyncPhase {
    /// The closing exchange, after the phases that may change todos themselves, writes what they
    /// changed; it asks the branch only when something here differs from it.
    let closing: Bool
    /// Only this repository's share (`repo share`, right after sharing), and no look for others'.
    var only: Int64? = nil

    func run(_ session: inout SyncSession) throws {
        for share in try session.store.shares() where only == nil || share.repositoryID == only {
            let earlier = session.summary.shares.first { $0.repositoryID == share.repositoryID }
            if closing && (earlier?.failure != nil || session.dryRun) { continue }
            var summary = earlier ?? ShareSummary(repositoryID: share.repositoryID, repository: share.fullName)
            // What the sync said before it (the closing exchange keeps what the first found).
            if earlier == nil { summary.waitingNoted = share.waitingNoted }
            do {
                try exchange(share, &summary, &session)
            } catch let failure as ShareFailure {
                summary.failure = failure
            } catch let error as GitHubError {
                if let stop = SyncSession.stop(for: error), !Self.concernsOnlyTheExchange(stop) { throw stop }
                summary.failure = Self.failure(error, repository: share.fullName)
            }
            session.summary.shares.removeAll { $0.repositoryID == share.repositoryID }
            session.summary.shares.append(summary)
        }
        if !closing && only == nil && !session.dryRun { try lookForSharedBranches(&session) }
    }

    /// At most this many repositories are looked at per sync: the first look at each costs a
    /// request of the hour's budget (later ones are free 304s), and the rest wait their turn.
    public static let looksPerSync = 10

    /// Tracked repositories pushed to since they were last looked at (a branch made moves a
    /// repository's `pushed_at`): whether one has a shared branch, asked in one window, each
    /// conditional on its last look's ETag; found, it is said once, with how to see its todos. A
    /// look that fails is tried again next time; only what stops every phase stops the sync.
    private func lookForSharedBranches(_ session: inout SyncSession) throws {
        let candidates = try session.store.shareCandidates(limit: Self.looksPerSync)
        guard !candidates.isEmpty else { return }
        try session.checkBudget()
        let looked = try Self.look(at: candidates, store: session.store, github: session.github)
        for error in looked.failures {
            if let stop = SyncSession.stop(for: error), !Self.concernsOnlyTheExchange(stop) { throw stop }
        }
        session.summary.sharesOffered += looked.found.map(\.fullName)
    }

    /// Looks at the repositories for a shared branch, in one window (`repo add` does too, for
    /// those it adds): returns those found that were never said, and the looks that failed,
    /// each left to be looked at again by the next sync.
    public static func look(at candidates: [Store.ShareCandidate], store: Store, github: GitHubClient) throws
        -> (found: [Store.ShareCandidate], failures: [GitHubError])
    {
        var found: [Store.ShareCandidate] = [], failures: [GitHubError] = []
        let looks = github.branchLooks(candidates.map { ($0.fullName, $0.etag) }, branch: Store.sharedBranch)
        for (candidate, answer) in zip(candidates, looks) {
            switch answer {
            case .success(.modified(let exists, let etag)):
                if try store.recordShareCheck(candidate.id, pushedAt: candidate.pushedAt, found: exists, etag: etag) {
                    found.append(candidate)
                }
            case .success(.notModified):
                if try store.recordShareCheck(candidate.id, pushedAt: candidate.pushedAt, found: nil, etag: nil) { found.append(candidate) }
            case .failure(let error):
                failures.append(error)
                try store.recordShareCheck(candidate.id, pushedAt: nil, found: nil, etag: nil)
            }
        }
        return (found, failures)
    }

    private static func concernsOnlyTheExchange(_ stop: SyncStop) -> Bool {
        if case .interrupted = stop { return true }
        return false
    }

    static func failure(_ error: GitHubError, repository: String) -> ShareFailure {
        switch error {
        case .network, .serverError, .outcomeUnknown: return .unavailable(repository: repository, RepositoryPhase.describe(error))
        default: return .failed(repository: repository, RepositoryPhase.describe(error))
        }
    }

    private func exchange(_ stored: ShareSettings, _ summary: inout ShareSummary, _ session: inout SyncSession) throws {
        let id = stored.repositoryID
        if closing {
            // Nothing changed here since the first exchange: the branch is not asked again.
            let known = RemoteTree(entries: try session.store.shareEntries(id))
            guard try ShareAttempt(share: stored, known: known, fresh: [:], now: session.github.gitHubNow ?? session.clock(),
                                   store: session.store, machine: session.machine).hasNews else { return }
        }
        for attempt in 0...RemotePhase.maximumRetries {
            try session.checkBudget()
            if attempt > 0 {
                // Apart, so that two writers racing do not keep colliding.
                _ = session.github.wait(milliseconds: Int.random(in: 20...120) * attempt)
            }
            guard let before = try session.store.share(of: id) else { return }
            var snapshot = try read(before, conditional: attempt == 0, session)
            // As the read left it: public now, allowed to push.
            let share = try session.store.share(of: id) ?? before
            let merged = try ShareAttempt(share: share, known: snapshot.known, fresh: snapshot.fresh, now: snapshot.now,
                                          store: session.store, machine: session.machine)
            if snapshot.fresh[merged.path] != nil { snapshot.known.entries[merged.path]?.removals = merged.removals }
            // Settled: the branch where it was, its tree known, nothing read anew or changed here.
            if merged.isSettled && snapshot.head == before.headCommit && snapshot.known.rootSHA != nil {
                if !session.dryRun {
                    try session.store.recordShare(id, set: [], removed: [], head: snapshot.head, refETag: snapshot.refETag)
                    try noteWaiting(0, share, &summary, session)
                }
                return
            }
            let (plan, changes) = try merged.plan()
            summary.pulled += changes.count(beyond: merged.localAtGitHubTime)
            summary.droppedEdits += plan.dropped.count
            guard !session.dryRun else {
                if !plan.files.isEmpty { summary.pushed += plan.changedLines }
                return
            }
            try commitHere(merged, plan, changes, snapshot, session)
            guard !plan.files.isEmpty else { return try noteWaiting(0, share, &summary, session) }
            if share.isPublic && !share.publicAllowed { throw ShareFailure.madePublic(repository: share.fullName) }
            guard share.canPush != false else { return try noteWaiting(plan.changedLines, share, &summary, session) }
            switch try write(plan, snapshot, share, session) {
            case .written:
                summary.pushed += plan.changedLines + merged.handEdits
                return try noteWaiting(0, share, &summary, session)
            case .refused:
                return try noteWaiting(plan.changedLines, share, &summary, session)
            case .lostRace:
                continue
            }
        }
        throw ShareFailure.keptChanging(repository: stored.fullName)
    }

    private func noteWaiting(_ count: Int, _ share: ShareSettings, _ summary: inout ShareSummary, _ session: SyncSession) throws {
        summary.waiting = count
        if count != share.waitingNoted { try session.store.noteShareWaiting(share.repositoryID, count: count) }
    }

    struct Snapshot {
        var known: RemoteTree
        var fresh: [String: [UInt8]?] = [:]
        var head: String?
        var refETag: String?
        var now: Timestamp
    }

    /// Step 1: the branch's ref and the repository, each conditional on its last ETag, and what
    /// changed on the branch since this machine last read it. What GitHub says of the repository
    /// is recorded (a dry run too: it is GitHub's news, not the sync's change).
    private func read(_ share: ShareSettings, conditional: Bool, _ session: SyncSession) throws -> Snapshot {
        let store = session.store, id = share.repositoryID
        let (ref, repository) = try session.github.branchRefAndRepository(
            repository: share.fullName, branch: share.branch, refETag: conditional ? share.refETag : nil, id: id,
            repositoryETag: share.repositoryETag)
        switch repository {
        case .success(.modified(let found, let etag)):
            try store.recordShareRepository(id, etag: etag, isPublic: !found.isPrivate, canPush: found.canPush)
        case .success(.notModified):
            break
        case .failure(.notFound), .failure(.unavailable):
            try store.recordShareUnreadable(id, at: session.clock())
            throw ShareFailure.unreadable(repository: share.fullName)
        case .failure(let error):
            throw error
        }
        var snapshot = Snapshot(known: RemoteTree(entries: try store.shareEntries(id)), head: share.headCommit, refETag: share.refETag,
                                now: session.github.gitHubNow ?? session.clock())
        switch ref {
        case .notModified(let date):
            if let date { snapshot.now = date }
            // Its tree not known here (forgotten after a failed write): listed again.
            if snapshot.known.rootSHA == nil, let head = share.headCommit {
                (snapshot.known, snapshot.fresh) = try readTree(head, snapshot.known, share, session)
            }
        case .head(let commit, let etag, let date):
            if let date { snapshot.now = date }
            snapshot.refETag = etag
            if commit != share.headCommit || snapshot.known.rootSHA == nil {
                (snapshot.known, snapshot.fresh) = try readTree(commit, snapshot.known, share, session)
                snapshot.head = commit
            }
        case .missing(let date):
            // Deleted on GitHub since this machine wrote or read it: made again only when asked.
            guard share.headCommit == nil else { throw ShareFailure.branchGone(repository: share.fullName, branch: share.branch) }
            // No branch yet: the first write makes it, with doogit's files alone.
            if let date { snapshot.now = date }
            (snapshot.known, snapshot.head, snapshot.refETag) = (RemoteTree(entries: [:]), nil, nil)
        case .empty:
            throw ShareFailure.emptyRepository(repository: share.fullName)
        }
        return snapshot
    }

    /// The branch's tree at `commit`: the folders and files whose git names changed since
    /// this machine last read them, and no others.
    private func readTree(_ commit: String, _ known: RemoteTree, _ share: ShareSettings, _ session: SyncSession) throws
        -> (tree: RemoteTree, fresh: [String: [UInt8]?])
    {
        // A progress of its own: a read of the remote's left unfinished is not this one's.
        let blobs = RemoteBlobReader(progress: session.store.readProgress(RemoteBlobReader.progressName + " \(share.repositoryID)")) {
            wanted in
            try session.checkBudget()
            return session.requestRoom(upTo: wanted)
        }
        let read = try RemotePhase.afterLag(of: share.fullName, session) {
            try known.read(commit: commit, repository: share.fullName, github: session.github, blobs: blobs) { _, _, _ in }
        }
        return (read.tree, read.files)
    }

    /// Step 3: the merge committed here, with the branch as read: what differs from it here is
    /// what waits to be sent. What came from the branch waits for this machine's remote, if any.
    private func commitHere(_ merged: ShareAttempt, _ plan: RemoteExchange.Plan, _ changes: ReplicaChanges, _ snapshot: Snapshot,
                            _ session: SyncSession) throws {
        let store = session.store, id = merged.share.repositoryID
        let recorded = snapshot.known.changes(from: try store.shareEntries(id))
        try store.transaction {
            if !changes.isEmpty {
                try store.replica.apply(changes, at: session.clock())
                try store.replica.awaitSending(todos: Set(changes.todos.map(\.entry.uuid)), in: plan.local, repositories: [])
            }
            try store.replica.observeClock(plan.local.latestStamp, reference: snapshot.now)
            try store.recordShare(id, set: recorded.set, removed: recorded.removed, head: snapshot.head, refETag: snapshot.refETag)
        }
    }

    /// Step 4: one commit on the commit read (or the branch's first), as `BranchWrite` makes it.
    private func write(_ plan: RemoteExchange.Plan, _ snapshot: Snapshot, _ share: ShareSettings, _ session: SyncSession) throws
        -> WriteOutcome
    {
        var files = plan.files
        if snapshot.known.entries[RemoteLayout.stubPath] == nil { files[RemoteLayout.stubPath] = RemoteLayout.stub }
        let write = BranchWrite(repository: share.fullName, branch: share.branch, head: snapshot.head, known: snapshot.known,
                                files: files, pieces: plan.pieces)
        let made: GitTreeListing
        do throws(GitHubError) {
            made = try write.makeTree(session.github)
        } catch .notFound, .forbidden {
            // GitHub answers a write without push access as not found (or forbidden): the token
            // reads but may not write. Nothing more is tried until GitHub's answer about the
            // repository changes, or `repo share` is run again.
            try session.store.recordShareRepository(share.repositoryID, etag: share.repositoryETag, isPublic: share.isPublic,
                                                    canPush: false)
            return .refused
        } catch {
            throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
        }
        let written: (tree: RemoteTree, commit: String)
        do {
            guard let done = try write.finish(made, message: RemotePhase.commitMessage(plan, host: ""), session) else { return .lostRace }
            written = done
        } catch let error as GitHubError {
            try? session.store.forgetShareTree(share.repositoryID)
            if case .validationFailed(let message) = error, message.lowercased().contains("not authorized to push") {
                throw ShareFailure.protectedBranch(repository: share.fullName, branch: share.branch)
            }
            throw error
        } catch let failure as RemoteFailure {
            try? session.store.forgetShareTree(share.repositoryID)
            if case .wouldDropFiles(_, let paths) = failure { throw ShareFailure.wouldDropFiles(repository: share.fullName, paths: paths) }
            throw ShareFailure.unavailable(repository: share.fullName, "GitHub's copies lag right after a write")
        }
        let store = session.store
        let recorded = written.tree.changes(from: try store.shareEntries(share.repositoryID))
        try store.recordShare(share.repositoryID, set: recorded.set, removed: recorded.removed, head: written.commit, refETag: nil)
        return .written
    }

    enum WriteOutcome {
        case written
        /// Another writer moved the branch first: read, merge and try again.
        case lostRace
        /// GitHub refused it for want of push access: the changes wait.
        case refused
    }
}
