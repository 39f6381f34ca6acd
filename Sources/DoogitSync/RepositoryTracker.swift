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

    /// A repository that `add` tracks.
    public struct Added: Equatable, Sendable {
        public var record: RepositoryRecord
        /// The OWNER/NAME asked for when GitHub answered with another one (it redirected a
        /// renamed or transferred repository): a former name worth remembering.
        public var requestedName: String?
    }

    /// One reference of `add` could not be fetched; nothing was added.
    public struct AddError: Error, Equatable, Sendable {
        /// The reference as the user gave it (OWNER/NAME or NAME).
        public var reference: String
        /// The OWNER/NAME a bare NAME stood for, when it was known.
        public var resolved: String?
        public var underlying: GitHubError

        public init(reference: String, resolved: String?, underlying: GitHubError) {
            self.reference = reference
            self.resolved = resolved
            self.underlying = underlying
        }
    }

    /// A repository `add` is asked for: by a reference, or by GitHub's numeric id (`id:ID`).
    public enum Wanted: Equatable, Sendable {
        case reference(RepositoryReference)
        case id(Int64)
    }

    /// Fetches each repository and tracks it (refreshing ones already tracked). A bare name is
    /// the signed-in user's repository of that name.
    public func add(_ references: [RepositoryReference], at now: Timestamp) throws -> [Added] {
        try add(references.map(Wanted.reference), at: now)
    }

    public func add(_ wanted: [Wanted], at now: Timestamp) throws -> [Added] {
        var login: String?
        var added: [Added] = []
        for item in wanted {
            let (remote, etag, requested) = try fetch(item, login: &login)
            let existing = try store.repository(id: remote.id)
            let renamed = requested.map { $0.lowercased() != remote.fullName.lowercased() } ?? false
            added.append(Added(record: Self.record(for: remote, etag: etag, existing: existing, at: now),
                               requestedName: renamed ? requested : nil))
        }
        // The repositories and the names GitHub redirected from, together: a checkout that still
        // uses such a name finds the repository (see Store.findRepository).
        try store.transaction {
            try store.saveRepositories(added.map(\.record))
            try store.markTracked(ids: added.map(\.record.id), at: now)
            for repository in added {
                if let name = repository.requestedName { try store.rememberName(name, forRepository: repository.record.id, at: now) }
            }
        }
        return added
    }

    /// The repository asked for, with its ETag and the OWNER/NAME that was asked for (none for an id).
    private func fetch(_ wanted: Wanted, login: inout String?) throws(AddError)
        -> (GitHubRepository, etag: String?, requested: String?)
    {
        let reference: RepositoryReference
        switch wanted {
        case .id(let id):
            do throws(GitHubError) {
                guard case .modified(let remote, let etag) = try github.repository(id: id, ifNoneMatch: nil) else {
                    throw .unexpectedResponse("304 without a conditional request")
                }
                return (remote, etag, nil)
            } catch {
                throw AddError(reference: "id:\(id)", resolved: nil, underlying: error)
            }
        case .reference(let named):
            reference = named
        }
        var requested: String?
        do throws(GitHubError) {
            let owner: String
            if let named = reference.owner {
                owner = named
            } else {
                if login == nil { login = try github.currentUser().login }
                owner = login ?? ""
            }
            let name = "\(owner)/\(reference.name)"
            requested = name
            let (remote, etag) = try github.repositoryWithETag(owner: owner, name: reference.name)
            return (remote, etag, name)
        } catch {
            throw AddError(reference: reference.description, resolved: reference.owner == nil ? requested : nil,
                           underlying: error)
        }
    }

    /// The stored form of `remote`, keeping what only the store knows (when it was first added).
    public static func record(for remote: GitHubRepository, etag: String?, existing: RepositoryRecord?,
                              at now: Timestamp) -> RepositoryRecord {
        RepositoryRecord(
            id: remote.id, owner: remote.owner, name: remote.name, fullName: remote.fullName,
            description: remote.description, url: remote.htmlURL, isPrivate: remote.isPrivate,
            archived: remote.archived, gone: false, pushedAt: remote.pushedAt, remoteUpdatedAt: remote.updatedAt,
            etag: etag, addedAt: existing?.addedAt ?? now, syncedAt: now,
            defaultBranch: remote.defaultBranch ?? existing?.defaultBranch, settings: existing?.settings ?? RepositorySettings())
    }
}
