import DoogitMerge
import DoogitSync

extension ErrorReporter {
    /// What stopped a sync, or what it could not do although it went through.
    static func report(_ sync: SyncError, databasePath: String?, token: TokenInUse? = nil) -> Report {
        switch sync {
        case .incomplete(let summary):
            return incomplete(summary.failures)
        case .exchangeFailed(let failure, let summary):
            var inner = report(failure, token: token)
            inner.message = "sync finished, but " + inner.message
            // What else failed is told too; it is not to be tried again without doing anything.
            if !summary.failures.isEmpty {
                inner.message += "; and " + failed(summary.failures) + "; run 'doogit sync -v' for details"
                // Trying again later is all it takes only when that holds of every failure.
                if !(inner.code == .temporaryFailure && summary.failures.allSatisfy(\.temporary)) { inner.code = .failure }
            }
            return inner
        case .rateLimited(let resetAt, _):
            return Report(code: .temporaryFailure, message: "sync stopped: GitHub's rate limit is used up; "
                + (resetAt.map { "what was done is kept; try again after \($0.localTimeOfDay)" } ?? "what was done is kept; try again later"))
        case .secondaryRateLimited(let retryAt, _):
            return Report(code: .temporaryFailure, message: "sync stopped: \(secondaryLimitMet); what was done is kept; "
                + "try again after \(minuteAfter(retryAt))")
        case .reserveReached(let reserve, let resetAt, _):
            return Report(code: .temporaryFailure, message: "sync stopped to keep \(reserve) requests of GitHub's rate limit in reserve; "
                + (resetAt.map { "what was done is kept; try again after \($0.localTimeOfDay)" } ?? "what was done is kept; try again later"))
        case .interrupted(let underlying, _):
            var inner = report(underlying, databasePath: databasePath, token: token)
            inner.message = "sync stopped: " + inner.message
            if inner.code == .failure { inner.code = .temporaryFailure }
            return inner
        case .failed(let underlying, _):
            var inner = report(underlying, databasePath: databasePath, token: token)
            inner.message = "sync stopped: " + inner.message
            return inner
        }
    }

    /// Repositories that could not be read, and issues GitHub refused to update.
    static func incomplete(_ failures: [SyncFailure]) -> Report {
        let writesOnly = failures.allSatisfy(\.wrote)
        let hint = writesOnly
            ? "run 'doogit sync -v' for details; where GitHub keeps refusing, turn pushing off with 'doogit repo set REPO --push-issues off'"
            : "run 'doogit sync -v' for details"
        // Only exchanges that GitHub's trouble stopped: trying again later is all it takes.
        let code: ExitCode = failures.allSatisfy(\.temporary) ? .temporaryFailure : .failure
        return Report(code: code, message: "sync finished, but " + failed(failures) + "; \(hint)")
    }

    /// "2 repositories could not be read (owner/name: why; and others)". A repository whose
    /// reads failed in more than one phase (its issues and its commits, say) counts once.
    private static func failed(_ failures: [SyncFailure]) -> String {
        let reads = Set(failures.filter { !$0.wrote && !$0.shared }.map(\.fullName)).count
        let writes = Set(failures.filter(\.wrote).map(\.fullName)).count
        let shared = Set(failures.filter(\.shared).map(\.fullName)).count
        var parts: [String] = []
        if shared > 0 { parts.append("the shared todos of \(shared) repositor\(shared == 1 ? "y" : "ies") could not be exchanged") }
        if reads > 0 { parts.append("\(reads) repositor\(reads == 1 ? "y" : "ies") could not be read") }
        if writes > 0 { parts.append("\(writes) issue\(writes == 1 ? "" : "s") could not be updated") }
        let first = failures.first.map { "\($0.fullName): \($0.error)" } ?? ""
        let more = reads + writes + shared > 1 ? "; and others" : ""
        return parts.joined(separator: " and ") + " (\(first)\(more))"
    }

    /// The exchange with the file on GitHub failed; the local changes wait for the next one.
    static func report(_ failure: RemoteFailure, token: TokenInUse? = nil) -> Report {
        let waiting = "the changes here wait"
        switch failure {
        case .unreadableFile(let repository, let path, .badLine(let line, let reason)):
            return Report(code: .failure, message: "\(path) in \(repository) cannot be read: line \(line): \(reason); \(waiting). Fix that line on GitHub (or revert the commit that changed it), then sync again")
        case .unreadableFile(let repository, let path, .newerVersion(let version)):
            return Report(code: .failure, message: "\(path) in \(repository) was written by a newer doogit (format \(version)); \(waiting). Upgrade doogit, then sync again")
        case .repositoryMissing(let repository):
            return Report(code: .failure, message: "the remote repository \(repository) is gone (deleted, or the token cannot see it); \(waiting). If it is still there, give the token access to it ('doogit auth status' shows which token is used); else make it again with 'doogit remote init \(repository) --create', or choose another with 'doogit remote init OWNER/NAME'")
        case .branchMissing(let repository, let branch, let defaultBranch):
            return Report(code: .failure, message: "the branch \(branch) of \(repository) is gone; \(waiting). Run 'doogit remote init \(repository)' to keep the todos on its default branch (\(defaultBranch))")
        case .madePublic(let repository):
            return Report(code: .failure, message: "\(repository) is public now, and anyone could read your todos there, so nothing was written; \(waiting). Make it private on GitHub, or choose another with 'doogit remote init OWNER/NAME --create'")
        case .lagging(let repository):
            return Report(code: .temporaryFailure, message: "GitHub cannot show the latest commit of \(repository) yet (its copies lag for a moment right after a write); \(waiting). Try again in a minute (the next sync will)")
        case .wouldDropFiles(let repository, let paths):
            let named = paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
            return Report(code: .failure, message: "doogit did not write to \(repository): the commit it made would have removed or changed files it did not mean to touch (\(named)); \(waiting). Run 'doogit sync' again, which reads the remote anew first; if this repeats, please report it with the output of 'doogit sync -v'")
        case .refused(let repository, let message):
            return Report(code: .failure, message: "GitHub refused the exchange with \(repository): \(message); \(waiting). Check that the token may read and write its contents, and that it is not archived")
        case .readOnly(let repository):
            return Report(code: .failure, message: "the token can read \(repository) but not write to it (GitHub answers a write without push access as not found); \(waiting). Give the token's user write access to it ('doogit auth status' shows which token is used), or choose a repository of your own with 'doogit remote init OWNER/NAME'")
        case .keptChanging(let repository, let attempts):
            return Report(code: .temporaryFailure, message: "the todo file in \(repository) kept changing while this machine wrote it (\(attempts) tries); \(waiting) (the merge is kept here); try again later")
        case .unavailable(let repository, let error), .failed(let repository, let error):
            var inner = report(error, token: token)
            inner.message = "the exchange with \(repository) failed: \(inner.message); \(waiting)"
            return inner
        }
    }
}
