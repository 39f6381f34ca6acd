import DoogitStore
import DoogitSupport
import DoogitTerminal

/// What keys and clicks do in the list: the moves are the view's, the changes are asked of the
/// session (`Request`).
extension ListView {
    /// What the view asks of the session.
    enum Request: Equatable {
        case toggle(todoID: Int64, done: Bool)
        case add(repositoryID: Int64, line: String)
        /// `raw`: the line is the new text, every word of it (`e`); else `todo edit`'s words.
        case edit(todoID: Int64, line: String, raw: Bool)
        case remove(todoID: Int64)
        case undo
        case editNote(todoID: Int64)
        case promote(todoID: Int64)
        /// A web page: the todo's issue, or the repository.
        case open(url: String)
        case sync
        case repositories
        case suspend
        /// Ctrl-L: the screen is drawn whole again (after another program wrote on it).
        case redraw
        case quit
    }

    /// A line being typed at the bottom, and what it is for.
    struct Prompt {
        enum Purpose: Equatable {
            case add(repositoryID: Int64)
            case edit(todoID: Int64)
            /// `t`, `d`, `p`: a word of `todo edit` (`+tag`, `due:`, `pri:`) typed after a prefix.
            case field(todoID: Int64, prefix: String)
            case filter
        }
        var purpose: Purpose
        var label: String
        var editor: LineEditor
        /// The text it started with.
        var original = ""
        /// What may be typed, shown in the status line (a message there comes first).
        var hint: String?
    }

    /// What an event does; a failure to read the list (the database) is thrown.
    mutating func handle(_ event: InputEvent) throws -> [Request] {
        if showsHelp {
            showsHelp = false
            if case .key(.character("q"), _) = event { return [.quit] }
            return []
        }
        if prompt != nil { return try handlePrompt(event) }
        switch event {
        case .key(let key, let alt):
            // Esc and a key typed at once arrive as Alt and the key: both are meant.
            if alt { _ = try handleKey(.escape) }
            return try handleKey(key)
        case .mouse(let mouse):
            return try handleMouse(mouse)
        case .paste:
            return []
        }
    }

    private mutating func handleKey(_ key: Key) throws -> [Request] {
        message = nil
        switch key {
        case .character("j"), .down: try move(by: 1)
        case .character("k"), .up: try move(by: -1)
        case .character("g"), .home: try moveToStart()
        case .character("G"), .end: try moveToEnd()
        case .pageDown, .control("f"): try page(by: 1)
        case .pageUp, .control("b"): try page(by: -1)
        case .tab: try moveToSection(forward: true)
        case .backTab: try moveToSection(forward: false)
        case .character(" "), .character("x"):
            if let todo = cursorTodo { return [.toggle(todoID: todo.id, done: !todo.done)] }
            if case .header(let id)? = cursor { try toggleFold(id) }
        case .character("z"), .enter:
            if let id = cursorRepositoryID { try toggleFold(id) }
        case .character("a"):
            guard let id = cursorRepositoryID else {
                message = "No repository to add to: track one with r"
                return []
            }
            startAdd(to: id)
        case .character("e"):
            if let todo = cursorTodo {
                prompt = Prompt(purpose: .edit(todoID: todo.id), label: "Edit \(todo.id): ",
                                editor: LineEditor(text: todo.text), original: todo.text)
            }
        case .character("t"):
            let tags = cursorTodo?.tags.map { "+" + TerminalText.sanitize($0) }.joined(separator: " ") ?? ""
            startField("Tags \(cursorTodo?.id ?? 0): ", prefix: "", value: "",
                       hint: (tags.isEmpty ? "" : "now \(tags); ") + "+tag adds, -tag takes off")
        case .character("d"):
            startField("Due \(cursorTodo?.id ?? 0): ", prefix: "due:", value: cursorTodo?.due?.text ?? "",
                       hint: Self.dueHint)
        case .character("p"):
            startField("Priority \(cursorTodo?.id ?? 0): ", prefix: "pri:", value: cursorTodo?.priority?.rawValue ?? "",
                       hint: "H, M or L; empty clears")
        case .character("@"):
            startField("Assign \(cursorTodo?.id ?? 0) to: ", prefix: TodoActions.assigneePrefix,
                       value: cursorTodo?.assignee.map(TerminalText.sanitize) ?? "", hint: "a GitHub login, @me; empty: nobody")
        case .character("n"):
            if let todo = cursorTodo { return [.editNote(todoID: todo.id)] }
        case .character("D"), .delete:
            if let todo = cursorTodo { return [.remove(todoID: todo.id)] }
        case .character("u"): return [.undo]
        case .character("P"):
            guard let todo = cursorTodo else { return [] }
            if let issue = todo.issue {
                message = "\(todo.id) is already linked to #\(issue.number); o opens it"
                return []
            }
            return [.promote(todoID: todo.id)]
        case .character("o"):
            if let url = cursorTodo?.issue?.url { return [.open(url: url)] }
            if let id = cursorRepositoryID, let section = section(id) {
                return [.open(url: section.repository.url)]
            }
        case .character("/"):
            prompt = Prompt(purpose: .filter, label: "/", editor: LineEditor(text: filter))
        case .escape:
            if !filter.isEmpty { try setFilter("") }
        case .character("s"): return [.sync]
        case .character("r"): return [.repositories]
        case .character("?"): showsHelp = true
        case .character("q"), .control("c"): return [.quit]
        case .control("z"): return [.suspend]
        case .control("l"): return [.redraw]
        default: break
        }
        return []
    }

    private mutating func startAdd(to repositoryID: Int64) {
        let name = section(repositoryID)?.repository.fullName ?? ""
        prompt = Prompt(purpose: .add(repositoryID: repositoryID), label: "Add to \(TerminalText.sanitize(name)): ",
                        editor: LineEditor())
    }

    /// A field's prompt, holding the field's value now (clearing it clears the field).
    /// The forms of a date `todo add` reads, short enough for the status line.
    static let dueHint = "YYYY-MM-DD, today, tomorrow, fri, +3d, +2w; empty clears"

    private mutating func startField(_ label: String, prefix: String, value: String, hint: String) {
        guard let todo = cursorTodo else { return }
        prompt = Prompt(purpose: .field(todoID: todo.id, prefix: prefix), label: label, editor: LineEditor(text: value),
                        original: value, hint: hint)
    }

    /// The prompt whose line was sent last, open again with what was typed: the change it asked
    /// for failed (a word that is not a date, say), and nothing typed is lost.
    mutating func reopenPrompt() {
        prompt = submitted
    }

    private mutating func handlePrompt(_ event: InputEvent) throws -> [Request] {
        guard var current = prompt else { return [] }
        switch event {
        case .key(.escape, _), .key(.control("c"), _), .key(.control("g"), _):
            prompt = nil
            if current.purpose == .filter { try setFilter("") }
            return []
        case .key(.enter, _):
            prompt = nil
            submitted = current
            let line = current.editor.text
            switch current.purpose {
            case .add(let id):
                return line.trimmingSpaces.isEmpty ? [] : [.add(repositoryID: id, line: line)]
            case .edit(let id):
                return line.trimmingSpaces.isEmpty || line == current.original ? [] : [.edit(todoID: id, line: line, raw: true)]
            case .field(let id, let prefix):
                guard line.trimmingSpaces != current.original.trimmingSpaces else { return [] }
                return Self.fieldWords(line, prefix: prefix).map { [.edit(todoID: id, line: $0, raw: false)] } ?? []
            case .filter:
                return []
            }
        default:
            let consumed = current.editor.handle(event)
            if !consumed, case .key(let key, true) = event {
                // Esc then a key, typed at once: the line is left, and the key is the list's.
                prompt = nil
                if current.purpose == .filter { try setFilter("") }
                return try handleKey(key)
            }
            guard consumed else { return [] }
            prompt = current
            if current.purpose == .filter { try setFilter(current.editor.text) }
            return []
        }
    }

    /// The words of `todo edit` that a field's prompt stands for: `t` takes tags (`+a -b`, or
    /// bare words as tags to add), `d` a date, `p` a priority, `@` a login.
    static func fieldWords(_ line: String, prefix: String) -> String? {
        let words = TodoActions.words(line)
        // A due date, priority or assignee answered with nothing, `-` or `none` is cleared.
        if !prefix.isEmpty, words.isEmpty || words == ["-"] || words.map({ $0.lowercased() }) == ["none"] {
            return prefix + "none"
        }
        guard !words.isEmpty else { return nil }
        if prefix.isEmpty {
            return words.map { $0.hasPrefix("+") || $0.hasPrefix("-") ? $0 : "+" + $0 }.joined(separator: " ")
        }
        return words.map { prefix + $0 }.joined(separator: " ")
    }

    private mutating func handleMouse(_ mouse: MouseEvent) throws -> [Request] {
        switch mouse.action {
        case .wheelDown: try scroll(by: 3)
        case .wheelUp: try scroll(by: -3)
        case .press where mouse.button == 0:
            let index = top + mouse.row
            guard mouse.row < listHeight, window.lines.indices.contains(index),
                  let item = window.lines[index].item else { return [] }
            try moveTo(item)
            switch item {
            case .todo(let id):
                // The circle: the marker after the two-space indent, on the todo's first line.
                let marker = renderer.style.openMarker
                if window.lines(of: item)?.first == index, (2..<(2 + DisplayWidth.of(marker))).contains(mouse.column),
                   let todo = todo(id) {
                    return [.toggle(todoID: id, done: !todo.done)]
                }
            case .header(let id):
                if mouse.column >= width - DisplayWidth.of(ListWindow.addButton) { startAdd(to: id) }
            }
        default: break
        }
        return []
    }
}
