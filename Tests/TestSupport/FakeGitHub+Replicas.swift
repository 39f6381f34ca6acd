/// GitHub's replicas lag: right after a write, a read (or a write that names what was just
/// made) can reach a copy that has not caught up, for a moment. The fake plays that on demand.
extension FakeContents {
    /// The next `count` reads (GET git/trees, git/blobs, git/commits) of objects that the next
    /// move of a branch brings answer 404, as a replica of GitHub that has not caught up with
    /// a write yet does for a moment.
    public func lagReadsOfNextWrite(_ repository: String, count: Int) {
        locked { laggingReads[repository.lowercased()] = (count, armed: false) }
    }

    /// The steps of a write that name what it has just made.
    public enum WriteStep: Sendable {
        /// GET git/trees of the tree just made.
        case treeRead
        /// POST git/commits on the tree just made.
        case commit
        /// PATCH of a ref to the commit just made.
        case refUpdate
    }

    /// The next `count` uses, at `steps`, of objects that a write made and no branch holds yet
    /// meet a replica that has not caught up with them: a listing of the tree just made answers
    /// 404, a commit on it 422 "Tree SHA does not exist", a ref moved to the commit just made
    /// 422 "Object does not exist" (what GitHub answers for an object it does not know).
    public func lagObjectsOfNextWrite(_ repository: String, count: Int, at steps: Set<WriteStep> = [.treeRead, .commit, .refUpdate]) {
        locked { writeLags[repository.lowercased()] = (count, steps) }
    }

    /// Once a branch of the repository next moves, the next `count` reads of its ref answer the
    /// commit it was at before, as a replica that has not caught up with that move does.
    public func makeRefReadsStaleAfterNextMove(_ repository: String, count: Int) {
        locked { staleRefReads[repository.lowercased()] = (count, armed: false) }
    }

    /// Whether a read of `sha` meets a replica that lags (and counts it); under the lock.
    func lags(_ repository: String, _ sha: String) -> Bool {
        let key = repository.lowercased()
        guard let lag = laggingReads[key], lag.armed, lag.remaining > 0,
              withObjects(repository, { $0.broughtByLastMove.contains(sha) }) else { return false }
        laggingReads[key] = (lag.remaining - 1, armed: true)
        return true
    }

    /// Whether a use of `sha`, made by a write and held by no branch yet, meets a replica that
    /// lags (and counts it); under the lock.
    func lagsWrite(_ repository: String, _ sha: String, at step: WriteStep) -> Bool {
        let key = repository.lowercased()
        guard let lag = writeLags[key], lag.remaining > 0, lag.steps.contains(step),
              withObjects(repository, { $0.storedSinceMove.contains(sha) }) else { return false }
        writeLags[key] = (lag.remaining - 1, lag.steps)
        return true
    }

    /// Where the branch was before its last move, when this read of its ref meets a replica
    /// that lags (and counts it); under the lock.
    func staleRef(_ repository: String, _ branch: String) -> String? {
        let key = repository.lowercased()
        guard let stale = staleRefReads[key], stale.armed, stale.remaining > 0,
              let previous = withObjects(repository, { $0.previousRefs[branch] }) else { return nil }
        staleRefReads[key] = (stale.remaining - 1, armed: true)
        return previous
    }

    /// Arms the lags asked for, once a branch moved (under the lock).
    func noteBranchMoved(_ repository: String) {
        let key = repository.lowercased()
        if let lag = laggingReads[key], !lag.armed { laggingReads[key] = (lag.remaining, armed: true) }
        if let stale = staleRefReads[key], !stale.armed { staleRefReads[key] = (stale.remaining, armed: true) }
    }
}
