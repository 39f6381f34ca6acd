import DoogitStore
import DoogitSupport

/// `doogit todo show ID`: every field of one todo.
extension TodoCommands {
    static let show = CommandSpec(
        name: "show", abstract: "Show everything about a todo",
        arguments: ArgumentSpec(display: "ID", minimum: 1, maximum: 1),
        discussion: """
            Prints the todo's ID, UUID (the name its copies share), repository, text, state, and \
            when it was created, last changed and done, who added it, finished it and is assigned \
            it (GitHub logins, where known), whether it is kept private ('--private': never shared \
            with its repository's team), and its GitHub issue with the issue's state as last \
            seen. Times are UTC, with how long ago.
            """,
        examples: ["doogit todo show 3", "doogit show 3 --json"],
        run: runShow)

    static func runShow(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        guard ids.count == 1 else {
            throw UsageError(message: "'doogit todo show' shows one todo; give one ID", topic: invocation.path)
        }
        let store = try runtime.readingStore()
        let todo = try store.requireTodos(ids)[0]
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todoDetails(todo, into: &$0) }
            return
        }
        let now = runtime.now()
        func time(_ timestamp: Timestamp) -> String {
            "\(timestamp.rfc3339) (\(Age.short(from: timestamp, to: now)) ago)"
        }
        var rows: [(String, String)] = [
            ("ID", String(todo.id)),
            ("UUID", todo.uuid),
            ("Repository", TerminalText.sanitize(todo.repositoryFullName)),
            ("Text", TerminalText.sanitize(todo.text)),
            ("State", todo.done ? "done" : "open"),
            ("Created", time(todo.createdAt)),
            ("Updated", time(todo.updatedAt)),
        ]
        if let doneAt = todo.doneAt { rows.append(("Done", time(doneAt))) }
        // Who, where known: GitHub logins.
        for (label, login) in [("Added by", todo.author), ("Finished by", todo.finishedBy), ("Assigned to", todo.assignee)] {
            if let login { rows.append((label, "@" + TerminalText.sanitize(login))) }
        }
        if try store.isKeptPrivate(todo.id) { rows.append(("Private", "yes: never shared with its repository's team")) }
        if let due = todo.due {
            // Relative to today while it is open: nothing is pressing about a done one.
            rows.append(("Due", todo.done ? due.text : "\(due.text) (\(ListRenderer.duePhrase(due, today: try DetailsInput.today(runtime))))"))
        }
        if let priority = todo.priority { rows.append(("Priority", priority.rawValue)) }
        if !todo.tags.isEmpty { rows.append(("Tags", todo.tags.map(TerminalText.sanitize).joined(separator: " "))) }
        if let labels = todo.labels, !labels.isEmpty {
            // As the list shows them after +: a name with spaces in quotes.
            rows.append(("Labels", labels.compactMap(ListRenderer.tagWord).joined(separator: " ")))
        }
        if let note = todo.note {
            for (index, line) in TerminalText.lines(note).enumerated() { rows.append((index == 0 ? "Note" : "", line)) }
        }
        rows.append(("Issue", todo.issue.map { "#\($0.number) (\($0.state?.rawValue ?? "not seen yet")) \(TerminalText.sanitize($0.url))" } ?? "none"))
        let labelWidth = rows.map(\.0.count).max() ?? 0
        let indent = String(repeating: " ", count: labelWidth + 2)
        for (label, value) in rows {
            // On a terminal a long text wraps under itself, as in the list.
            let lines = runtime.console.width.map { TextLayout.wrap(value, width: $0 - indent.count) } ?? [value]
            runtime.console.print(runtime.style.bold(TextLayout.padRight(label, to: labelWidth)) + "  " + lines[0])
            for line in lines.dropFirst() { runtime.console.print(indent + line) }
        }
    }
}
