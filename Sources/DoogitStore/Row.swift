internal import CSQLite

/// The current row of a statement being stepped; valid only inside the closure it is given to.
/// A NULL where a value is required is an error, never a trap.
public struct Row {
    private let statement: Statement

    init(statement: Statement) {
        self.statement = statement
    }

    private func name(_ column: Int32) -> String {
        sqlite3_column_name(statement.handle, column).map { String(cString: $0) } ?? "column \(column)"
    }

    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement.handle, column) == SQLITE_NULL
    }

    public func int64(_ column: Int32) throws(StoreError) -> Int64 {
        guard !isNull(column) else { throw .unexpectedNull(column: name(column)) }
        return sqlite3_column_int64(statement.handle, column)
    }

    public func bool(_ column: Int32) throws(StoreError) -> Bool {
        try int64(column) != 0
    }

    public func optionalString(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement.handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public func string(_ column: Int32) throws(StoreError) -> String {
        guard let value = optionalString(column) else { throw .unexpectedNull(column: name(column)) }
        return value
    }
}
