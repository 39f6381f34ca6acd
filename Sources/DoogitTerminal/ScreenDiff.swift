/// The bytes that change the terminal from one frame to the next: only the rows that differ are
/// written, so a key press redraws a line or two rather than the screen, and all of it inside
/// synchronized-output markers, so a terminal that knows them shows it at once, without
/// flicker (others ignore them).
public enum ScreenDiff {
    static let beginUpdate = "\u{1B}[?2026h"
    static let endUpdate = "\u{1B}[?2026l"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let resetStyle = "\u{1B}[0m"
    static let clearToLineEnd = "\u{1B}[K"
    static let clearScreen = "\u{1B}[0m\u{1B}[H\u{1B}[2J"

    /// From `old`, the frame last written at this same size, to `new`; with no old frame (the
    /// first, or after the size changed: see `Screen`), the screen is cleared and every row
    /// written. Identical frames give "". Rows wider than `width` are cut (`Styled.truncate`).
    public static func output(from old: Frame?, to new: Frame, width: Int, height: Int) -> String {
        guard width > 0, height > 0 else { return "" }
        let rows = fitted(new.rows, height: height)
        var out = beginUpdate
        if let old {
            let oldRows = fitted(old.rows, height: height)
            let changed = (0..<height).filter { rows[$0] != oldRows[$0] }
            if changed.isEmpty, old.cursor == new.cursor { return "" }
            // A shown cursor would otherwise wander over the rows as they are written.
            if !changed.isEmpty, new.cursor != nil { out += hideCursor }
            for row in changed { out += line(row, rows[row], width: width, clearing: true) }
        } else {
            if new.cursor != nil { out += hideCursor }
            out += clearScreen
            for row in 0..<height where !rows[row].isEmpty { out += line(row, rows[row], width: width, clearing: false) }
        }
        if let cursor = new.cursor {
            out += moveTo(row: min(max(cursor.row, 0), height - 1), column: min(max(cursor.column, 0), width - 1))
            out += showCursor
        } else {
            out += hideCursor
        }
        return out + endUpdate
    }

    private static func fitted(_ rows: [String], height: Int) -> [String] {
        (0..<height).map { $0 < rows.count ? rows[$0] : "" }
    }

    private static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(row + 1);\(column + 1)H"
    }

    /// One row written from its left edge, its style reset after it, and the rest of the old row
    /// cleared. A row as wide as the screen is not followed by a clear: the cursor then stays on
    /// the last column, and clearing from there would erase the row's last character.
    private static func line(_ row: Int, _ text: String, width: Int, clearing: Bool) -> String {
        var text = text
        var textWidth = Styled.visibleWidth(text)
        if textWidth > width {
            text = Styled.truncate(text, toWidth: width)
            textWidth = width
        }
        var out = moveTo(row: row, column: 0) + text + resetStyle
        if clearing, textWidth < width { out += clearToLineEnd }
        return out
    }
}
