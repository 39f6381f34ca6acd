import DoogitStore
import DoogitSupport

/// The human-readable forms of the todo list and the repository list. Every text is passed
/// through TerminalText.sanitize; on a terminal (`width` set) lines fit its width.
struct ListRenderer {
    let style: Style
    /// Terminal columns, or nil when stdout is not a terminal (then nothing is wrapped).
    var width: Int?
    /// Text to highlight in todo text (`--grep`), found ignoring case; shown only with colour.
    var highlight: String? = nil
    /// The extra columns of `todo list --long`, or nil.
    var long: LongColumns? = nil
    /// The local calendar's today, to show due dates relative to it (nil: as dates).
    var today: CalendarDate? = nil
    /// A URL longer than the width on a line of its own, whole (the terminal wraps it and still
    /// sees one link); false where a longer line would be cut (the full-screen view).
    var wholeURLs = true
    /// The user's GitHub login as last seen: a todo of another login shows it (`@login`).
    var me: String? = nil

    /// The renderer of todos for a command's output, the same for the list, `next` and the lines
    /// that commands echo: the runtime's style and width, due dates relative to today.
    static func todos(_ runtime: Runtime) -> ListRenderer {
        var renderer = ListRenderer(style: runtime.style, width: runtime.console.width)
        renderer.today = CalendarDate.local(at: runtime.now())
        renderer.me = runtime.login(reading: true)
        return renderer
    }

    /// `[private]`, `[gone]`, `[archived]` as they apply (`[archived?]` when GitHub did not say),
    /// and `[not tracked]` for the removed todos of a repository no longer tracked: as shown
    /// (coloured) and as plain text, whose width the layout needs. The one place where a
    /// repository's flags are written.
    func flags(isPrivate: Bool = false, gone: Bool = false, archived: Bool?, tracked: Bool = true) -> (shown: String, plain: String) {
        // Most repositories have none: no list of them is made.
        guard isPrivate || gone || archived != false || !tracked else { return ("", "") }
        var shown: [String] = []
        var plain: [String] = []
        for (applies, flag, color) in [(isPrivate, "[private]", style.yellow), (gone, "[gone]", style.red),
                                       (archived == true, "[archived]", style.yellow),
                                       (archived == nil, "[archived?]", style.yellow),
                                       (!tracked, "[not tracked]", style.yellow)] where applies {
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

    func flags(_ repository: some SectionHeading) -> (shown: String, plain: String) {
        flags(gone: repository.gone, archived: repository.archived, tracked: repository.tracked)
    }

    /// The section header: full name, flags, and the description, dimmed and shortened to fit.
    func header(_ repository: some SectionHeading) -> String {
        var out = OutputText(capacity: 128)
        appendHeader(repository, to: &out)
        return out.text
    }

    /// `header` written into `out` piece by piece, as a whole list is written.
    func appendHeader(_ repository: some SectionHeading, to out: inout OutputText) {
        let name = TerminalText.sanitize(repository.fullName)
        out += style.bold(name)
        // The columns used so far: only a terminal's width shortens the description.
        var used = width == nil ? 0 : DisplayWidth.of(name)
        let flagText = flags(repository)
        if !flagText.plain.isEmpty {
            out += " " as StaticString
            out += flagText.shown
            if width != nil { used += 1 + DisplayWidth.of(flagText.plain) }
        }
        if let shown = shownDescription(repository.description, used: used) {
            out += "  " as StaticString
            out += shown
        }
    }

    /// The description as shown after `used` columns (sanitized, dimmed, shortened to fit), or
    /// nil when there is none or no room for it.
    private func shownDescription(_ description: String?, used: Int) -> String? {
        guard let description = description.map(TerminalText.sanitize)?.trimmingSpaces, !description.isEmpty else {
            return nil
        }
        let shown = width.map { TextLayout.truncate(description, width: $0 - used - 2, ellipsis: style.ellipsis) } ?? description
        return shown.isEmpty ? nil : style.dim(shown)
    }

    /// One line of a repository listing: `lead`, the full name padded to `nameWidth`, the
    /// `columns` (each as shown and as plain text, for its width), then the description. The
    /// name is padded only when something follows it: no line ends in spaces.
    func repositoryLine(lead: String = "", leadWidth: Int = 0, fullName: String, nameWidth: Int,
                        columns: [(shown: String, plain: String)], description: String?) -> String {
        let name = TerminalText.sanitize(fullName)
        let nameColumns = DisplayWidth.of(name)
        var line = lead + style.bold(name)
        var padding = String(repeating: " ", count: max(0, nameWidth - nameColumns))
        var used = leadWidth + max(nameWidth, nameColumns)
        for column in columns where !column.plain.isEmpty {
            line += padding + "  " + column.shown
            padding = ""
            used += 2 + DisplayWidth.of(column.plain)
        }
        if let shown = shownDescription(description, used: used) { line += padding + "  " + shown }
        return line
    }

    /// The width the name column of a repository listing takes (at most 40).
    static func nameWidth(_ fullNames: [String]) -> Int {
        min(40, fullNames.map { DisplayWidth.of(TerminalText.sanitize($0)) }.max() ?? 0)
    }

    /// One todo: indent, marker, ID (right-aligned to `idWidth`), the `--long` cells, and the
    /// text wrapped under itself, one string per line. See `appendTodo`.
    func todoLines(_ todo: TodoRecord, idWidth: Int, cells: String = "") -> [String] {
        var out = OutputText()
        appendTodo(todo, idWidth: idWidth, cells: cells, to: &out)
        return out.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Appends one todo's lines to `out`, each ending in a newline: indent, marker, ID
    /// (right-aligned to `idWidth`), the `--long` cells, the text wrapped under itself, and its
    /// details after two spaces (`details`). Below about 20 columns there is no room for a
    /// hanging indent: continuation lines then start near the left edge. Off a terminal (no
    /// width, no highlight) the one line is written straight into `out`, piece by piece, since a
    /// whole list is written this way.
    func appendTodo<Todo: ListableTodo>(_ todo: Todo, idWidth: Int, cells: String = "", to out: inout OutputText) {
        // What comes before the text: indent, marker, the ID right-aligned, the cells. (Of the
        // todo's parts, not the todo: a function that held it would copy it.)
        let done = todo.done, id = todo.id
        func appendLead(to out: inout OutputText) {
            out += "  " as StaticString
            out += done ? style.doneMarker : style.openMarker
            out += " " as StaticString
            out.append(id, rightAlignedTo: idWidth)
            out += "  " as StaticString
            out += cells
        }
        if width == nil && !highlights {
            let dimmed = style.color && todo.done
            if dimmed { out += "\u{1B}[2m" as StaticString }
            appendLead(to: &out)
            appendText(of: todo, to: &out)
            if dimmed { out += "\u{1B}[0m" as StaticString }
            appendDetails(of: todo, to: &out)
            out += "\n" as StaticString
            return
        }
        let details = self.details(of: todo)
        var lead = OutputText(), text = OutputText()
        appendLead(to: &lead)
        appendText(of: todo, to: &text)
        for line in wrapped(todo, text: text.text, details: details, prefix: lead.text) {
            out += line
            out += "\n" as StaticString
        }
    }

    /// Whether `--grep`'s text is marked in the lines (only with colour).
    private var highlights: Bool { style.color && !(highlight ?? "").isEmpty }

    /// A todo's text as the list shows it: the priority, the issue, then the text.
    private func appendText<Todo: ListableTodo>(of todo: Todo, to out: inout OutputText) {
        if let priority = todo.priority {
            out += "(" as StaticString
            out += priority.rawValue
            out += ") " as StaticString
        }
        if let issue = todo.issue {
            out += "#" as StaticString
            out += String(issue.number)
            out += " " as StaticString
        }
        out += TerminalText.sanitize(todo.text)
    }

    /// The lines of a todo on a terminal: `prefix` and its text, wrapped under itself, then its
    /// details after two spaces where the last line has room for their first word, else below.
    private func wrapped<Todo: ListableTodo>(_ todo: Todo, text: String, details: Details, prefix: String) -> [String] {
        guard let width else {
            let tail = details.text.isEmpty ? "" : "  " + styled(details.text, details)
            return [paint(text, lead: prefix, done: todo.done) + tail]
        }
        // Each detail stays whole on a line: the due date's words, a label's in quotes (joined
        // by no-break spaces, shown as spaces again below).
        let tail = details.words.map { $0.replacing(" ", with: "\u{A0}") }.joined(separator: " ")
        let prefixWidth = DisplayWidth.of(prefix)
        let room = width - prefixWidth
        let indent: String
        let parts: [(text: String, tail: String)]
        if room >= 10 {
            indent = String(repeating: " ", count: prefixWidth)
            parts = TextLayout.wrap(text, tail: tail, width: room, wholeURLs: wholeURLs)
        } else {
            indent = String(repeating: " ", count: min(4, max(0, width - 10)))
            parts = TextLayout.wrap(text, tail: tail, width: width - indent.count, firstLineWidth: room >= 4 ? room : 0,
                                    wholeURLs: wholeURLs)
        }
        return parts.enumerated().map { index, part in
            var lead = index == 0 ? prefix : indent
            if part.text.isEmpty && part.tail.isEmpty { while lead.last == " " { lead.removeLast() } }  // no line ends in spaces
            let gap = part.text.isEmpty || part.tail.isEmpty ? "" : "  "
            let shown = styled(part.tail.replacing("\u{A0}", with: " "), details)
            return (part.text.isEmpty && index > 0 ? lead : paint(part.text, lead: lead, done: todo.done)) + gap + shown
        }
    }

    /// `lead` and a piece of todo text as one line: dimmed when done, with `highlight` marked.
    private func paint(_ text: String, lead: String, done: Bool) -> String {
        func plain(_ piece: String) -> String { done ? style.dim(piece) : piece }
        guard style.color, let highlight, !highlight.isEmpty else { return plain(lead + text) }
        var out = ""
        var pending = lead
        for piece in TextMatch.pieces(of: text, matching: highlight) {
            if piece.matches {
                out += plain(pending) + style.highlight(piece.text)
                pending = ""
            } else {
                pending += piece.text
            }
        }
        return out + plain(pending)
    }

    func todoList(_ sections: [TodoSection]) -> String {
        var bytes: [UInt8] = []
        writeTodoList(sections) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The sectioned list (a header per section, then its todos; with `--long`, their notes),
    /// handed to `write` in pieces of about 64 KB as it is made.
    func writeTodoList(_ sections: [TodoSection], _ write: ([UInt8]) -> Void) {
        writeTodoList(sections, cells: long.map { LongColumns.Layout($0, sections.flatMap(\.todos)) }, write)
    }

    /// `writeTodoList` of sections of any kind of todo, with the `--long` cells laid out.
    func writeTodoList<Repository: SectionHeading, Todo: ListableTodo>(_ sections: [RepositorySection<Repository, Todo>], cells: LongColumns.Layout?,
                                          _ write: ([UInt8]) -> Void) {
        // IDs are positive, so the widest is the largest: no string per todo to find it.
        // Read in place: a loop over the records would copy each one.
        var largest: Int64?
        for section in sections {
            for index in section.todos.indices { largest = max(largest ?? 0, section.todos[index].id) }
        }
        let idWidth = Self.idWidth(largest: largest)
        var out = OutputText()
        for (index, section) in sections.enumerated() {
            appendSection(section, first: index == 0, idWidth: idWidth, cells: cells, to: &out)
            if out.count >= 1 << 16 { write(out.drain()) }
        }
        if out.count > 0 { write(out.drain()) }
    }

    /// The width of the ID column when `largest` is the largest ID shown.
    static func idWidth(largest: Int64?) -> Int {
        String(largest ?? 1).count
    }

    /// One section of the list: a blank line before it unless `first`, its header, its todos.
    func appendSection<Repository: SectionHeading, Todo: ListableTodo>(_ section: RepositorySection<Repository, Todo>, first: Bool, idWidth: Int, cells: LongColumns.Layout? = nil,
                       to out: inout OutputText) {
        if !first { out += "\n" as StaticString }
        appendHeader(section.repository, to: &out)
        out += "\n" as StaticString
        // Through the buffer: a loop over the array would copy each todo.
        section.todos.withUnsafeBufferPointer { todos in
            for index in todos.indices {
                appendTodo(todos[index], idWidth: idWidth, cells: cells?.cells(id: todos[index].id) ?? "", to: &out)
                if long != nil, let note = todos[index].note {
                    for line in TerminalText.lines(note) {
                        out.pad(6 + idWidth)
                        out += style.dim(line)
                        out += "\n" as StaticString
                    }
                }
            }
        }
    }
}
