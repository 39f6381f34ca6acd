/// What the screen should show: one styled string a row, top to bottom (`Styled`), and where
/// the cursor is, if it is shown at all.
public struct Frame: Equatable, Sendable {
    public struct Cursor: Equatable, Sendable {
        /// 0-based.
        public var row: Int
        /// 0-based.
        public var column: Int

        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// Rows past the screen's height are not shown; missing rows are empty.
    public var rows: [String]
    /// nil: the cursor is hidden.
    public var cursor: Cursor?

    public init(rows: [String], cursor: Cursor? = nil) {
        self.rows = rows
        self.cursor = cursor
    }
}
