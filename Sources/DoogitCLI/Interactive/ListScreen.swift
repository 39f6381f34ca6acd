import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list screen as a frame: the visible lines of the list, the cursor's lines marked, a status
/// line, and the key hints or the line being typed. A pure function of the view's state.
enum ListScreen {
    /// Below this, the screen says so instead of drawing a broken list.
    static let minimumWidth = 30
    static let minimumHeight = 5

    /// The key hints, most needed first; as many as fit the width are shown, and always the
    /// last two (`?` names the rest).
    static let hints = ["j/k move", "space done", "a add", "e edit", "D remove", "u undo", "/ filter", "t tag", "d due",
                        "p pri", "n note", "z fold", "s sync", "r repos", "? help", "q quit"]

    /// The hints that fit `width`, two spaces apart.
    static func hintLine(width: Int) -> String {
        let kept = hints.suffix(2)
        var shown: [String] = []
        var used = kept.reduce(0) { $0 + DisplayWidth.of($1) + 2 } - 2
        for hint in hints.dropLast(2) {
            let hintWidth = DisplayWidth.of(hint) + 2
            guard used + hintWidth <= width else { break }
            shown.append(hint)
            used += hintWidth
        }
        return Styled.truncate((shown + kept).joined(separator: "  "), toWidth: width)
    }

    /// A key (or keys) and what it does, on the help screen.
    struct HelpEntry {
        let keys: String
        let what: String
    }

    /// The help screen's rows: two entries side by side where the width allows, or one whose
    /// words need a row of their own.
    enum HelpRow {
        case two(HelpEntry, HelpEntry)
        case one(HelpEntry)
    }

    static let helpRows: [HelpRow] = [
        .two(HelpEntry(keys: "j k ↓ ↑", what: "move"), HelpEntry(keys: "g G", what: "first, last")),
        .two(HelpEntry(keys: "PgDn PgUp", what: "a page"), HelpEntry(keys: "Tab S-Tab", what: "next, previous section")),
        .two(HelpEntry(keys: "space x", what: "done / not done"), HelpEntry(keys: "z Enter", what: "fold the section")),
        .one(HelpEntry(keys: "a", what: "add to the section (+tag due:fri pri:H, as 'todo add')")),
        .two(HelpEntry(keys: "e", what: "edit the text"), HelpEntry(keys: "n", what: "edit the note in $EDITOR")),
        .one(HelpEntry(keys: "t d p @", what: "tag, due date, priority, assignee (as 'todo edit')")),
        .two(HelpEntry(keys: "D Delete", what: "remove"), HelpEntry(keys: "u", what: "take back the last change")),
        .two(HelpEntry(keys: "P", what: "promote to an issue"), HelpEntry(keys: "o", what: "open its issue or repository")),
        .one(HelpEntry(keys: "/", what: "filter as you type (as --grep); Esc clears it")),
        .two(HelpEntry(keys: "s", what: "sync"), HelpEntry(keys: "r", what: "your repositories")),
        .one(HelpEntry(keys: "click", what: "select; on a circle: toggle; on [+]: add")),
        .two(HelpEntry(keys: "q Ctrl-C", what: "quit"), HelpEntry(keys: "Ctrl-Z", what: "suspend")),
        .two(HelpEntry(keys: "Ctrl-L", what: "redraw"), HelpEntry(keys: "?", what: "these keys")),
    ]

    /// The help screen at `width`: keys in a column, what they do beside them, two entries to
    /// a row when both fit, else one; words that do not fit wrap under themselves.
    static func helpLines(width: Int) -> [String] {
        let entries = helpRows.flatMap { row -> [HelpEntry] in
            switch row {
            case .two(let left, let right): [left, right]
            case .one(let entry): [entry]
            }
        }
        let keyWidth = (entries.map { DisplayWidth.of($0.keys) }.max() ?? 0) + 2
        var leftWidth = 0, rightWidth = 0
        for case .two(let left, let right) in helpRows {
            leftWidth = max(leftWidth, DisplayWidth.of(left.what) + 2)
            rightWidth = max(rightWidth, DisplayWidth.of(right.what))
        }
        let twoFit = keyWidth + leftWidth + keyWidth + rightWidth <= width
        func lines(_ entry: HelpEntry) -> [String] {
            let indent = String(repeating: " ", count: keyWidth)
            return TextLayout.wrap(entry.what, width: max(1, width - keyWidth)).enumerated().map { index, line in
                (index == 0 ? TextLayout.padRight(entry.keys, to: keyWidth) : indent) + line
            }
        }
        var out = ["doogit ui: keys", ""]
        for row in helpRows {
            switch row {
            case .two(let left, let right) where twoFit:
                out.append(TextLayout.padRight(left.keys, to: keyWidth) + TextLayout.padRight(left.what, to: leftWidth)
                           + TextLayout.padRight(right.keys, to: keyWidth) + right.what)
            case .two(let left, let right):
                out += lines(left) + lines(right)
            case .one(let entry):
                out += lines(entry)
            }
        }
        out += ["", "Any key closes this."]
        return out.map { Styled.truncate($0, toWidth: width) }
    }

    static func frame(_ view: ListView, spinner: String = "") -> Frame {
        let width = view.width, height = view.height
        guard width >= minimumWidth, height >= minimumHeight else {
            return tooSmall(width: width, height: height)
        }
        let style = view.renderer.style
        if view.showsHelp {
            let rows = helpLines(width: width)
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
            rows.append(style.dim(hintLine(width: width)))
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
