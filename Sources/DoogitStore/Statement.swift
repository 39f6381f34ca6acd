internal import CSQLite

/// A prepared statement; finalized when released. Owned by its Database's cache.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database
    /// The column names in order, so rows are read by name and a new column renumbers nothing.
    let columnNames: [String]

    /// Where the next lookup by name looks first.
    private var nextColumn = 0

    /// The position of a column. Rows are mostly read column after column, so the one after the
    /// last found is tried first: reading a 10,000-row list then costs one comparison a column,
    /// not a hash of the name.
    func column(named name: String) -> Int32? {
        let index: Int
        if nextColumn < columnNames.count && columnNames[nextColumn] == name {
            index = nextColumn
        } else {
            guard let found = columnNames.firstIndex(of: name) else { return nil }
            index = found
        }
        nextColumn = index + 1
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
            case .text(let text):
                code = text.utf8CString.withUnsafeBufferPointer { buffer in
                    doogit_sqlite3_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1))
                }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Advances; true while a row is available.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
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
