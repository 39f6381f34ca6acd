import DoogitMerge
import DoogitStore
import DoogitSupport

/// What the list shows after a todo's text: its due date, whose it is when it is someone else's,
/// its tags and its issue's labels, and the mark of a note.
extension ListRenderer {
    /// What the list shows after a todo's text (`details(of:)`).
    struct Details {
        /// The due date's phrase (`due in 3 days`), first when there is one.
        var due: String?
        /// Whether the todo is overdue (its due phrase red where colour is on).
        var overdue = false
        /// Each of them, kept whole on one line when the line wraps.
        var words: [String] = []
        /// All of them, apart by single spaces; empty for a todo without details.
        var text = ""
    }

    /// A tag or a label as it follows `+` in the list: its name, or in double quotes a name
    /// that is not one word (GitHub allows `good first issue`, and commas) or that starts with
    /// a quote, with `"` and `\` in it escaped by `\`, so every label shows and each reads
    /// back as its name. The shorthand of `todo add` takes no quoted form (a tag is a word), so
    /// this is the list's own. Nil for a name with nothing to show once cleaned.
    static func tagWord(_ name: String) -> String? {
        let shown = TerminalText.sanitize(name)
        if TagSet.isValid(shown) && !shown.hasPrefix("\"") { return shown }
        guard !shown.trimmingSpaces.isEmpty else { return nil }
        var quoted = "\""
        for character in shown {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// `@login` of a todo that is someone else's (assigned to them, or added by them and not
    /// assigned); nil for the user's own, and for a todo nobody is known to own.
    func ownerWord<Todo: ListableTodo>(of todo: Todo) -> String? {
        guard let owner = todo.owner, !(me.map { GitHubLogin.same($0, owner) } ?? false) else { return nil }
        let shown = TerminalText.sanitize(owner)
        return shown.isEmpty ? nil : "@" + shown
    }

    /// A todo's details: its due date (relative to today while it is open), `@login` of
    /// whoever else it is, its tags and its issue's labels and, when it has a note,
    /// `style.noteMarker`.
    func details<Todo: ListableTodo>(of todo: Todo) -> Details {
        let tags = todo.tagsAndLabels.compactMap(Self.tagWord)
        let owner = ownerWord(of: todo)
        guard todo.due != nil || owner != nil || !tags.isEmpty || todo.note != nil else { return Details() }
        var details = Details(due: todo.due.map { Self.duePhrase($0, today: todo.done ? nil : today) },
                              overdue: Self.isOverdue(todo, today: today))
        var words = details.due.map { [$0] } ?? []
        if let owner { words.append(owner) }
        for tag in tags { words.append("+" + tag) }
        if todo.note != nil { words.append(style.noteMarker) }
        details.words = words
        details.text = words.joined(separator: " ")
        return details
    }

    /// Appends `details(of:)` after two spaces, styled as `styled` styles them, piece by piece
    /// (the way a whole list is written, with no string made for each todo).
    func appendDetails<Todo: ListableTodo>(of todo: Todo, to out: inout OutputText) {
        let tags = todo.tagsAndLabels
        let owner = ownerWord(of: todo)
        guard todo.due != nil || owner != nil || todo.note != nil || tags.contains(where: { Self.tagWord($0) != nil }) else { return }
        out += "  " as StaticString
        let overdue = Self.isOverdue(todo, today: today)
        var open = false
        if let due = todo.due {
            if style.color { out += overdue ? "\u{1B}[31m" as StaticString : "\u{1B}[2m" as StaticString }
            Self.appendDuePhrase(due, today: todo.done ? nil : today, to: &out)
            if style.color && overdue { out += "\u{1B}[0m" as StaticString } else { open = style.color }
        }
        var first = todo.due == nil
        func separate(_ out: inout OutputText) {
            if style.color && !open {
                out += "\u{1B}[2m" as StaticString
                open = true
            }
            if !first { out += " " as StaticString }
            first = false
        }
        if let owner {
            separate(&out)
            out += owner
        }
        // Its own tags, then its issue's labels, each name once.
        for tag in tags {
            guard let word = Self.tagWord(tag) else { continue }
            separate(&out)
            out += "+" as StaticString
            out += word
        }
        if todo.note != nil {
            separate(&out)
            out += style.noteMarker
        }
        if open { out += "\u{1B}[0m" as StaticString }
    }

    /// A piece of a todo's details as shown: dimmed where colour is on, an overdue due date at
    /// its start red.
    func styled(_ piece: String, _ details: Details) -> String {
        guard style.color, !piece.isEmpty else { return piece }
        if details.overdue, let due = details.due, piece.hasPrefix(due) {
            return style.red(due) + style.dim(String(piece.dropFirst(due.count)))
        }
        return style.dim(piece)
    }

    /// Whether a todo is overdue: open, and due before today. What is done never is.
    static func isOverdue<Todo: ListableTodo>(_ todo: Todo, today: CalendarDate?) -> Bool {
        guard !todo.done, let due = todo.due, let today else { return false }
        return due < today
    }

    /// `due today`, `due tomorrow`, `due in 3 days`, `3 days overdue`; further off, the date.
    /// Without `today` (a done todo, which nothing is pressing about), the date.
    static func duePhrase(_ due: CalendarDate, today: CalendarDate?) -> String {
        var out = OutputText(capacity: 128)
        appendDuePhrase(due, today: today, to: &out)
        return out.text
    }

    /// `duePhrase` written into `out` piece by piece, as a whole list is written.
    static func appendDuePhrase(_ due: CalendarDate, today: CalendarDate?, to out: inout OutputText) {
        switch today.map({ $0.days(to: due) }) {
        case 0?: out += "due today" as StaticString
        case 1?: out += "due tomorrow" as StaticString
        case let days? where (2...13).contains(days):
            out += "due in " as StaticString
            out.append(Int64(days))
            out += " days" as StaticString
        case .some(-1): out += "1 day overdue" as StaticString
        case let days? where days < -1:
            out.append(Int64(-days))
            out += " days overdue" as StaticString
        default:
            out += "due " as StaticString
            out += due.text
        }
    }
}
