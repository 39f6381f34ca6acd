import DoogitStore
import Testing

/// Rows are read by column name; the lookup tries the column after the last one first, so it
/// must stay right whatever order the columns are asked in.
@Suite struct ColumnLookupTests {
    @Test func columnsReadInAnyOrderGiveTheirOwnValues() throws {
        let database = try Database(path: ":memory:")
        let sql = "SELECT 1 AS a, 'two' AS b, 3 AS c UNION ALL SELECT 4, 'five', 6"
        let inOrder = try database.query(sql) { row throws(StoreError) in "\(try row.int64("a")) \(try row.string("b")) \(try row.int64("c"))" }
        #expect(inOrder == ["1 two 3", "4 five 6"])
        let backwards = try database.query(sql) { row throws(StoreError) in "\(try row.int64("c")) \(try row.string("b")) \(try row.int64("a"))" }
        #expect(backwards == ["3 two 1", "6 five 4"])
        let again = try database.query(sql) { row throws(StoreError) in "\(try row.int64("a")) \(try row.int64("a")) \(try row.int64("c"))" }
        #expect(again == ["1 1 3", "4 4 6"])
        #expect(throws: StoreError.unknownColumn("d")) {
            _ = try database.query(sql) { row throws(StoreError) in try row.int64("d") }
        }
    }
}
