import DoogitStore
import DoogitSupport

/// `doogit next`: the most urgent open todos across every repository (or those `-R` names).
enum NextCommand {
    static let spec = CommandSpec(
        name: "next", abstract: "Show the most urgent open todos across all repositories",
        options: [OptionSpec("count", short: "n", value: "N", help: "how many (default 10)"),
                  OptionSpec("repo", short: "R", value: "REPO", help: "only this repository (may be given several times)"),
                  OptionSpec("long", short: "l", help: "also show each todo's urgency, its age and the state of its issue")]
            + DetailsInput.filterOptions,
        discussion: """
            Open todos by urgency, the highest first, each line naming its repository; yours come \
            before the todos of others (assigned to someone else, or added by someone else and \
            assigned to nobody), once doogit knows your GitHub login. Urgency is \
            Taskwarrior's, for what a todo has of it: 12 x due + priority + 2 x age, where due is 0 \
            without a due date, else from 0.2 (due in 14 days or later) rising evenly to 1.0 (7 days \
            overdue or more), priority is 6.0 for H, 3.9 for M, 1.8 for L, and age is the days since \
            the todo was made, up to 365, over 365; rounded to hundredths. So a todo due today \
            (8.8) comes before an undated one of priority H (6.0), which comes before one due in a \
            month (2.4). Equal scores go as the list orders (due date, then priority), then oldest \
            first. --json shows each todo's "urgency"; --long shows it before the todo's age. -R \
            takes REPO as 'doogit todo list' does; --tag, --priority, --due and --mine pick as there.
            """,
        examples: ["doogit next", "doogit next -n 3 --tag release", "doogit next -R octocat/Hello-World -l",
                   "doogit next --due week --json"],
        run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        var count = 10
        if let text = invocation.value("count") {
            guard let number = Int(text), (1...10_000).contains(number) else {
                throw UsageError(message: "-n/--count takes a number from 1 to 10000, not '\(TerminalText.sanitize(text))'",
                                 topic: invocation.path)
            }
            count = number
        }
        var repositories: [Int64] = []
        for text in invocation.options["repo"] ?? [] {
            let repository = try TodoCommands.namedRepository(text, invocation, runtime, reading: true)
            if !repositories.contains(repository.id) { repositories.append(repository.id) }
        }
        let today = try DetailsInput.today(runtime)
        let now = runtime.now()
        let me = runtime.login(reading: true)
        let ranked = try runtime.readingStore().nextTodos(
            limit: count, repositoryIDs: repositories.isEmpty ? nil : repositories,
            filter: try DetailsInput.filter(invocation, today: today, me: { me }), me: me, today: today, now: now)
        if runtime.global.json { return runtime.printJSONArray(ranked, JSONOutput.ranked) }
        var renderer = ListRenderer.todos(runtime)
        renderer.today = today
        let todos = ranked.map(\.todo)
        let idWidth = String(todos.map(\.id).max() ?? 1).count
        let nameWidth = ListRenderer.nameWidth(todos.map(\.repositoryFullName))
        let long = invocation.flag("long") ? LongColumns.Layout(LongColumns(now: now), todos) : nil
        let scoreWidth = ranked.map(\.urgency.description.count).max() ?? 0
        for item in ranked {
            var cell = ""
            if let long {
                let score = item.urgency.description
                cell = String(repeating: " ", count: scoreWidth - score.count) + score + "  " + long.cells(id: item.todo.id)
            }
            let name = TerminalText.sanitize(item.todo.repositoryFullName)
            cell += runtime.style.dim(name) + String(repeating: " ", count: max(0, nameWidth - DisplayWidth.of(name))) + "  "
            for line in renderer.todoLines(item.todo, idWidth: idWidth, cells: cell) { runtime.console.print(line) }
        }
        if ranked.isEmpty && runtime.console.outputIsTerminal { runtime.note("Nothing open to do.") }
    }
}
