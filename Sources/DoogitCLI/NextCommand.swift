import DoogitStore
import DoogitSupport

/// `doogit next`: the most pressing open todos across every repository.
enum NextCommand {
    static let spec = CommandSpec(
        name: "next", abstract: "Show the most pressing open todos across all repositories",
        options: [OptionSpec("count", short: "n", value: "N", help: "how many (default 10)")] + DetailsInput.filterOptions,
        discussion: """
            Open todos in the order each section of 'doogit todo list' has: overdue and due first, \
            earliest first, then by priority (H, M, L, none); each line names its repository. \
            --tag, --priority and --due pick as in 'doogit todo list'.
            """,
        examples: ["doogit next", "doogit next -n 3 --tag release", "doogit next --due week --json"],
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
        let today = try DetailsInput.today(runtime)
        let todos = try runtime.readingStore().nextTodos(limit: count, filter: try DetailsInput.filter(invocation, today: today))
        if runtime.global.json { return runtime.printJSONArray(todos, JSONOutput.todo) }
        var renderer = ListRenderer(style: runtime.style, width: runtime.console.width)
        renderer.today = today
        let idWidth = String(todos.map(\.id).max() ?? 1).count
        let nameWidth = ListRenderer.nameWidth(todos.map(\.repositoryFullName))
        for todo in todos {
            let name = TerminalText.sanitize(todo.repositoryFullName)
            let cell = runtime.style.dim(name) + String(repeating: " ", count: max(0, nameWidth - DisplayWidth.of(name))) + "  "
            for line in renderer.todoLines(todo, idWidth: idWidth, cells: cell) { runtime.console.print(line) }
        }
        if todos.isEmpty && runtime.console.outputIsTerminal { runtime.note("Nothing open to do.") }
    }
}
