import DoogitSupport

/// A tracked GitHub repository: a section of the todo list.
public struct RepositoryRecord: Equatable, Sendable {
    public var id: Int64
    public var owner: String
    public var name: String
    public var fullName: String
    public var description: String?
    public var url: String
    public var isPrivate: Bool
    public var archived: Bool
    public var gone: Bool
    public var pushedAt: String?
    public var remoteUpdatedAt: String?
    public var etag: String?
    public var addedAt: Timestamp
    public var syncedAt: Timestamp

    public init(id: Int64, owner: String, name: String, fullName: String, description: String?, url: String,
                isPrivate: Bool, archived: Bool, gone: Bool = false, pushedAt: String? = nil,
                remoteUpdatedAt: String? = nil, etag: String? = nil, addedAt: Timestamp, syncedAt: Timestamp) {
        self.id = id
        self.owner = owner
        self.name = name
        self.fullName = fullName
        self.description = description
        self.url = url
        self.isPrivate = isPrivate
        self.archived = archived
        self.gone = gone
        self.pushedAt = pushedAt
        self.remoteUpdatedAt = remoteUpdatedAt
        self.etag = etag
        self.addedAt = addedAt
        self.syncedAt = syncedAt
    }
}

/// A repository with how many of its todos are open and done.
public struct RepositorySummary: Equatable, Sendable {
    public var repository: RepositoryRecord
    public var open: Int
    public var done: Int
}

/// A todo. `id` is the short local id users type; `uuid` names it everywhere else.
public struct TodoRecord: Equatable, Sendable {
    public var id: Int64
    public var uuid: String
    public var repositoryID: Int64
    public var repositoryFullName: String
    public var text: String
    public var done: Bool
    public var position: Int64
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    public var doneAt: Timestamp?
}

/// One section of the list: a repository and the todos of it that were asked for.
public struct TodoSection: Equatable, Sendable {
    public var repository: RepositoryRecord
    public var todos: [TodoRecord]
}

/// Which todos a listing shows.
public enum TodoFilter: Sendable {
    case all, open, done
}
