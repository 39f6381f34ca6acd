import DoogitSupport

/// A repository as GitHub describes it; only the fields doogit keeps.
public struct GitHubRepository: Equatable, Sendable {
    public var id: Int64
    public var owner: String
    public var name: String
    public var fullName: String
    /// GitHub sends `null` when there is none.
    public var description: String?
    public var htmlURL: String
    public var isPrivate: Bool
    /// Nil when GitHub's answer leaves it out (a listing of GitHub Enterprise, or an older one).
    public var archived: Bool?
    public var pushedAt: String?
    public var updatedAt: String?
    public var defaultBranch: String?
    /// Whether the token's user may push to it (`permissions.push`); nil where the answer does
    /// not say (listings may leave `permissions` out).
    public var canPush: Bool?

    public init(id: Int64, owner: String, name: String, fullName: String, description: String?, htmlURL: String,
                isPrivate: Bool, archived: Bool?, pushedAt: String? = nil, updatedAt: String? = nil,
                defaultBranch: String? = nil, canPush: Bool? = nil) {
        self.id = id
        self.owner = owner
        self.name = name
        self.fullName = fullName
        self.description = description
        self.htmlURL = htmlURL
        self.isPrivate = isPrivate
        self.archived = archived
        self.pushedAt = pushedAt
        self.updatedAt = updatedAt
        self.defaultBranch = defaultBranch
        self.canPush = canPush
    }

    /// The members `init(json:)` reads, at any depth (`login` is the owner's): a repository
    /// answer has about 90, so a parse keeping these alone is much cheaper.
    public static let fields: Set<String> = [
        "id", "owner", "login", "name", "full_name", "description", "html_url", "private", "archived", "pushed_at",
        "updated_at", "default_branch", "permissions", "push",
    ]

    /// The fields doogit reads that a listing may leave out (`minimal-repository` makes them
    /// optional, and older answers lack some), where a missing one is read as unknown.
    public static let listedFields = ["archived", "pushed_at", "updated_at", "default_branch"]

    private static func canPush(_ permissions: JSONValue?) throws(JSONError) -> Bool? {
        guard let permissions, permissions != .null else { return nil }
        return try permissions.optionalBool("push")
    }

    public init(json: JSONValue) throws(JSONError) {
        let fullName = try json.string("full_name")
        let owner: String
        switch json["owner"] {
        case nil, .null?:
            // Some of GitHub's schemas let a listed repository's owner be null: its full name names it.
            guard let slash = fullName.firstIndex(of: "/") else { throw .missing(field: "owner") }
            owner = String(fullName[..<slash])
        case let value?:
            owner = try value.string("login")
        }
        self.init(
            id: try json.int64("id"), owner: owner, name: try json.string("name"),
            fullName: fullName, description: try json.optionalString("description"),
            htmlURL: try json.string("html_url"), isPrivate: try json.bool("private"),
            archived: try json.optionalBool("archived"),
            pushedAt: try json.optionalString("pushed_at"), updatedAt: try json.optionalString("updated_at"),
            defaultBranch: try json.optionalString("default_branch"),
            canPush: try Self.canPush(json["permissions"]))
        guard id > 0, !self.owner.isEmpty, !name.isEmpty else {
            throw .wrongType(field: "id", expected: "a repository with an id, owner and name")
        }
    }
}

/// The signed-in user, and the OAuth scopes of the token when GitHub reports them.
public struct GitHubUser: Equatable, Sendable {
    public var login: String
    public var id: Int64
    public var scopes: [String]?

    public init(login: String, id: Int64, scopes: [String]? = nil) {
        self.login = login
        self.id = id
        self.scopes = scopes
    }

    public init(json: JSONValue) throws(JSONError) {
        self.init(login: try json.string("login"), id: try json.int64("id"))
    }
}
