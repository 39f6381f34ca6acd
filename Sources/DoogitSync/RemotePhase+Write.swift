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
        let github = session.github, repository = settings.fullName
        let remote = merge.attempt.known
        // Never a tree without its base while the branch has a commit: it would hold only these files.
        guard snapshot.head == nil || remote.rootSHA != nil else {
            throw RemoteFailure.failed(repository: repository, .unexpectedResponse("the tree of the branch's commit is not known"))
        }
        let expected = remote.writing(merge.files.reduce(into: [:]) { result, file in
            let removals = (merge.plan.pieces[file.key] ?? nil)?.removals
            // `.some`: a file removed is written as nil, which a plain assignment would drop.
            result[file.key] = .some(file.value.map {
                ($0, removals.map { RemoteRemovals(firstSince: $0.first, lastSince: $0.last, oldest: $0.oldest) })
            })
        })
        let made: GitTreeListing
        do throws(GitHubError) {
            made = try github.createTree(
                repository: repository, base: snapshot.head == nil ? nil : remote.rootSHA,
                files: merge.files.sorted { $0.key < $1.key }.map {
                    GitTreeWrite(path: $0.key, content: $0.value, mode: remote.mode(forWriting: $0.key))
                })
        } catch .notFound {
            throw try refusedWrite(settings, session)
        } catch {
            throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
        }
        let after: RemoteTree, commit: String
        do {
            after = try Self.afterLag(of: repository, session) {
                try remote.verified(made: made, expected: expected, written: Set(merge.files.keys), repository: repository,
                                    github: github)
            }
            commit = try Self.afterLag(of: repository, session) {
                try github.createCommit(repository: repository, message: Self.commitMessage(merge.plan), tree: made.sha,
                                        parents: snapshot.head.map { [$0] } ?? [])
            }
            guard try moveBranch(to: commit, settings, session) else { return .lostRace }
        } catch {
            // GitHub made a tree from what is known here, and the write went no further: that
            // knowledge may be what is wrong, so the next exchange reads the branch whole. (The
            // failure reported is the write's; forgetting cannot lose anything.)
            try? session.store.forgetRemoteTree()
            throw error
        }
        let store = session.store
        let recorded = after.changes(from: try store.remoteEntries())
        try store.transaction {
            try store.recordRemote(set: recorded.set, removed: recorded.removed, head: commit, refETag: nil, exchanged: true,
                                   at: session.clock())
            try store.replica.sent(todos: merge.attempt.held(merge.plan), repositories: merge.attempt.heldRepositories(merge.plan))
        }
        return .written
    }

    /// Moves the branch to `commit` without force; false when another machine moved it first.
    private func moveBranch(to commit: String, _ settings: RemoteSettings, _ session: SyncSession) throws -> Bool {
        do {
            try Self.afterLag(of: settings.fullName, session) {
                try session.github.updateRef(repository: settings.fullName, branch: settings.branch, commit: commit)
            }
            return true
        } catch let error as GitHubError where GitHubClient.isNotFastForward(error) {
            return false
        }
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
