import DoogitStore
import DoogitSupport

/// The human-readable forms of the todo list and the repository list. Every text is passed
/// through TerminalText.sanitize; on a terminal (`width` set) lines fit its width.
struct ListRenderer {
    let style: Style
    /// Terminal columns, or nil when stdout is not a terminal (then nothing is wrapped).
    let width: Int?

    /// `[private]`, `[gone]`, `[archived]` as they apply: as shown (coloured) and as plain text,
    /// whose width the layout needs. The one place where a repository's flags are written.
    func flags(isPrivate: Bool = false, gone: Bool = false, archived: Bool) -> (shown: String, plain: String) {
        var shown: [String] = []
        var plain: [String] = []
        for (applies, flag, color) in [(isPrivate, "[private]", style.yellow), (gone, "[gone]", style.red),
                                       (archived, "[archived]", style.yellow)] where applies {
            shown.append(color(flag))
            plain.append(flag)
        }
        return (shown.joined(separator: " "), plain.joined(separator: " "))
    }

    /// The settings of `repo set` that are not the default: `[push issues] [import all] [commits off]`.
    func settings(_ settings: RepositorySettings) -> (shown: String, plain: String) {
        var plain: [String] = []
        if settings.pushIssues { plain.append("[push issues]") }
        if settings.importIssues != .off { plain.append("[import \(settings.importIssues.rawValue)]") }
        if !settings.scanCommits { plain.append("[commits off]") }
        return (plain.map(style.cyan).joined(separator: " "), plain.joined(separator: " "))
    }

    func flags(_ repository: RepositoryRecord) -> (shown: String, plain: String) {
        flags(gone: repository.gone, archived: repository.archived)
    }

    /// The section header: full name, flags, and the description, dimmed and shortened to fit.
    func header(_ repository: RepositoryRecord) -> String {
        let name = TerminalText.sanitize(repository.fullName)
        var plainWidth = DisplayWidth.of(name)
        var line = style.bold(name)
        let flagText = flags(repository)
        if !flagText.plain.isEmpty {
            line += " " + flagText.shown
            plainWidth += 1 + DisplayWidth.of(flagText.plain)
        }
        appendDescription(repository.description, to: &line, used: plainWidth)
        return line
    }

    /// Adds `description` to a line whose visible part is `used` columns wide: sanitized, dimmed,
    /// and on a terminal shortened with an ellipsis to fit.
    private func appendDescription(_ description: String?, to line: inout String, used: Int) {
        guard let description = description.map(TerminalText.sanitize)?.trimmingSpaces, !description.isEmpty else {
            return
        }
        let shown = width.map { TextLayout.truncate(description, width: $0 - used - 2, ellipsis: style.ellipsis) } ?? description
        if !shown.isEmpty { line += "  " + style.dim(shown) }
    }

    /// One line of a repository listing: `lead`, the full name padded to `nameWidth`, the
    /// `columns` (each as shown and as plain text, for its width), then the description.
    func repositoryLine(lead: String = "", leadWidth: Int = 0, fullName: String, nameWidth: Int,
                        columns: [(shown: String, plain: String)], description: String?) -> String {
        let name = TerminalText.sanitize(fullName)
        let nameColumns = DisplayWidth.of(name)
        var line = lead + style.bold(name) + String(repeating: " ", count: max(0, nameWidth - nameColumns))
        var used = leadWidth + max(nameWidth, nameColumns)
        for column in columns where !column.plain.isEmpty {
            line += "  " + column.shown
            used += 2 + DisplayWidth.of(column.plain)
        }
        appendDescription(description, to: &line, used: used)
        return line
    }

    /// The width the name column of a repository listing takes (at most 40).
    static func nameWidth(_ fullNames: [String]) -> Int {
        min(40, fullNames.map { DisplayWidth.of(TerminalText.sanitize($0)) }.max() ?? 0)
    }

    /// One todo: indent, marker, ID (right-aligned to `idWidth`), text wrapped under itself.
    func todoLines(_ todo: TodoRecord, idWidth: Int) -> [String] {
        let marker = todo.done ? style.doneMarker : style.openMarker
        let id = String(todo.id)
        let prefix = "  \(marker) " + String(repeating: " ", count: max(0, idWidth - id.utf8.count)) + id + "  "
        let text = (todo.issue.map { "#\($0.number) " } ?? "") + TerminalText.sanitize(todo.text)
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
        let nameWidth = Self.nameWidth(summaries.map(\.repository.fullName))
        var out = ""
        for summary in summaries {
            let counts = "\(summary.open) open, \(summary.done) done"
            out += repositoryLine(fullName: summary.repository.fullName, nameWidth: nameWidth,
                                  columns: [(counts, counts), flags(summary.repository), settings(summary.repository.settings)],
                                  description: summary.repository.description) + "\n"
        }
        return out
    }
}
