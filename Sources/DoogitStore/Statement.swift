internal import CSQLite

/// A prepared statement; finalized when released. Owned by its Database's cache.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database
    /// The column names in order, so rows are read by name and a new column renumbers nothing.
    let columnNames: [String]
    /// The position of each name (the first, should two columns share one), made at the first
    /// lookup that needs it: most statements are read by position, or not read at all.
    private lazy var positions = Dictionary(columnNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    /// The positions the lookups of the last row found, in the order they came: the rows of a
    /// query are read alike, so the k-th lookup of a row is tried first where the k-th of the
    /// last one was found.
    private var lookups: [Int] = []
    private var lookupCount = 0

    /// The position of a column: one comparison of names a lookup once the first row was read
    /// (a 10,000-row list reads 300,000 columns), a hash of the name before.
    func column(named name: String) -> Int32? {
        let index: Int
        if lookupCount < lookups.count && columnNames[lookups[lookupCount]] == name {
            index = lookups[lookupCount]
        } else {
            guard let found = positions[name] else { return nil }
            index = found
            if lookupCount < lookups.count { lookups[lookupCount] = index } else { lookups.append(index) }
        }
        lookupCount += 1
        return Int32(index)
    }

    init(database: Database, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw database.error(code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
        columnNames = (0..<sqlite3_column_count(statement)).map { index in
            sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
        }
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw .bindMismatch(expected: expected, given: values.count, sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // The string's own bytes, which SQLite copies: no C string made first. An empty
                // one still binds text (a nil pointer would bind NULL).
                code = text.isEmpty ? doogit_sqlite3_bind_text(handle, index, "", 0) : text.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        doogit_sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count))
                    }
                }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Advances; true while a row is available.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        lookupCount = 0
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw database.error(code, sql: sql)
        }
    }

    func reset() {
        sqlite3_reset(handle)
    }
}
