import DoogitSupport
import DoogitTerminal

/// The repository screen as a frame: the search field, the matching repositories (tracked ones
/// marked, as `repo search` marks them), a status line and the key hints.
enum RepositoryScreen {
    static let hints = "type to search  ↓/↑ move  Enter track or stop tracking  Esc clear, back to the list"

    static func frame(_ view: RepositoryView, style: Style, spinner: String = "") -> Frame {
        let width = view.width, height = view.height
        guard width >= ListScreen.minimumWidth, height >= ListScreen.minimumHeight else {
            return ListScreen.tooSmall(width: width, height: height)
        }
        var rows: [String] = []
        let label = "Search your repositories: "
        let field = view.search.visible(width: max(1, width - label.count - 1))
        rows.append(style.bold(label) + field.text)
        let renderer = ListRenderer(style: style, width: width)
        let shown = view.matches.dropFirst(view.top).prefix(view.listHeight).map { view.entries[$0] }
        let nameWidth = ListRenderer.nameWidth(shown.map(\.fullName))
        for (offset, entry) in shown.enumerated() {
            let mark = entry.tracked ? style.green(style.unicode ? "✓" : "*") : " "
            let isCursor = view.top + offset == view.cursor
            var line = renderer.repositoryLine(
                lead: (isCursor ? (style.unicode ? "›" : ">") : " ") + mark + " ", leadWidth: 3, fullName: entry.fullName,
                nameWidth: nameWidth, columns: [renderer.flags(isPrivate: entry.isPrivate, archived: entry.archived)],
                description: entry.description)
            line = Styled.truncate(line, toWidth: width)
            rows.append(isCursor && style.color ? ListScreen.reversed(line, width: width) : line)
        }
        if shown.isEmpty {
            rows.append(view.loading ? "Reading your repositories from GitHub…"
                : view.entries.isEmpty ? "No repositories: GitHub listed none for this token"
                : "No repository matches; Esc clears the search")
        }
        while rows.count < height - 2 { rows.append("") }
        var status = "\(view.matches.count) of \(view.entries.count) repositories"
        if view.loading { status += "  reading from GitHub \(spinner)" }
        if let confirming = view.confirming {
            status = "Stop tracking \(TerminalText.sanitize(confirming.entry.fullName)) and remove its \(Counted.text(confirming.todos, "todo"))? y/n"
        } else if let message = view.message {
            status = TerminalText.sanitize(message)
        }
        status = TextLayout.truncate(status, width: width, ellipsis: style.ellipsis)
        rows.append(style.color ? ListScreen.reversed(status, width: width) : status)
        rows.append(style.dim(Styled.truncate(hints, toWidth: width)))
        let cursorColumn = DisplayWidth.of(label) + field.cursorColumn
        return Frame(rows: Array(rows.prefix(height)), cursor: Frame.Cursor(row: 0, column: cursorColumn))
    }
}
