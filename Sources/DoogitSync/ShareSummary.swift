import DoogitMerge
import DoogitSupport

/// What a sync did with one repository's shared todos.
public struct ShareSummary: Equatable, Sendable {
    public var repositoryID: Int64
    public var repository: String
    /// Changes received from the branch, and sent to it.
    public var pulled = 0
    public var pushed = 0
    /// Changes made here that wait, because the token may not push to the repository; and how
    /// many waited when a sync last said so (said again only when that number changes).
    public var waiting = 0
    public var waitingNoted = 0
    /// Edits made here of todos whose removal had left the branch meanwhile (the removal won).
    public var droppedEdits = 0
    public var failure: ShareFailure?

    public init(repositoryID: Int64, repository: String) {
        self.repositoryID = repositoryID
        self.repository = repository
    }
}

/// Why a shared branch's exchange failed. What changed here waits for the next one.
public enum ShareFailure: Error, Equatable, Sendable {
    /// A file there is not one this doogit can read (a bad line, a newer major version).
    case unreadableFile(repository: String, path: String, TodoFileError)
    /// GitHub no longer shows the repository to the token.
    case unreadable(repository: String)
    /// The repository has no commit yet (GitHub's 409): the branch cannot be made.
    case emptyRepository(repository: String)
    /// The branch was deleted on GitHub since this machine read or wrote it.
    case branchGone(repository: String, branch: String)
    /// The repository was made public since it was shared without `--public`.
    case madePublic(repository: String)
    /// The branch is protected against this user's pushes.
    case protectedBranch(repository: String, branch: String)
    /// The tree GitHub made did not keep every file the write meant to keep (the branch did not move).
    case wouldDropFiles(repository: String, paths: [String])
    /// Every write lost a race with another writer; the merge is kept here and sent next time.
    case keptChanging(repository: String)
    /// GitHub could not be reached or kept failing, or its replicas lag: try again later.
    case unavailable(repository: String, String)
    /// Anything else GitHub answered.
    case failed(repository: String, String)

    /// Whether trying again later may be all it takes.
    public var isTemporary: Bool {
        switch self {
        case .keptChanging, .unavailable: return true
        default: return false
        }
    }

    /// What failed and what to do, in one line (without the repository's name).
    public var advice: String {
        switch self {
        case .unreadableFile(_, let path, .newerVersion(let version)):
            return "its shared todos' file \(path) is of doogit's format \(version), newer than this doogit's; upgrade doogit"
        case .unreadableFile(_, let path, .badLine(let line, let reason)):
            return "line \(line) of its shared todos' file \(path) cannot be read (\(reason)); mend or remove that line on the branch, then sync"
        case .unreadable:
            return "GitHub no longer shows it to you; its shared todos stay here as last seen; "
                + "ask for access again, or stop with 'doogit repo unshare'"
        case .emptyRepository:
            return "it has no commit yet, so its shared todos have no branch; push a first commit to it, then sync"
        case .branchGone(let repository, let branch):
            return "its branch \(branch) was deleted on GitHub; 'doogit repo share \(repository)' makes it again with your todos, "
                + "'doogit repo unshare \(repository)' stops sharing"
        case .madePublic(let repository):
            return "it is public now, so its shared todos would be too; nothing was sent; "
                + "'doogit repo share \(repository) --public' sends them, 'doogit repo unshare \(repository)' stops sharing"
        case .protectedBranch(_, let branch):
            return "its branch \(branch) is protected against your pushes; your changes wait here; "
                + "ask an admin to let you push to \(branch), then sync"
        case .wouldDropFiles(_, let paths):
            return "GitHub's tree for the write would have dropped \(paths.joined(separator: ", ")); nothing was written; sync again"
        case .keptChanging:
            return "its shared todos kept changing while this sync wrote; your changes wait here; sync again"
        case .unavailable(_, let why):
            return "its shared todos could not be exchanged (\(why)); your changes wait here; sync again later"
        case .failed(_, let why):
            return "its shared todos could not be exchanged (\(why)); your changes wait here"
        }
    }
}
