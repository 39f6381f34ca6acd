import DoogitGitHub
import DoogitStore
import DoogitSupport

/// `doogit todo ...`: local commands; none of them touches the network.
enum TodoCommands {
    static let repoOption = OptionSpec("repo", short: "R", value: "REPO",
                                       help: "the repository (default: $GH_REPO, else the current checkout's GitHub remote)")

    static let group = CommandSpec(
        name: "todo", abstract: "Add, list, complete, edit and remove todos",
        discussion: "Todos live under tracked repositories. IDs are small numbers, stable for the life of a todo and never reused.",
        subcommands: [add, list, done, undo, edit, remove])

    static let add = CommandSpec(
        name: "add", abstract: "Add a todo",
        arguments: ArgumentSpec(display: "TEXT...", minimum: 1, maximum: nil),
        options: [repoOption],
        discussion: """
            The words of TEXT are joined with spaces, so quotes are optional. The repository is \
            -R/--repo, else GH_REPO, else the one the current directory's git checkout points at, \
            read as git reads it (url.<base>.insteadOf, SSH host aliases from ~/.ssh/config): the \
            first tracked one of its GitHub remotes, 'origin' first, then 'upstream' (so a fork's \
            checkout finds the tracked original), then the others. It must be tracked: see 'doogit repo add'.
            """,
        examples: ["doogit todo add write the release notes", "doogit todo add -R octocat/Hello-World \"fix CI\""],
        run: runAdd)

    static let list = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "Show todos, one section per repository",
        arguments: ArgumentSpec(display: "[REPO]", minimum: 0, maximum: 1),
        options: [
            OptionSpec("open", help: "only open todos"),
            OptionSpec("done", help: "only done todos"),
            OptionSpec("all-repos", help: "also show tracked repositories that have no todos to show"),
            OptionSpec("ascii", help: "use [ ] and [x] as markers instead of ○ and ●"),
        ],
        discussion: """
            Each section has a header with the repository's full name (flagged [archived] or [gone] \
            when GitHub says so) and its description, then one line per todo: a marker (○ open, \
            ● done; [ ] and [x] where the locale is not UTF-8 or with --ascii), the ID and the text. \
            Open todos come first. REPO is OWNER/NAME, NAME when one tracked repository has it, a name \
            the repository had before, or id:ID (GitHub's numeric id).
            """,
        examples: ["doogit todo list", "doogit todo list Hello-World --open", "doogit todo list --json"],
        run: runList)

    static let done = CommandSpec(
        name: "done", abstract: "Mark todos done",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        discussion: "All IDs are checked first; nothing changes unless every one exists.",
        examples: ["doogit todo done 3", "doogit todo done 3 4 7"],
        run: { invocation, runtime in try runSetDone(invocation, runtime, done: true) })

    static let undo = CommandSpec(
        name: "undo", abstract: "Mark todos open again",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil, values: [.todo(.done)]),
        discussion: "All IDs are checked first; nothing changes unless every one exists.",
        examples: ["doogit todo undo 3"],
        run: { invocation, runtime in try runSetDone(invocation, runtime, done: false) })

    static let edit = CommandSpec(
        name: "edit", abstract: "Change a todo's text",
        arguments: ArgumentSpec(display: "ID TEXT...", minimum: 2, maximum: nil),
        discussion: "The words of TEXT are joined with spaces, as in 'doogit todo add'.",
        examples: ["doogit todo edit 3 write the release notes for 1.2"],
        run: runEdit)

    static let remove = CommandSpec(
        name: "rm", aliases: ["remove"], abstract: "Delete todos",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        discussion: "All IDs are checked first; nothing is deleted unless every one exists.",
        examples: ["doogit todo rm 3"],
        run: runRemove)

    // MARK: Handlers

    static func runAdd(_ invocation: Invocation, _ runtime: Runtime) throws {
        let text = try InputValidation.todoText(invocation.positionals, topic: invocation.path)
        let repository = try targetRepository(invocation, runtime)
        let todo = try runtime.store().addTodo(repositoryID: repository.id, text: text, at: runtime.now())
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todo(todo, into: &$0) }
        } else {
            runtime.say("Added \(todo.id) to \(TerminalText.sanitize(repository.fullName))")
        }
    }

    /// `-R`, else GH_REPO, else the checkout's GitHub remote; it must be tracked. In a fork's
    /// checkout the first tracked remote counts (origin, then upstream, then the others); when
    /// none is tracked, the advice names origin's repository.
    static func targetRepository(_ invocation: Invocation, _ runtime: Runtime) throws -> RepositoryRecord {
        let text: String
        if let option = invocation.value("repo") {
            text = option
        } else if let variable = runtime.context.variable("GH_REPO") {
            text = variable
        } else {
            let checkout = GitCheckout(environment: runtime.context.environment, hosts: runtime.webHosts)
            let candidates = checkout.repositories(from: runtime.context.currentDirectory)
            guard let first = candidates.first else {
                throw UsageError(message: "no repository given, and this directory is not a git checkout with a GitHub remote; use -R OWNER/NAME",
                                 topic: invocation.path)
            }
            let store = try runtime.store()
            for candidate in candidates {
                do {
                    return try store.findRepository(owner: candidate.owner, name: candidate.name)
                } catch StoreError.unknownRepository {
                    continue
                }
            }
            throw notTracked(first.description, reference: first)
        }
        if Runtime.repositoryID(text) != nil { return try runtime.trackedRepository(text, topic: invocation.path) }
        let reference = try runtime.parseReference(text, topic: invocation.path)
        do {
            return try runtime.store().findRepository(owner: reference.owner, name: reference.name)
        } catch StoreError.unknownRepository(let name) {
            throw notTracked(name, reference: reference)
        }
    }

    private static func notTracked(_ name: String, reference: RepositoryReference) -> CommandFailure {
        CommandFailure(message: "repository '\(TerminalText.sanitize(name))' is not tracked",
                       hint: "run 'doogit repo add \(TerminalText.sanitize(reference.description))' first")
    }

    static func runList(_ invocation: Invocation, _ runtime: Runtime) throws {
        if invocation.flag("open") && invocation.flag("done") {
            throw UsageError(message: "--open and --done cannot be used together", topic: invocation.path)
        }
        let filter: TodoFilter = invocation.flag("open") ? .open : invocation.flag("done") ? .done : .all
        let repository = try invocation.positionals.first.map {
            try runtime.trackedRepository($0, topic: invocation.path, reading: true)
        }
        let sections = try runtime.readingStore().sections(repositoryIDs: repository.map { [$0.id] }, filter: filter,
                                                    includeEmpty: invocation.flag("all-repos") || repository != nil)
        if runtime.global.json {
            runtime.printJSONArray(sections, JSONOutput.section)
            return
        }
        var style = runtime.style
        if invocation.flag("ascii") { style.unicode = false }
        runtime.console.output.write(ListRenderer(style: style, width: runtime.console.width).todoList(sections))
    }

    static func runSetDone(_ invocation: Invocation, _ runtime: Runtime, done: Bool) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let todos = try runtime.store().setDone(ids, done: done, at: runtime.now())
        printAffected(todos, runtime)
    }

    static func runEdit(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs([invocation.positionals[0]], topic: invocation.path)
        let text = try InputValidation.todoText(Array(invocation.positionals.dropFirst()), topic: invocation.path)
        let todo = try runtime.store().editTodo(id: ids[0], text: text, at: runtime.now())
        printAffected([todo], runtime)
    }

    static func runRemove(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let removed = try runtime.store().removeTodos(ids, at: runtime.now())
        if runtime.global.json {
            runtime.printJSONArray(removed, JSONOutput.todo)
        } else {
            for todo in removed { runtime.say("Removed \(todo.id)  \(TerminalText.sanitize(todo.text))") }
        }
    }

    /// The todos a command changed: JSON, or one list line each.
    static func printAffected(_ todos: [TodoRecord], _ runtime: Runtime) {
        if runtime.global.json {
            runtime.printJSONArray(todos, JSONOutput.todo)
            return
        }
        let renderer = ListRenderer(style: runtime.style, width: runtime.console.width)
        let idWidth = todos.map { String($0.id).count }.max() ?? 1
        for todo in todos {
            for line in renderer.todoLines(todo, idWidth: idWidth) { runtime.say(line) }
        }
    }
}
