import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings repositories from GitHub into the store: `repo add`, and the record mapping that sync
/// shares. Everything is fetched before anything is written, so a failure part-way through a
/// list leaves the store as it was.
public struct RepositoryTracker {
    public let store: Store
    public let github: GitHubClient

    public init(store: Store, github: GitHubClient) {
        self.store = store
        self.github = github
    }

    /// Fetches each repository and tracks it (refreshing ones already tracked). A bare name is
    /// the signed-in user's repository of that name.
    public func add(_ references: [RepositoryReference], at now: Timestamp) throws -> [RepositoryRecord] {
        var login: String?
        var records: [RepositoryRecord] = []
        for reference in references {
            let owner: String
            switch reference {
            case .full(let named, _):
                owner = named
            case .bare:
                if login == nil { login = try github.currentUser().login }
                owner = login ?? ""
            }
            let (remote, etag) = try github.repositoryWithETag(owner: owner, name: reference.name)
            let existing = try store.repository(id: remote.id)
            records.append(Self.record(for: remote, etag: etag, existing: existing, at: now))
        }
        try store.saveRepositories(records)
        return records
    }

    /// The stored form of `remote`, keeping what only the store knows (when it was first added).
    public static func record(for remote: GitHubRepository, etag: String?, existing: RepositoryRecord?,
                              at now: Timestamp) -> RepositoryRecord {
        RepositoryRecord(
            id: remote.id, owner: remote.owner, name: remote.name, fullName: remote.fullName,
            description: remote.description, url: remote.htmlURL, isPrivate: remote.isPrivate,
            archived: remote.archived, gone: false, pushedAt: remote.pushedAt, remoteUpdatedAt: remote.updatedAt,
            etag: etag, addedAt: existing?.addedAt ?? now, syncedAt: now)
    }
}
