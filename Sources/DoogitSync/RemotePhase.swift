import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exchanges the todo list with the remote that `remote init` chose (`RemoteLayout`), one
/// commit at a time through the Git Data API:
///
/// - Read: the branch's ref, conditional on its last ETag (a settled sync is that one free 304);
///   when it moved, the folders and files whose git names changed since this machine last read
///   them, and no others.
/// - Merge (`RemoteExchange`) what was read with this machine's todos of the repositories
///   concerned, and commit the merge here in one transaction before anything is written there:
///   a sync killed at any point loses nothing.
/// - Write the files that changed, in one commit on the branch's commit read, and move the
///   branch to it without force: GitHub refuses a move that is not a fast forward (422), a lost
///   race, which is read, merged and tried again, at most 5 times with jittered pauses.
///
/// A sync exchanges twice: first, so the phases that follow work on the merged list, and last
/// (`closing`), when something here waits to be sent (what the sync changed itself), without
/// reading again. A remote in the single-file form of format 2 is taken over in one commit. A
/// failed exchange fails only itself: the failure is kept in the summary (exit 1, or 75 when
/// trying again later will do) and the other phases run; what waits here goes next time.
struct RemotePhase: SyncPhase {
    static let maximumRetries = 5
    let closing: Bool

    func run(_ session: inout SyncSession) throws {
        guard let settings = try session.store.remoteSettings() else { return }
        var summary = session.summary.remote ?? RemoteSummary(repository: settings.fullName)
        if closing {
            guard session.summary.remote != nil, summary.failure == nil, !session.dryRun,
                  try session.store.replica.hasPending() else { return }
        }
        defer { session.summary.remote = summary }
        do {
            try exchange(readFirst: !closing, &summary, &session)
        } catch let failure as RemoteFailure {
            summary.failure = failure
        } catch let error as GitHubError {
            // A refused token, a wrong API URL or a used-up rate limit stop every phase alike.
            switch SyncSession.stop(for: error) {
            case let stop? where !Self.concernsOnlyTheExchange(stop): throw stop
            default: summary.failure = RemoteFailure.of(error, repository: settings.fullName)
            }
        }
    }

    private static func concernsOnlyTheExchange(_ stop: SyncStop) -> Bool {
        if case .interrupted = stop { return true }
        return false
    }

    private func exchange(readFirst: Bool, _ summary: inout RemoteSummary, _ session: inout SyncSession) throws {
        var attempt = 0
        var read = readFirst
        var madeFirstCommit = false
        while true {
            try session.checkBudget()
            guard let settings = try session.store.remoteSettings() else { return }
            var stopwatch = Stopwatch()
            // This exchange's steps, the first's and the closing one's apart (for `sync -v`).
            summary.milliseconds.removeAll { $0.step.hasPrefix("closing ") == !readFirst }
            let step = { (name: String) in readFirst ? name : "closing " + name }
            var known = RemoteTree(entries: try session.store.remoteEntries())
            var head = settings.headCommit, refETag = settings.refETag
            var fresh: [String: [UInt8]?] = [:]
            var date: Timestamp?
            if read || head == nil {
                let answer = try session.github.branchRef(repository: settings.fullName, branch: settings.branch,
                                                          ifNoneMatch: attempt == 0 && head != nil ? refETag : nil)
                switch answer {
                case .notModified(let answered):
                    date = answered
                case .head(let commit, let etag, let answered):
                    (date, refETag) = (answered, etag)
                    if commit != head {
                        let found = try known.read(commit: commit, repository: settings.fullName, github: session.github)
                        (known, fresh, head) = (found.tree, found.files, commit)
                    }
                case .empty:
                    // A repository without a commit: its first is the stub, through the Contents API.
                    guard !madeFirstCommit else { throw RemoteFailure.failed(repository: settings.fullName,
                                                                             .unexpectedResponse("the repository stays empty")) }
                    try checkStillPrivate(settings, session)
                    _ = try session.github.writeFile(repository: settings.fullName, path: RemoteLayout.stubPath,
                                                     branch: settings.branch, content: RemoteLayout.stub, sha: nil,
                                                     message: "doogit: the todos' home")
                    madeFirstCommit = true
                    continue
                case .missing:
                    throw try missingBranch(settings, session)
                }
                if let date { session.githubClockOffset = date.millisecondsSinceEpoch - session.clock().millisecondsSinceEpoch }
            }
            summary.milliseconds.append((step("read"), stopwatch.lap()))
            let pending = try session.store.replica.pendingTodos()
            let pendingRepositories = try session.store.replica.pendingRepositories()
            let now = date ?? Timestamp(millisecondsSinceEpoch: session.clock().millisecondsSinceEpoch + (session.githubClockOffset ?? 0))
            let cachedMeta = try RemoteWaiting.meta(store: session.store)
            let horizon = settings.horizonDays?.value ?? cachedMeta?.horizonDays.value ?? RemoteMeta.defaultHorizonDays
            let expired = try session.store.replica.repositoriesWithRemovals(
                before: Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - horizon * RemoteMeta.dayMilliseconds))
            // Settled: nothing changed there, and nothing waits here.
            if fresh.isEmpty && head == settings.headCommit && pending.isEmpty && pendingRepositories.isEmpty && expired.isEmpty
                && settings.exchanged && settings.forget.isEmpty && settings.horizonDays == nil {
                if !session.dryRun {
                    try session.store.recordRemote(set: [], removed: [], head: head, refETag: refETag, exchanged: false,
                                                   at: session.clock())
                }
                return
            }
            var attemptRun = try RemoteAttempt(settings: settings, known: known, fresh: fresh, pending: pending,
                                               pendingRepositories: pendingRepositories, expired: expired, now: now,
                                               store: session.store, machine: session.machine)
            let plan = try attemptRun.plan()
            summary.milliseconds.append((step("merge"), stopwatch.lap()))
            summary.todos = attemptRun.local.todos.count
            summary.noteDropped(plan, here: attemptRun.local)
            summary.handEdits = max(summary.handEdits, attemptRun.handEdits)
            if let ahead = attemptRun.thisClockAheadBy { summary.thisClockAheadBy = ahead }
            if let ahead = attemptRun.otherClockAheadBy { summary.otherClockAheadBy = ahead }
            var changes = ReplicaChanges(from: attemptRun.local, to: plan.local)
            (changes.purgedTodos, changes.purgedRepositories) = (plan.purgedTodos, plan.purgedRepositories)
            var files = plan.files
            if attemptRun.needsStub { files[RemoteLayout.stubPath] = RemoteLayout.stub }
            if session.dryRun {
                summary.pulled += changes.count
                if !files.isEmpty { summary.pushed += plan.changedLines }
                return
            }

            // The merge is committed here before anything is written there: a sync killed at any
            // point loses nothing, and the next one reads and sends again what this one did not.
            let store = session.store
            let stored = try store.remoteEntries()
            let remote = attemptRun.known
            try store.transaction {
                try store.replica.apply(changes, at: session.clock())
                try store.replica.observeClock(plan.local.latestStamp, reference: date)
                try store.replica.awaitSending(todos: plan.sending, in: plan.local, repositories: plan.sendingRepositories)
                guard files.isEmpty else { return }
                let recorded = remote.changes(from: stored)
                try store.recordRemote(set: recorded.set, removed: recorded.removed, head: head, refETag: refETag, exchanged: false,
                                       at: session.clock())
                try store.replica.sent(todos: attemptRun.held(plan), repositories: attemptRun.heldRepositories(plan))
            }
            summary.pulled += changes.count
            summary.milliseconds.append((step("commit here"), stopwatch.lap()))
            guard !files.isEmpty else { return }

            try checkStillPrivate(settings, session)
            let written = remote.writing(files.reduce(into: [:]) { result, file in
                let removals = (plan.pieces[file.key] ?? nil)?.removals
                result[file.key] = file.value.map { ($0, removals.map { RemoteRemovals(firstSince: $0.first, lastSince: $0.last, oldest: $0.oldest) }) }
            })
            let tree: String, commit: String
            do throws(GitHubError) {
                tree = try session.github.createTree(
                    repository: settings.fullName, base: remote.rootSHA,
                    files: files.sorted { $0.key < $1.key }.map { GitTreeWrite(path: $0.key, content: $0.value) })
                let made = try session.github.createCommit(repository: settings.fullName, message: Self.commitMessage(plan),
                                                           tree: tree, parents: head.map { [$0] } ?? [])
                try session.github.updateRef(repository: settings.fullName, branch: settings.branch, commit: made)
                commit = made
            } catch where GitHubClient.isNotFastForward(error) {
                attempt += 1
                summary.retries += 1
                guard attempt <= Self.maximumRetries else {
                    throw RemoteFailure.keptChanging(repository: settings.fullName, attempts: attempt)
                }
                read = true
                // Apart, so that two machines racing do not keep colliding.
                usleep(UInt32(Int.random(in: 20...120) * attempt) * 1000)
                continue
            } catch {
                throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
            }
            // What this machine wrote is what it knows of the remote now; folders named otherwise
            // than computed here are listed again next time.
            var after = written.tree
            if written.root != tree { after.entries = after.entries.filter { !$0.value.isFolder } }
            let recorded = after.changes(from: stored)
            try store.transaction {
                try store.recordRemote(set: recorded.set, removed: recorded.removed, head: commit, refETag: nil, exchanged: true,
                                       at: session.clock())
                try store.replica.sent(todos: attemptRun.held(plan), repositories: attemptRun.heldRepositories(plan))
            }
            // Values written there by hand go back with their stamps: sent too.
            summary.pushed += plan.changedLines + attemptRun.handEdits
            summary.fileBytes = files.values.reduce(0) { $0 + ($1?.count ?? 0) }
            summary.milliseconds.append((step("write"), stopwatch.lap()))
            return
        }
    }
}
