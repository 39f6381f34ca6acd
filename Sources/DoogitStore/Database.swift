internal import CSQLite
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a doogit database. Opening applies the connection settings every command
/// relies on: extended result codes, a busy timeout (cron's sync meets the user's shell),
/// foreign keys and synchronous=NORMAL; `enableWriteAheadLog` adds WAL.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: Statement] = [:]

    /// How long a write waits for another process's transaction before giving up.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    public init(path: String) throws(StoreError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw .sqlite(code: code, message: message, sql: nil)
        }
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Switches the file to write-ahead logging, so readers and one writer (a sync from cron and
    /// the user's shell) do not block each other. This writes to the file's header, so the Store
    /// does it only once it knows the schema is one it may touch.
    public func enableWriteAheadLog() throws(StoreError) {
        guard path != ":memory:" else { return }
        let mode = try scalarString("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw .sqlite(code: SQLITE_ERROR, message: "cannot use WAL (journal mode is \(mode ?? "unknown"))",
                          sql: "PRAGMA journal_mode = WAL")
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, sql: String?) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        return .sqlite(code: extended != 0 ? extended : code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs SQL text that may hold several statements and binds nothing (migrations, pragmas).
    public func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    private func prepared(_ sql: String) throws(StoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with bound values; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query with bound values and maps every row.
    public func query<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Row) throws(StoreError) -> T)
        throws(StoreError) -> [T]
    {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var results: [T] = []
        while try statement.step() {
            results.append(try map(Row(statement: statement)))
        }
        return results
    }

    public func scalarInt(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Int64? {
        try query(sql, values) { row throws(StoreError) in row.isNull(0) ? nil : try row.int64(0) }.first ?? nil
    }

    public func scalarString(_ sql: String, _ values: SQLValue...) throws(StoreError) -> String? {
        try query(sql, values) { row in row.optionalString(0) }.first ?? nil
    }

    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed if it returns, rolled back if it
    /// throws, so a failed command leaves the database exactly as it was.
    public func transaction<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }
}
