import DoogitStore
import DoogitSupport

/// The human-readable forms of the todo list and the repository list. Every text is passed
/// through TerminalText.sanitize; on a terminal (`width` set) lines fit its width.
struct ListRenderer {
    let style: Style
    /// Terminal columns, or nil when stdout is not a terminal (then nothing is wrapped).
    let width: Int?

    /// `[archived]`, `[gone]` as they apply.
    func flags(_ repository: RepositoryRecord) -> String {
        var flags: [String] = []
        if repository.gone { flags.append(style.red("[gone]")) }
        if repository.archived { flags.append(style.yellow("[archived]")) }
        return flags.joined(separator: " ")
    }

    /// The section header: full name, flags, and the description, dimmed and shortened to fit.
    func header(_ repository: RepositoryRecord) -> String {
        let name = TerminalText.sanitize(repository.fullName)
        var plainWidth = DisplayWidth.of(name)
        var line = style.bold(name)
        let flagText = flags(repository)
        if !flagText.isEmpty {
            line += " " + flagText
            plainWidth += 1 + DisplayWidth.of(plainFlags(repository))
        }
        if let description = repository.description.map(TerminalText.sanitize)?.trimmingCharacters(), !description.isEmpty {
            var shown = description
            if let width {
                shown = TextLayout.truncate(description, width: width - plainWidth - 2, ellipsis: style.ellipsis)
            }
            if !shown.isEmpty { line += "  " + style.dim(shown) }
        }
        return line
    }

    private func plainFlags(_ repository: RepositoryRecord) -> String {
        [repository.gone ? "[gone]" : nil, repository.archived ? "[archived]" : nil].compactMap { $0 }.joined(separator: " ")
    }

    /// One todo: indent, marker, ID (right-aligned to `idWidth`), text wrapped under itself.
    func todoLines(_ todo: TodoRecord, idWidth: Int) -> [String] {
        let marker = todo.done ? style.doneMarker : style.openMarker
        let id = String(todo.id)
        let prefix = "  \(marker) " + String(repeating: " ", count: max(0, idWidth - id.utf8.count)) + id + "  "
        let text = TerminalText.sanitize(todo.text)
        guard let width, width - DisplayWidth.of(prefix) >= 10 else {
            let line = prefix + text
            return [todo.done ? style.dim(line) : line]
        }
        let prefixWidth = DisplayWidth.of(prefix)
        let indent = String(repeating: " ", count: prefixWidth)
        return TextLayout.wrap(text, width: width - prefixWidth).enumerated().map { index, part in
            let line = (index == 0 ? prefix : indent) + part
            return todo.done ? style.dim(line) : line
        }
    }

    func todoList(_ sections: [TodoSection]) -> String {
        let idWidth = sections.flatMap(\.todos).map { String($0.id).count }.max() ?? 1
        var out = ""
        for (index, section) in sections.enumerated() {
            if index > 0 { out += "\n" }
            out += header(section.repository) + "\n"
            for todo in section.todos {
                for line in todoLines(todo, idWidth: idWidth) { out += line + "\n" }
            }
        }
        return out
    }

    func repositoryList(_ summaries: [RepositorySummary]) -> String {
        let nameWidth = min(40, summaries.map { DisplayWidth.of(TerminalText.sanitize($0.repository.fullName)) }.max() ?? 0)
        var out = ""
        for summary in summaries {
            let repository = summary.repository
            let name = TerminalText.sanitize(repository.fullName)
            let counts = "\(summary.open) open, \(summary.done) done"
            var line = style.bold(name) + String(repeating: " ", count: max(0, nameWidth - DisplayWidth.of(name))) + "  " + counts
            var used = max(nameWidth, DisplayWidth.of(name)) + 2 + counts.count
            let flagText = flags(repository)
            if !flagText.isEmpty {
                line += "  " + flagText
                used += 2 + DisplayWidth.of(plainFlags(repository))
            }
            if let description = repository.description.map(TerminalText.sanitize)?.trimmingCharacters(), !description.isEmpty {
                let shown = width.map { TextLayout.truncate(description, width: $0 - used - 2, ellipsis: style.ellipsis) } ?? description
                if !shown.isEmpty { line += "  " + style.dim(shown) }
            }
            out += line + "\n"
        }
        return out
    }
}
