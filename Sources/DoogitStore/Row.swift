internal import CSQLite
import DoogitSupport
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The current row of a statement being stepped; valid only inside the closure it is given to.
/// Columns are read by name (`"id"`, or the `AS` alias) or by position. A NULL where a value is
/// required, or a name the statement does not have, is an error, never a trap.
public struct Row {
    private let statement: Statement

    init(statement: Statement) {
        self.statement = statement
    }

    private func name(_ column: Int32) -> String {
        sqlite3_column_name(statement.handle, column).map { String(cString: $0) } ?? "column \(column)"
    }

    /// The position of a column, for rows read many times by position.
    func index(_ name: String) throws(StoreError) -> Int32 {
        guard let index = position(of: name) else { throw .unknownColumn(name) }
        return index
    }

    /// The position of a column, or nil when the statement has none of that name.
    func position(of name: String) -> Int32? {
        statement.column(named: name)
    }

    /// The bytes of a blob, for the closure's length (none for NULL).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement.handle, column) else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement.handle, column) == SQLITE_NULL
    }

    public func isNull(_ column: String) throws(StoreError) -> Bool {
        isNull(try index(column))
    }

    public func int64(_ column: Int32) throws(StoreError) -> Int64 {
        guard !isNull(column) else { throw .unexpectedNull(column: name(column)) }
        return sqlite3_column_int64(statement.handle, column)
    }

    public func int64(_ column: String) throws(StoreError) -> Int64 {
        try int64(try index(column))
    }

    /// nil for NULL.
    public func optionalInt64(_ column: String) throws(StoreError) -> Int64? {
        let index = try index(column)
        return isNull(index) ? nil : sqlite3_column_int64(statement.handle, index)
    }

    public func bool(_ column: Int32) throws(StoreError) -> Bool {
        try int64(column) != 0
    }

    public func bool(_ column: String) throws(StoreError) -> Bool {
        try int64(column) != 0
    }

    public func optionalString(_ column: Int32) -> String? {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// What `parse` makes of a text column's bytes; nil for NULL.
    func withText<T>(_ column: Int32, _ parse: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        guard let text = sqlite3_column_text(statement.handle, column) else { return nil }
        return parse(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement.handle, column))))
    }

    /// An RFC 3339 timestamp column, read from its bytes; nil for NULL, an error when malformed.
    public func optionalTimestamp(_ column: String) throws(StoreError) -> Timestamp? {
        try optionalTimestamp(try index(column))
    }

    public func optionalTimestamp(_ index: Int32) throws(StoreError) -> Timestamp? {
        guard let text = sqlite3_column_text(statement.handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        guard let value = Timestamp(rfc3339UTF8: UnsafeBufferPointer(start: text, count: count)) else { throw .corrupt }
        return value
    }

    public func timestamp(_ column: Int32) throws(StoreError) -> Timestamp {
        guard let value = try optionalTimestamp(column) else { throw .unexpectedNull(column: name(column)) }
        return value
    }

    public func optionalString(_ column: String) throws(StoreError) -> String? {
        optionalString(try index(column))
    }

    /// Whether the column holds exactly the bytes of `text` (false for NULL), without making a String.
    func textEquals(_ column: Int32, _ text: String) -> Bool {
        guard let bytes = sqlite3_column_text(statement.handle, column) else { return false }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        var text = text
        return text.withUTF8 { mine in
            guard mine.count == count else { return false }
            guard let start = mine.baseAddress else { return true }
            return memcmp(start, bytes, count) == 0
        }
    }

    public func string(_ column: Int32) throws(StoreError) -> String {
        guard let value = optionalString(column) else { throw .unexpectedNull(column: name(column)) }
        return value
    }

    public func string(_ column: String) throws(StoreError) -> String {
        try string(try index(column))
    }
}
