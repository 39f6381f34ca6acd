import DoogitSupport

/// What one machine knows beside its replica, which an export carries and an import reads back:
/// its local IDs, and what it last saw of each repository on GitHub. The file on GitHub never
/// holds them (local IDs are per machine; sync reads repositories from GitHub itself).
public struct ReplicaAnnotations: Equatable, Sendable {
    /// Local IDs by UUID.
    public var localIDs: [String: Int64]
    public var repositories: [Int64: RepositoryDetails]

    public init(localIDs: [String: Int64] = [:], repositories: [Int64: RepositoryDetails] = [:]) {
        self.localIDs = localIDs
        self.repositories = repositories
    }
}

/// A repository as this machine last saw it on GitHub.
public struct RepositoryDetails: Equatable, Sendable {
    public var description: String?
    public var isPrivate: Bool
    public var archived: Bool
    public var gone: Bool

    public init(description: String?, isPrivate: Bool, archived: Bool, gone: Bool) {
        self.description = description
        self.isPrivate = isPrivate
        self.archived = archived
        self.gone = gone
    }
}
