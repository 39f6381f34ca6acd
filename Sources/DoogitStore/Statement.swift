internal import CSQLite

/// A prepared statement; finalized when released. Owned by its Database's cache.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database
    /// Column positions by name, so rows are read by name and a new column renumbers nothing.
    private(set) lazy var columns: [String: Int32] = {
        var columns: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(handle) {
            if let name = sqlite3_column_name(handle, index) { columns[String(cString: name)] = index }
        }
        return columns
    }()

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
