import DoogitMerge
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
    /// The branch commits are read from, as GitHub last reported it (nil: not known yet).
    public var defaultBranch: String?
    /// The settings of `repo set`; saving a repository never changes them (see `setSettings`).
    public var settings: RepositorySettings
    /// False for a repository no longer tracked, named only where its removed todos are listed.
    public var tracked = true

    public init(id: Int64, owner: String, name: String, fullName: String, description: String?, url: String,
                isPrivate: Bool, archived: Bool, gone: Bool = false, pushedAt: String? = nil,
                remoteUpdatedAt: String? = nil, etag: String? = nil, addedAt: Timestamp, syncedAt: Timestamp,
                defaultBranch: String? = nil, settings: RepositorySettings = RepositorySettings()) {
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
        self.defaultBranch = defaultBranch
        self.settings = settings
    }
}

/// Which open issues of a repository sync turns into todos.
public enum IssueImport: String, Equatable, Sendable, CaseIterable {
    case off, assigned, all
}

/// What sync does with a repository's issues and commits.
public struct RepositorySettings: Equatable, Sendable {
    /// Push todo changes to linked issues (close, reopen, retitle). Off unless asked for.
    public var pushIssues: Bool
    public var importIssues: IssueImport
    /// Mark todos done from `Doogit-Done:` trailers on the default branch.
    public var scanCommits: Bool

    public init(pushIssues: Bool = false, importIssues: IssueImport = .off, scanCommits: Bool = true) {
        self.pushIssues = pushIssues
        self.importIssues = importIssues
        self.scanCommits = scanCommits
    }
}

/// An issue's state on GitHub.
public enum IssueState: String, Equatable, Sendable {
    case open, closed
}

/// The GitHub issue a todo is linked to (in the todo's repository), as last seen.
public struct IssueLink: Equatable, Sendable {
    public var number: Int64
    public var url: String
    /// nil: not seen on GitHub since it was linked (the link came from another machine).
    public var state: IssueState?

    public init(number: Int64, url: String, state: IssueState?) {
        self.number = number
        self.url = url
        self.state = state
    }
}

/// A repository with how many of its todos are open and done.
public struct RepositorySummary: Equatable, Sendable {
    public var repository: RepositoryRecord
    public var open: Int
    public var done: Int
    /// Whether its todos are shared from here (`repo share`), and since when GitHub no longer
    /// shows it (what was last seen is kept).
    public var shared = false
    public var sharedUnreadableSince: Timestamp? = nil

    public init(repository: RepositoryRecord, open: Int, done: Int, shared: Bool = false, sharedUnreadableSince: Timestamp? = nil) {
        self.repository = repository
        self.open = open
        self.done = done
        self.shared = shared
        self.sharedUnreadableSince = sharedUnreadableSince
    }
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
    /// The linked issue, if any.
    public var issue: IssueLink? = nil
    public var due: CalendarDate? = nil
    public var priority: Priority? = nil
    /// Its own tags, sorted (without case).
    public var tags: [String] = []
    public var note: String? = nil
    /// Its issue's labels as last seen, sorted (nil: not linked, or not known).
    public var labels: [String]? = nil
    /// The GitHub logins that added it, that finished it and it is assigned to (nil: none, or not
    /// known). Who finished it is known only while it is done by that change: done or reopened
    /// otherwise (on the board, by a commit, on GitHub's issue, by an older doogit), nobody known.
    public var author: String? = nil
    public var finishedBy: String? = nil
    public var assignee: String? = nil

    /// Whose it is: its assignee, else who added it.
    public var owner: String? { assignee ?? author }
}

/// What a section's header shows of its repository: a whole record, or a `RepositoryHeading`
/// where no more is shown.
public protocol SectionHeading {
    var id: Int64 { get }
    var fullName: String { get }
    var description: String? { get }
    var archived: Bool { get }
    var gone: Bool { get }
    var tracked: Bool { get }
}

extension RepositoryRecord: SectionHeading {}

/// A tracked repository as a section's header shows it, read without the rest of its record:
/// a part of the list may have a section for each of thousands of repositories.
public struct RepositoryHeading: SectionHeading, Equatable, Sendable {
    public var id: Int64
    public var fullName: String
    public var description: String?
    public var archived: Bool
    public var gone: Bool
    public var tracked: Bool { true }

    public init(id: Int64, fullName: String, description: String?, archived: Bool, gone: Bool) {
        (self.id, self.fullName, self.description, self.archived, self.gone) = (id, fullName, description, archived, gone)
    }
}

/// One section of the list: a repository and the todos of it that were asked for, as records
/// (`TodoSection`) or as what their lines show, under the repository's heading (`TodoLineSection`).
public struct RepositorySection<Repository: SectionHeading, Todo> {
    public var repository: Repository
    public var todos: [Todo]

    public init(repository: Repository, todos: [Todo]) {
        self.repository = repository
        self.todos = todos
    }
}

extension RepositorySection: Equatable where Repository: Equatable, Todo: Equatable {}
extension RepositorySection: Sendable where Repository: Sendable, Todo: Sendable {}

public typealias TodoSection = RepositorySection<RepositoryRecord, TodoRecord>
public typealias TodoLineSection = RepositorySection<RepositoryHeading, TodoLine>

/// Which todos a listing shows.
public enum TodoFilter: Sendable {
    case all, open, done
}

/// A todo from another program's file (Taskwarrior's, todo.txt), to add here.
public struct NewTodo: Equatable, Sendable {
    public var uuid: String
    public var repositoryID: Int64
    public var text: String
    /// nil: open.
    public var doneAt: Timestamp?
    public var createdAt: Timestamp
    /// The number of the issue of its repository it is linked to (not seen on GitHub yet).
    public var issue: Int64?
    /// Its due date, priority, tags and note, as the file says them.
    public var details: DetailsEdit

    public init(uuid: String, repositoryID: Int64, text: String, doneAt: Timestamp?, createdAt: Timestamp, issue: Int64? = nil,
                details: DetailsEdit = DetailsEdit()) {
        self.uuid = uuid
        self.repositoryID = repositoryID
        self.text = text
        self.doneAt = doneAt
        self.createdAt = createdAt
        self.issue = issue
        self.details = details
    }
}
