import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// Exchanges the todo list with the remote that `remote init` chose (`RemoteLayout`), one
/// commit at a time through the Git Data API. An exchange is four steps, tried again from the
/// read when another machine wrote first:
///
/// 1. Read (`readRemote`): the branch's ref and the remote repository's visibility, each
///    conditional on its last ETag (a settled sync is two free 304s, in one round trip; a
///    machine that joins asks the branch's `remote.jsonl` with them, `joinBranch`); when the
///    branch moved, the folders and files whose git names changed since this machine last read
///    them, and no others.
/// 2. Merge (`RemoteAttempt`, `RemoteExchange`) what was read with this machine's todos of the
///    repositories concerned.
/// 3. Commit the merge here (`commitHere`), in one transaction, before anything is written there:
///    a sync killed at any point loses nothing.
/// 4. Write (`writeRemote`) the files that changed in one commit on the commit read, on its tree,
///    check that the new tree keeps every file the write did not mean to change, and move the
///    branch without force: GitHub refuses a move that is not a fast forward (422), a lost race,
///    which is read, merged and tried again, at most 5 times with jittered pauses.
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
        defer {
            // Renamed or transferred on GitHub: the name the exchange found, said once.
            if let now = try? session.store.remoteSettings()?.fullName { summary.noteName(now) }
            session.summary.remote = summary
        }
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
        var madeFirstCommit = false
        // The commit a write that lost its race was on, and the reads since that still showed it.
        var lostOn: String?
        var staleReads = 0
        while true {
            try session.checkBudget()
            guard let stored = try session.store.remoteSettings() else { return }
            let join = try joinBranch(stored, session)
            var settings = join.settings
            // This exchange's steps, the first's and the closing one's apart (for `sync -v`).
            summary.milliseconds.removeAll { $0.step.hasPrefix("closing ") == !readFirst }
            var clock = StepClock(closing: !readFirst)

            guard let snapshot = try readRemote(settings, readRef: readFirst || attempt > 0, attempt: attempt,
                                                madeFirstCommit: &madeFirstCommit, joined: join.joined, session) else { continue }
            summary.milliseconds.append(clock.lap("read"))
            if let name = snapshot.fullName { settings.fullName = name }
            if let lostOn, snapshot.head == lostOn {
                // The branch moved, or the write would not have lost, yet this read shows it where
                // it was: a replica of GitHub that lags. Writing on it again must fail; wait and read.
                staleReads += 1
                guard staleReads <= Self.maximumRetries, session.github.waitBeforeRetry(after: staleReads) else {
                    throw RemoteFailure.lagging(repository: settings.fullName)
                }
                continue
            }

            guard let merge = try mergeRemote(snapshot, settings, &summary, session) else {
                return try snapshot.checkPrivate()
            }
            summary.milliseconds.append(clock.lap("merge"))
            if session.dryRun {
                summary.pulled += merge.changes.count(beyond: merge.attempt.localAtGitHubTime)
                if !merge.files.isEmpty { summary.pushed += merge.plan.changedLines }
                return
            }

            try commitHere(merge, snapshot, session)
            summary.pulled += merge.changes.count(beyond: merge.attempt.localAtGitHubTime)
            summary.milliseconds.append(clock.lap("commit here"))
            guard !merge.files.isEmpty else { return try snapshot.checkPrivate() }
            try snapshot.checkPrivate()

            switch try writeRemote(merge, snapshot, settings, session) {
            case .written:
                // Values written there by hand go back with their stamps: sent too.
                summary.pushed += merge.plan.changedLines + merge.attempt.handEdits
                summary.fileBytes = merge.files.values.reduce(0) { $0 + ($1?.count ?? 0) }
                summary.milliseconds.append(clock.lap("write"))
                return
            case .lostRace:
                (lostOn, staleReads) = (snapshot.head, 0)
                attempt += 1
                summary.retries += 1
                guard attempt <= Self.maximumRetries else {
                    throw RemoteFailure.keptChanging(repository: settings.fullName, attempts: attempt)
                }
                // Apart, so that two machines racing do not keep colliding.
                _ = session.github.wait(milliseconds: Int.random(in: 20...120) * attempt)
            }
        }
    }
}

/// Elapsed time of the steps of one exchange (for `sync -v`), the closing exchange's named so.
struct StepClock {
    let closing: Bool
    private var stopwatch = Stopwatch()

    init(closing: Bool) { self.closing = closing }

    mutating func lap(_ step: String) -> (step: String, milliseconds: Double) {
        (closing ? "closing " + step : step, stopwatch.lap())
    }
}
