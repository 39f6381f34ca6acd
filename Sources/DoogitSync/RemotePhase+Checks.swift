import DoogitGitHub
import DoogitStore

extension RemotePhase {
    /// Before a write that no read of this exchange preceded: the repository must still exist and
    /// be private (a conditional read, free while it does not change; a write of this machine's
    /// changes it, so the next check costs one).
    func checkStillPrivate(_ settings: RemoteSettings, _ session: SyncSession) throws {
        do {
            switch try session.github.repository(id: settings.repositoryID, ifNoneMatch: settings.repositoryETag) {
            case .notModified:
                if settings.repositoryPublic { throw RemoteFailure.madePublic(repository: settings.fullName) }
            case .modified(let found, let etag):
                try session.store.recordRemoteRepository(etag: etag, isPublic: !found.isPrivate, fullName: found.fullName)
                guard found.isPrivate else { throw RemoteFailure.madePublic(repository: found.fullName) }
            }
        } catch GitHubError.notFound, GitHubError.unavailable {
            throw RemoteFailure.repositoryMissing(repository: settings.fullName)
        }
    }

    /// Why the branch's ref was not found: the repository is gone, or only the branch is.
    func missingBranch(_ settings: RemoteSettings, _ session: SyncSession) throws -> RemoteFailure {
        let answer: Result<Conditional<GitHubRepository>, GitHubError> = Result { () throws(GitHubError) in
            try session.github.repository(id: settings.repositoryID, ifNoneMatch: nil)
        }
        switch answer {
        case .success(.modified(let found, _)):
            return .branchMissing(repository: settings.fullName, branch: settings.branch, defaultBranch: found.defaultBranch ?? "main")
        case .success(.notModified), .failure(.notFound), .failure(.unavailable):
            return .repositoryMissing(repository: settings.fullName)
        case .failure(let error):
            throw error
        }
    }

    /// Why a write found nothing where this exchange had just read: the repository is gone, the
    /// token may only read it (GitHub answers a write without push access as not found, to a
    /// classic token), or else what the write built on is not there yet (a replica lagging
    /// behind, or a tree known here that is not GitHub's any more: it is read anew next time).
    func refusedWrite(_ settings: RemoteSettings, _ session: SyncSession) throws -> RemoteFailure {
        do {
            guard case .modified(let found, _) = try session.github.repository(id: settings.repositoryID, ifNoneMatch: nil),
                  found.canPush != false else { return .readOnly(repository: settings.fullName) }
        } catch GitHubError.notFound, GitHubError.unavailable {
            return .repositoryMissing(repository: settings.fullName)
        }
        try? session.store.forgetRemoteTree()
        return .lagging(repository: settings.fullName)
    }
}
