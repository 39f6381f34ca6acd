/// Everything that can go wrong in the store, with the data a message needs. The CLI decides
/// the exit code and the wording; nothing here prints.
public enum StoreError: Error, Equatable, Sendable {
    /// SQLite failed: extended result code, its message, and the statement.
    case sqlite(code: Int32, message: String, sql: String?)
    /// The database was written by a newer doogit; it is left untouched.
    case newerSchema(found: Int, known: Int)
    case cannotCreateDirectory(path: String, reason: String)
    case cannotCreateFile(path: String, reason: String)
    case unexpectedNull(column: String)
    case unknownTodos([Int64])
    case unknownRepository(String)
    case ambiguousRepository(String, candidates: [String])
    case repositoryHasOpenTodos(fullName: String, open: Int)

    /// SQLite's primary result code, when this is an SQLite error.
    public var sqlitePrimaryCode: Int32? {
        if case .sqlite(let code, _, _) = self { return code & 0xFF }
        return nil
    }
}
