import DoogitStore
import DoogitSupport

/// `doogit todo list`: the list, a part of it, or the removed todos.
extension TodoCommands {
    static func runList(_ invocation: Invocation, _ runtime: Runtime) throws {
        if invocation.flag("open") && invocation.flag("done") {
            throw UsageError(message: "--open and --done cannot be used together", topic: invocation.path)
        }
        let filter: TodoFilter = invocation.flag("open") ? .open : invocation.flag("done") ? .done : .all
        let grep = invocation.value("grep")
        if let grep, grep.trimmingSpaces.isEmpty {
            throw UsageError(message: "--grep needs some text to look for", topic: invocation.path)
        }
        var repositories: [RepositoryRecord] = []
        for text in invocation.positionals + (invocation.options["repo"] ?? []) {
            let repository = try namedRepository(text, invocation, runtime, reading: true)
            if !repositories.contains(where: { $0.id == repository.id }) { repositories.append(repository) }
        }
        let store = try runtime.readingStore()
        if invocation.flag("removed") {
            guard filter == .all, !invocation.flag("all-repos") else {
                throw UsageError(message: "--removed cannot be used with --open, --done or --all-repos", topic: invocation.path)
            }
            let sections = try store.removedSections(repositoryIDs: repositories.isEmpty ? nil : repositories.map(\.id), matching: grep)
            if runtime.global.json { return runtime.printJSONArray(sections, JSONOutput.section) }
            var renderer = ListRenderer(style: runtime.style, width: runtime.console.width)
            renderer.highlight = grep
            renderer.me = runtime.login(reading: true)
            if invocation.flag("long") { renderer.long = LongColumns(now: runtime.now()) }
            renderer.writeTodoList(sections) { runtime.console.output.write(bytes: $0) }
            if runtime.console.outputIsTerminal {
                runtime.note(sections.isEmpty ? "No removed todo to restore." : "Bring one back with 'doogit todo restore ID'.")
                if let untracked = sections.first(where: { !$0.repository.tracked }) {
                    let name = TerminalText.sanitize(untracked.repository.fullName)
                    runtime.note("A repository marked [not tracked] is tracked again first: 'doogit repo add \(name)'.")
                }
            }
            return
        }
        let today = try DetailsInput.today(runtime)
        let details = try DetailsInput.filter(invocation, today: today, me: { runtime.login(reading: true) })
        let includeEmpty = invocation.flag("all-repos") || !repositories.isEmpty
        // The list alone: no empty section, no --long columns.
        let alone = !includeEmpty && !invocation.flag("long")
        // The whole list is written as it is read; a part of it (--grep, --tag, --priority,
        // --due) is read whole first, as its largest ID would be a second read of the same rows.
        if alone && (runtime.global.json || (grep == nil && details.picksAll)) {
            return try streamList(store, filter: filter, grep: grep, details: details, today: today, runtime)
        }
        var renderer = ListRenderer.todos(runtime)
        renderer.highlight = grep
        renderer.today = today
        // A part of the list alone is read as its lines show it, and no more.
        if alone && !runtime.global.json {
            let sections = try store.lineSections(filter: filter, matching: grep, details: details)
            renderer.writeTodoList(sections, cells: nil) { runtime.console.output.write(bytes: $0) }
            if runtime.console.outputIsTerminal && sections.isEmpty {
                runtime.note(try emptyListHint(store: store, repositories: repositories, filter: filter, grep: grep))
            }
            return
        }
        let sections = try store.sections(repositoryIDs: repositories.isEmpty ? nil : repositories.map(\.id),
                                          filter: filter, matching: grep, details: details, includeEmpty: includeEmpty)
        if runtime.global.json {
            runtime.printJSONArray(sections, JSONOutput.section)
            return
        }
        if invocation.flag("long") { renderer.long = LongColumns(now: runtime.now()) }
        renderer.writeTodoList(sections) { runtime.console.output.write(bytes: $0) }
        if runtime.console.outputIsTerminal && sections.allSatisfy({ $0.todos.isEmpty }) {
            runtime.note(try emptyListHint(store: store, repositories: repositories, filter: filter, grep: grep))
        }
    }

    /// The list (no empty section, no `--long`), written a section at a time as the store reads
    /// it: the JSON array, or the lines of the whole list, whose ID column is as wide as the
    /// largest ID, read first.
    private static func streamList(_ store: Store, filter: TodoFilter, grep: String?, details: DetailsFilter,
                                   today: CalendarDate?, _ runtime: Runtime) throws {
        let output = runtime.console.output
        if runtime.global.json {
            var json = JSONStream(indented: runtime.console.outputIsTerminal)
            json.beginArray()
            try store.eachSection(filter: filter, matching: grep, details: details) { section in
                JSONOutput.section(section, into: &json)
                if json.byteCount >= 1 << 16 { output.write(bytes: json.drain()) }
            }
            json.endArray()
            output.write(bytes: json.drain())
            output.write("\n")
            return
        }
        var renderer = ListRenderer.todos(runtime)
        renderer.today = today
        let idWidth = ListRenderer.idWidth(largest: try store.largestListedTodoID(filter: filter, details: details))
        var out = OutputText()
        var first = true
        try store.eachSection(filter: filter, details: details) { section in
            renderer.appendSection(section, first: first, idWidth: idWidth, to: &out)
            first = false
            if out.count >= 1 << 16 { output.write(bytes: out.drain()) }
        }
        if out.count > 0 { output.write(bytes: out.drain()) }
        if runtime.console.outputIsTerminal && first {
            runtime.note(try emptyListHint(store: store, repositories: [], filter: filter, grep: grep))
        }
    }
}
