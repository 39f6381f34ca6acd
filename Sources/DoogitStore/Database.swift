internal import CSQLite
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a doogit database. Opening applies the connection settings every command
/// relies on: extended result codes, a busy timeout (cron's sync meets the user's shell),
/// foreign keys, reads through a memory map and synchronous=NORMAL; `enableWriteAheadLog` adds WAL.
public final class Database {
    /// How a connection may use the file.
    public enum Access: Sendable {
        case readWrite
        /// Reads only; SQLite still needs to create the write-ahead log's index beside the file.
        case readOnly
        /// Reads only, promising SQLite that nobody changes the file meanwhile: works in a folder
        /// where no file can be created.
        case immutable
    }

    let handle: OpaquePointer
    public let path: String
    public let access: Access
    private var statements: [String: Statement] = [:]
    private var lastPrepared: Statement?

    /// How long a write waits for another process's transaction before giving up.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How much of the file SQLite reads through a memory map rather than copying each page into
    /// a cache of its own: a read then shares the system's pages, with no copy and a third fewer
    /// page faults (a short list spent most of its faults growing the heap for that cache). Left
    /// off for an immutable file, which takes no locks: another process could shorten it under
    /// the map, and reading past its end is a signal, not an error.
    static let mappedBytes = 256 << 20

    public init(path: String, access: Access = .readWrite) throws(StoreError) {
        var connection: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX
        let name: String
        switch access {
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            name = path
        case .readOnly, .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = Self.fileURI(path, immutable: access == .immutable)
        }
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let systemCode = connection.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(connection)
            throw StoreError.classify(code: code, message: message, systemErrno: systemCode, sql: nil, path: path)
        }
        self.handle = connection
        self.path = path
        self.access = access
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        if access != .immutable { try execute("PRAGMA mmap_size = \(Self.mappedBytes)") }
        guard TextMatch.register(on: connection) else {
            throw StoreError.classify(code: SQLITE_ERROR, message: "cannot add the function \(TextMatch.sqlName)",
                                      systemErrno: 0, sql: nil, path: path)
        }
        if access == .readWrite {
            try execute("PRAGMA synchronous = NORMAL")
            // A statement that fires a trigger inside a savepoint keeps a journal of its own: in
            // memory, not a file written page by page (a first pull of 10,000 todos wrote 90,000 times).
            try execute("PRAGMA temp_store = MEMORY")
        }
    }

    /// A `file:` URI for `path`, with the characters that URIs reserve escaped.
    static func fileURI(_ path: String, immutable: Bool) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0x80...0xFF, 0...0x20:
                let hex = Array("0123456789ABCDEF".utf8)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            default:
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri + (immutable ? "?immutable=1" : "?mode=ro")
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
        lastPrepared = nil
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, sql: String?) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        return StoreError.classify(code: extended != 0 ? extended : code, message: String(cString: sqlite3_errmsg(handle)),
                                   systemErrno: sqlite3_system_errno(handle), sql: sql, path: path)
    }

    /// Turns this connection's triggers on or off (other connections keep theirs).
    func enableTriggers(_ enable: Bool) throws(StoreError) {
        guard doogit_sqlite3_enable_triggers(handle, enable ? 1 : 0) == 0 else {
            throw StoreError.classify(code: SQLITE_ERROR, message: "cannot turn triggers \(enable ? "on" : "off")", systemErrno: 0,
                                      sql: nil, path: path)
        }
    }

    /// Runs SQL text that may hold several statements and binds nothing (migrations, pragmas).
    public func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    private func prepared(_ sql: String) throws(StoreError) -> Statement {
        // A loop runs one statement many times: the same text is found without hashing it.
        if let last = lastPrepared, last.sql == sql { return last }
        if let statement = statements[sql] {
            lastPrepared = statement
            return statement
        }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        lastPrepared = statement
        return statement
    }

    /// Runs one statement with bound values; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Int {
        try run(sql, values)
    }

    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> Int {
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

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    private var savepointDepth = 0

    /// Runs `body`, which only reads, in one deferred transaction, so that its queries see one
    /// state of the file (a read-only connection cannot begin an immediate one). Inside another
    /// transaction it just runs.
    public func reading<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed if it returns, rolled back if it
    /// throws, so a failed command leaves the database exactly as it was. Inside another
    /// transaction it is a savepoint, so store operations compose: several of them in one outer
    /// transaction commit or roll back together.
    public func transaction<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        let nested = isInTransaction
        if nested { savepointDepth += 1 }
        defer { if nested { savepointDepth -= 1 } }
        let savepoint = "doogit_\(savepointDepth)"
        let (begin, commit, rollback) = nested
            ? ("SAVEPOINT \(savepoint)", "RELEASE \(savepoint)", "ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            : ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")
        try execute(begin)
        do {
            let result = try body()
            try execute(commit)
            return result
        } catch {
            _ = sqlite3_exec(handle, rollback, nil, nil, nil)
            throw error
        }
    }
}

extension StoreError {
    /// The meaningful case for an SQLite result code; what has no case of its own stays `.sqlite`.
    /// A refused write or open is traced to its cause: the file, or the folder the journal goes in.
    static func classify(code: Int32, message: String, systemErrno: Int32, sql: String?, path: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            guard path != ":memory:" else { return .sqlite(code: code, message: message, sql: sql) }
            if Files.exists(path) && access(path, R_OK) != 0 { return .cannotOpen(path: path, reason: Files.reason(EACCES)) }
            let folder = Files.parentFolder(of: path)
            if Files.exists(folder) && access(folder, W_OK) != 0 { return .readOnlyFolder(path: folder) }
            let protected = [path, path + "-wal", path + "-shm"].filter { Files.exists($0) && access($0, W_OK) != 0 }
            if !protected.isEmpty { return .readOnlyFiles(paths: protected) }
            if code & 0xFF == SQLITE_CANTOPEN {
                return .cannotOpen(path: path, reason: systemErrno != 0 ? Files.reason(systemErrno) : message)
            }
            return .sqlite(code: code, message: message, sql: sql)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy
        case SQLITE_FULL:
            return .diskFull
        case SQLITE_IOERR:
            if systemErrno == ENOSPC || systemErrno == EDQUOT { return .diskFull }
            return .ioError(reason: systemErrno != 0 ? Files.reason(systemErrno) : message)
        case SQLITE_NOTADB:
            return .notADatabase
        case SQLITE_CORRUPT:
            return .corrupt
        default:
            return .sqlite(code: code, message: message, sql: sql)
        }
    }
}
