import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exchanges the todo list with the file on GitHub that `remote init` chose (`todos.jsonl`):
/// read it (conditional on the last ETag, so an unchanged file is one free 304), merge it with
/// this machine's list, commit the merge here in one transaction, and write it back over the
/// blob sha read. A write that lost a race (409, 422) is read, merged and tried again, at most
/// 5 times with jittered pauses. Once machines have settled, a sync with nothing new on either
/// side is one 304 and no write.
///
/// A sync exchanges twice: first, so the phases that follow work on the merged list, and last
/// (`closing`), when the sync itself changed something since (imports, issues pulled, trailers,
/// renames), so that what it changed reaches the other machines in the same sync. The closing
/// exchange writes over the file this machine just wrote or read, without reading it again.
///
/// A failed exchange fails only itself: the failure is kept in the summary (the sync exits 1,
/// or 75 when trying again later will do) and the other phases run; the local changes wait.
/// Before each write the repository is checked to be still private (free when unchanged), and
/// values changed by hand in the file (without their stamps) are taken as changes made when it
/// was read.
struct RemotePhase: SyncPhase {
    static let maximumRetries = 5
    let closing: Bool

    func run(_ session: inout SyncSession) throws {
        guard let settings = try session.store.remoteSettings() else { return }
        var summary = session.summary.remote ?? RemoteSummary(repository: settings.fullName)
        if closing {
            guard session.summary.remote != nil, summary.failure == nil, !session.dryRun,
                  try session.store.replica.localChangeCount() > settings.exchangedChanges else { return }
        }
        defer { session.summary.remote = summary }
        do {
            try exchange(settings, readFirst: !closing, &summary, &session)
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

    private func exchange(_ settings: RemoteSettings, readFirst: Bool, _ summary: inout RemoteSummary,
                          _ session: inout SyncSession) throws {
        var cached = settings
        var attempt = 0
        var read = readFirst
        while true {
            try session.checkBudget()
            let pending = try session.store.replica.localChangeCount() - cached.exchangedChanges
            var remoteBytes = cached.content, remoteSHA = cached.blobSHA, etag = cached.etag
            var date: Timestamp?
            var fileMissing = false
            if read {
                let answer = try session.github.readFile(
                    repository: settings.fullName, path: settings.path, branch: settings.branch,
                    ifNoneMatch: attempt == 0 && cached.content != nil ? cached.etag : nil)
                date = answer.date
                if let date { session.githubClockOffset = date.millisecondsSinceEpoch - session.clock().millisecondsSinceEpoch }
                switch answer.answer {
                case .notModified:
                    // Unchanged there; only changes made here decide whether to write.
                    guard pending > 0 else {
                        if !session.dryRun {
                            try session.store.recordExchange(exchangedChanges: cached.exchangedChanges, etag: nil, at: session.clock())
                        }
                        return
                    }
                case .file(let file, let tag):
                    // This machine's own last write, read back: nothing new unless it changed something since.
                    if file.sha == cached.blobSHA && pending <= 0 {
                        if !session.dryRun {
                            try session.store.recordRemoteFile(sha: file.sha, etag: tag, content: file.content,
                                                               exchangedChanges: cached.exchangedChanges, at: session.clock())
                        }
                        return
                    }
                    (remoteBytes, remoteSHA, etag) = (file.content, file.sha, tag)
                case .missing:
                    (remoteBytes, remoteSHA, etag, fileMissing) = (nil, nil, nil, true)
                }
            }
            // The closing exchange reads nothing: GitHub's time is this machine's, set right by
            // the first exchange's read.
            let localNow = session.clock().millisecondsSinceEpoch
            if date == nil, let offset = session.githubClockOffset { date = Timestamp(millisecondsSinceEpoch: localNow + offset) }
            var stopwatch = Stopwatch()
            summary.milliseconds = []
            // Values written there by hand are dated by GitHub's time of the read.
            let handEdit = HybridTimestamp(wall: date?.millisecondsSinceEpoch ?? localNow, counter: 0, machine: session.machine)
            var remote = Replica.empty
            var handEdits = 0
            var olderVersion = false
            if let remoteBytes {
                do {
                    let file = try TodoFile.decode(remoteBytes, handEdit: handEdit)
                    (remote, handEdits, olderVersion) = (file.replica, file.handEdits, file.majorVersion < TodoFile.majorVersion)
                } catch {
                    throw RemoteFailure.unreadableFile(repository: settings.fullName, path: settings.path, error)
                }
            }
            summary.milliseconds.append(("read the file", stopwatch.lap()))
            let local = try session.store.replica.read()
            summary.milliseconds.append(("read the list here", stopwatch.lap()))
            let asRead = remote
            if remoteSHA != settings.blobSHA {
                // A value that a known copy has at the same stamp, but otherwise: changed by hand.
                var known = [local.replica]
                if let old = settings.content, let previous = try? TodoFile.decode(old, handEdit: handEdit).replica { known.append(previous) }
                let restamped = remote.restampingHandEdits(against: known, at: handEdit)
                (remote, handEdits) = (restamped.replica, handEdits + restamped.edits)
            }

            // Merge, clamping stamps from clocks far ahead of GitHub's.
            var (mine, theirs) = (local.replica, remote)
            if let date {
                let clampedMine = mine.clamped(to: date), clampedTheirs = theirs.clamped(to: date)
                (mine, theirs) = (clampedMine.replica, clampedTheirs.replica)
                if let ahead = clampedMine.aheadBy { summary.thisClockAheadBy = ahead }
                if let ahead = clampedTheirs.aheadBy { summary.otherClockAheadBy = ahead }
            }
            let merged = merge(mine, theirs)
            summary.milliseconds.append(("merge", stopwatch.lap()))
            let changes = ReplicaChanges(from: local.replica, to: merged)
            let bytes = TodoFile.encode(merged)
            summary.milliseconds.append(("write the file", stopwatch.lap()))
            (summary.todos, summary.fileBytes) = (merged.todos.count, bytes.count)
            // Compared as lists, not bytes: a newer doogit may order what it adds otherwise, and
            // two versions must not rewrite each other's file on every sync. A file of an older
            // version, or with values written by hand, is written back.
            let needsWrite = remoteBytes == nil || merged != remote || handEdits > 0 || olderVersion
            if session.dryRun {
                summary.pulled += changes.count
                if needsWrite { summary.pushed += Self.changedLines(from: asRead, to: merged) }
                return
            }

            // The merge is committed here before anything is written there: a sync killed at any
            // point loses nothing, and the next one sends what this one did not.
            try session.store.transaction {
                try session.store.replica.apply(changes, at: session.clock())
                try session.store.replica.observeClock(merged.latestStamp, reference: date)
                try session.store.recordRemoteFile(sha: remoteSHA, etag: etag, content: remoteBytes)
            }
            summary.pulled += changes.count
            summary.handEdits = max(summary.handEdits, handEdits)  // the same edits, read again on a retry
            summary.milliseconds.append(("commit here", stopwatch.lap()))
            guard needsWrite else {
                try session.store.recordExchange(exchangedChanges: local.changeCount, etag: etag, at: session.clock())
                return
            }
            try checkStillPrivate(&cached, fileMissing: fileMissing, session)
            let written: String
            do throws(GitHubError) {
                written = try session.github.writeFile(
                    repository: settings.fullName, path: settings.path, branch: settings.branch, content: bytes, sha: remoteSHA,
                    message: Self.commitMessage(from: asRead, to: merged))
            } catch where GitHubClient.isLostRace(error) {
                attempt += 1
                summary.retries += 1
                guard attempt <= Self.maximumRetries else {
                    throw RemoteFailure.keptChanging(repository: settings.fullName, attempts: attempt)
                }
                (cached.content, cached.etag, read) = (nil, nil, true)
                // Apart, so that two machines racing do not keep colliding.
                usleep(UInt32(Int.random(in: 20...120) * attempt) * 1000)
                continue
            } catch {
                throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
            }
            try session.store.recordRemoteFile(sha: written, etag: nil, content: bytes, exchangedChanges: local.changeCount,
                                               at: session.clock())
            summary.pushed += Self.changedLines(from: asRead, to: merged)
            return
        }
    }

    /// Before a write: the repository must still exist and be private (a conditional read, free
    /// when it did not change), and, for a file not there yet, its branch must exist (a
    /// repository with no commit yet gets its first one on its default branch).
    private func checkStillPrivate(_ settings: inout RemoteSettings, fileMissing: Bool, _ session: SyncSession) throws {
        let repository: GitHubRepository?
        do {
            switch try session.github.repository(id: settings.repositoryID, ifNoneMatch: settings.repositoryETag) {
            case .notModified: repository = nil
            case .modified(let found, let etag):
                guard found.isPrivate else { throw RemoteFailure.madePublic(repository: found.fullName) }
                try session.store.recordRemoteRepository(etag: etag)
                settings.repositoryETag = etag
                repository = found
            }
        } catch GitHubError.notFound, GitHubError.unavailable {
            throw RemoteFailure.repositoryMissing(repository: settings.fullName)
        }
        guard fileMissing else { return }
        let defaultBranch = try repository?.defaultBranch ?? session.github.repository(id: settings.repositoryID).defaultBranch
        guard settings.branch != defaultBranch else { return }
        let owner = String(settings.fullName.prefix(while: { $0 != "/" })), name = String(settings.fullName.drop(while: { $0 != "/" }).dropFirst())
        if try !session.github.branchExists(owner: owner, name: name, branch: settings.branch) {
            throw RemoteFailure.branchMissing(repository: settings.fullName, branch: settings.branch,
                                              defaultBranch: defaultBranch ?? "main")
        }
    }
}
