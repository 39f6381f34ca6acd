/// Everything that can go wrong in the store, with the data a message needs. The CLI decides
/// the exit code and the wording; nothing here prints.
public enum StoreError: Error, Equatable, Sendable {
    // The database file and the disk under it.

    /// Another process holds a lock for longer than the busy timeout.
    case busy
    /// The database file, or a file SQLite keeps beside it (`-wal`, `-shm`, created with the
    /// database's own mode), is write-protected: every such file, in that order.
    case readOnlyFiles(paths: [String])
    /// The folder holding the database does not let doogit create the files SQLite keeps beside
    /// it (the write-ahead log and its index).
    case readOnlyFolder(path: String)
    /// No space left on the disk (or the quota is used up).
    case diskFull
    /// The operating system failed a read or write; `reason` is its explanation.
    case ioError(reason: String)
    /// The file is not an SQLite database at all.
    case notADatabase
    /// The file is an SQLite database, but damaged.
    case corrupt
    /// The path names a folder, not a file.
    case isDirectory(path: String)
    /// SQLite could not open the file; `reason` is the system's explanation.
    case cannotOpen(path: String, reason: String)
    /// An SQLite database of another program: doogit does not touch it.
    case foreignDatabase
    /// The database was written by a newer doogit; it is left untouched.
    case newerSchema(found: Int, known: Int)
    /// The schema is older than this doogit's, and the database cannot be written to upgrade it.
    case upgradeNeedsWriteAccess(found: Int, known: Int)
    case cannotCreateDirectory(path: String, reason: String)
    case cannotCreateFile(path: String, reason: String)

    // Mistakes in doogit's own SQL or data, reported rather than trapped.

    /// Any other SQLite failure: extended result code, its message, and the statement.
    case sqlite(code: Int32, message: String, sql: String?)
    case unexpectedNull(column: String)
    case unknownColumn(String)
    /// A statement was given a different number of values than it has parameters.
    case bindMismatch(expected: Int, given: Int, sql: String)
    /// A migration left rows whose foreign keys point nowhere; it was rolled back.
    case foreignKeyViolation(table: String)

    // Refusals of the commands' own rules.

    case unknownTodos([Int64])
    /// Some of the IDs asked for are of removed todos that can be restored; the others are unknown.
    case removedTodos([Int64], unknown: [Int64])
    /// IDs that are not removed todos which can come back (never removed, removed with their
    /// repository, or from before removals kept their values).
    case notRestorable([Int64])
    /// Removed todos whose repository is no longer tracked here: `repo add` it first.
    case repositoryNotTracked(ids: [Int64], fullName: String)
    case unknownRepository(String)
    case ambiguousRepository(String, candidates: [RepositoryMatch])
    case repositoryHasTodos(fullName: String, open: Int, done: Int)
    /// The todo is linked to an issue already.
    case todoAlreadyLinked(todo: Int64, issue: Int64)
    /// The issue is linked to another todo.
    case issueAlreadyLinked(issue: Int64, todo: Int64)
    case todoNotLinked(Int64)
    /// A todo linked to an issue of its repository was to move to another (its issue would not follow).
    case movingLinkedTodo(todo: Int64, repository: String, issue: Int64)

    /// SQLite's primary result code, when this is an uncategorised SQLite error.
    public var sqlitePrimaryCode: Int32? {
        if case .sqlite(let code, _, _) = self { return code & 0xFF }
        return nil
    }
}

/// One of several tracked repositories that a name could mean.
public struct RepositoryMatch: Equatable, Sendable {
    public var id: Int64
    public var fullName: String
    public var gone: Bool

    public init(id: Int64, fullName: String, gone: Bool) {
        self.id = id
        self.fullName = fullName
        self.gone = gone
    }
}
