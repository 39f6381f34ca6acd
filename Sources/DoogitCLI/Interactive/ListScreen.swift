import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list screen as a frame: the visible lines of the list, the cursor's lines marked, a status
/// line, and the key hints or the line being typed. A pure function of the view's state.
enum ListScreen {
    /// Below this, the screen says so instead of drawing a broken list.
    static let minimumWidth = 30
    static let minimumHeight = 5

    static let hints = "j/k move  space done  a add  e edit  t tag  d due  p pri  n note  D remove  u undo  / filter  z fold  s sync  r repos  ? help  q quit"

    static let help = [
        "doogit ui: keys",
        "",
        "j k ↓ ↑        move              g G           first, last",
        "PgDn PgUp      a page            Tab S-Tab     next, previous section",
        "space x        done / not done   z Enter       fold the section",
        "a              add to the section (+tag due:fri pri:H, as 'todo add')",
        "e              edit the text     n             edit the note in $EDITOR",
        "t d p          tag, due date, priority (as 'todo edit')",
        "D Delete       remove            u             take back the last change",
        "P              promote to an issue               o             open its issue or repository",
        "/              filter as you type (as --grep); Esc clears it",
        "s              sync              r             your repositories",
        "click          select; on a circle: toggle; on [+]: add",
        "q Ctrl-C       quit              Ctrl-Z        suspend       Ctrl-L  redraw",
        "",
        "Any key closes this.",
    ]

    static func frame(_ view: ListView, spinner: String = "") -> Frame {
        let width = view.width, height = view.height
        guard width >= minimumWidth, height >= minimumHeight else {
            return tooSmall(width: width, height: height)
        }
        let style = view.renderer.style
        if view.showsHelp {
            let rows = help.map { Styled.truncate($0, toWidth: width) }
            return Frame(rows: Array((rows + Array(repeating: "", count: max(0, height - rows.count))).prefix(height)))
        }
        var rows: [String] = []
        rows.reserveCapacity(height)
        let lines = view.window.lines
        let marked = view.cursor.flatMap { view.window.lines(of: $0) } ?? 0..<0
        for index in view.top..<(view.top + view.listHeight) {
            guard lines.indices.contains(index) else {
                rows.append("")
                continue
            }
            let text = lines[index].text
            rows.append(marked.contains(index) ? selected(text, width: width, style: style) : text)
        }
        if view.window.isEmpty {
            // listHeight is at least 1: there is a first row.
            rows[0] = Styled.truncate(view.filter.isEmpty
                ? "No todos. Press r to track a repository, then a to add a todo."
                : "No todo matches '\(TerminalText.sanitize(view.filter))'. Esc clears the filter.", toWidth: width)
        }
        rows.append(statusLine(view, spinner: spinner, style: style))
        var cursor: Frame.Cursor?
        if let prompt = view.prompt {
            let label = Styled.truncate(prompt.label, toWidth: max(0, width / 2))
            let labelWidth = Styled.visibleWidth(label)
            let shown = prompt.editor.visible(width: max(1, width - labelWidth - 1))
            rows.append(style.bold(label) + shown.text)
            cursor = Frame.Cursor(row: height - 1, column: labelWidth + shown.cursorColumn)
        } else {
            rows.append(style.dim(Styled.truncate(hints, toWidth: width)))
        }
        return Frame(rows: rows, cursor: cursor)
    }

    /// The cursor's lines: a '›' in the margin, and in reverse video with colour (kept across
    /// the line's own styles, each of which ends in a reset).
    private static func selected(_ text: String, width: Int, style: Style) -> String {
        let line = marked(text, with: style.unicode ? "›" : ">")
        return style.color ? reversed(line, width: width) : line
    }

    /// The row with `mark` in place of its first visible character, a space of the indent
    /// (after any styles the row starts with: a done todo's line starts dimmed).
    static func marked(_ row: String, with mark: String) -> String {
        var index = row.startIndex
        while row[index...].hasPrefix("\u{1B}["), let end = row[index...].firstIndex(where: { $0.isLetter }) {
            index = row.index(after: end)
        }
        guard index < row.endIndex, row[index] == " " else { return row }
        return row[..<index] + mark + row[row.index(after: index)...]
    }

    /// A row in reverse video to the screen's edge, kept across the row's own styles.
    static func reversed(_ row: String, width: Int) -> String {
        let reverse = "\u{1B}[7m"
        let padded = row + String(repeating: " ", count: max(0, width - Styled.visibleWidth(row)))
        return reverse + padded.replacing("\u{1B}[0m", with: "\u{1B}[0m" + reverse) + "\u{1B}[0m"
    }

    /// How many are open and done, then what is shown and the last sync (or the one running);
    /// after a key that did something, the counts and what it did, which takes the room.
    static func statusLine(_ view: ListView, spinner: String, style: Style) -> String {
        let width = view.width
        let counts = "\(view.openCount) open, \(view.doneCount) done"
        var left = counts, right: String
        if let message = view.message {
            right = TerminalText.sanitize(message)
        } else if let hint = view.prompt?.hint {
            right = hint
        } else {
            left += " in " + Counted.text(view.shownSections, "repository", plural: "repositories")
            if !view.filter.isEmpty { left += " · /\(TerminalText.sanitize(view.filter))" }
            right = view.syncing ? "syncing \(spinner)" : TerminalText.sanitize(view.lastSync ?? "s syncs, ? keys")
        }
        let room = width - DisplayWidth.of(left) - 2
        let line: String
        if room >= 10 {
            let shown = TextLayout.truncate(right, width: room, ellipsis: style.ellipsis)
            let gap = view.message == nil && view.prompt?.hint == nil ? max(2, width - DisplayWidth.of(left) - DisplayWidth.of(shown)) : 2
            line = left + String(repeating: " ", count: gap) + shown
        } else {
            line = TextLayout.truncate(view.message == nil ? left : right, width: width, ellipsis: style.ellipsis)
        }
        return style.color ? reversed(line, width: width) : line
    }

    /// What a screen below the minimum shows instead of a broken list.
    static func tooSmall(width: Int, height: Int) -> Frame {
        let text = "doogit ui needs \(minimumWidth)x\(minimumHeight); this is \(width)x\(height)"
        let rows = [Styled.truncate(text, toWidth: max(1, width))]
        return Frame(rows: Array((rows + Array(repeating: "", count: max(0, height - 1))).prefix(max(1, height))))
    }
}
