import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension RemotePhase {
    enum WriteOutcome {
        case written
        /// Another machine moved the branch first: read, merge and try again.
        case lostRace
    }

    /// Step 4: the files in one commit on the commit read, on its tree, checked to keep every
    /// file the write did not mean to change before the branch moves to it, without force.
    func writeRemote(_ merge: MergedExchange, _ snapshot: RemoteSnapshot, _ settings: RemoteSettings, _ session: SyncSession)
        throws -> WriteOutcome
    {
        if !snapshot.checkedPrivate { try checkStillPrivate(settings, session) }
        let write = BranchWrite(repository: settings.fullName, branch: settings.branch, head: snapshot.head, known: merge.attempt.known,
                                files: merge.files, pieces: merge.plan.pieces)
        let made: GitTreeListing
        do throws(GitHubError) {
            made = try write.makeTree(session.github)
        } catch .notFound {
            throw try refusedWrite(settings, session)
        } catch .unexpectedResponse(let why) {
            throw RemoteFailure.failed(repository: settings.fullName, .unexpectedResponse(why))
        } catch {
            throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
        }
        let written: (tree: RemoteTree, commit: String)
        do {
            guard let done = try write.finish(made, message: Self.commitMessage(merge.plan), session) else { return .lostRace }
            written = done
        } catch {
            // GitHub made a tree from what is known here, and the write went no further: that
            // knowledge may be what is wrong, so the next exchange reads the branch whole. (The
            // failure reported is the write's; forgetting cannot lose anything.)
            try? session.store.forgetRemoteTree()
            throw error
        }
        let (after, commit) = written
        let store = session.store
        let recorded = after.changes(from: try store.remoteEntries())
        try store.transaction {
            try store.recordRemote(set: recorded.set, removed: recorded.removed, head: commit, refETag: nil, exchanged: true,
                                   at: session.clock())
            try store.replica.sent(todos: merge.attempt.held(merge.plan), repositories: merge.attempt.heldRepositories(merge.plan))
        }
        return .written
    }

    /// Runs a step of a write that names objects the write has just made. A replica of GitHub
    /// that has not caught up with them answers as if they did not exist (404 for a tree's
    /// listing, 422 "Object does not exist" for a ref moved to the commit, "Tree SHA does not
    /// exist" for a commit on the tree): asked again once after a pause, then a failure worth
    /// trying again later. Each step repeats safely: a read, a commit that nothing names yet, a
    /// ref moved without force.
    static func afterLag<T>(of repository: String, _ session: SyncSession, _ step: () throws -> T) throws -> T {
        do {
            return try step()
        } catch let error as GitHubError where isLag(error) {
            guard session.github.waitBeforeRetry(after: 1) else { throw RemoteFailure.lagging(repository: repository) }
            do {
                return try step()
            } catch let error as GitHubError where isLag(error) {
                throw RemoteFailure.lagging(repository: repository)
            }
        }
    }

    /// Whether GitHub answered that an object does not exist (a replica that lags, when the
    /// object was just made); a missing branch ("Reference does not exist") is not one.
    static func isLag(_ error: GitHubError) -> Bool {
        switch error {
        case .notFound(.gitObject, _): return true
        case .validationFailed(let message):
            let text = message.lowercased()
            return text.contains("object does not exist") || text.contains("sha does not exist")
        default: return false
        }
    }
}
