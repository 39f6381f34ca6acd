import DoogitGitHub
import DoogitStore
import DoogitSupport

/// `doogit todo ...`: local commands; none of them touches the network.
enum TodoCommands {
    static let repoOption = OptionSpec("repo", short: "R", value: "REPO",
                                       help: "the repository (default: $GH_REPO, else the current checkout's GitHub remote)")

    static let group = CommandSpec(
        name: "todo", abstract: "Add, list, complete, edit and remove todos",
        discussion: """
            Todos live under tracked repositories. IDs are small numbers, stable for the life of a \
            todo and never reused; where IDs are taken, '3 4', '3,4', '1-3' and '#3' all work. The \
            short forms 'doogit ls', 'doogit add', 'doogit done' and so on are these commands, and \
            'doogit' alone is 'doogit todo list'.
            """,
        subcommands: [add, list, show, done, undo, edit, assign, unassign, move, remove, restore, clear, IssueCommands.promote,
                      IssueCommands.link, IssueCommands.unlink])

    /// `doogit ls`, `doogit add`, ...: the todo commands without the `todo`.
    static let shortcuts: [(word: String, path: [String])] =
        ["ls", "add", "show", "done", "undo", "edit", "move", "rm", "restore", "clear"].map { word in
            (word, ["todo", word == "ls" ? "list" : word])
        }

    static let list = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "Show todos, one section per repository",
        arguments: ArgumentSpec(display: "[REPO...]", minimum: 0, maximum: nil),
        options: [
            OptionSpec("repo", short: "R", value: "REPO", help: "only this repository (may be given several times)"),
            OptionSpec("grep", value: "TEXT", help: "only todos whose text contains TEXT (ignoring case)"),
            OptionSpec("open", help: "only open todos"),
            OptionSpec("done", help: "only done todos"),
            OptionSpec("long", short: "l", help: "also show each todo's age and the state of its issue"),
            OptionSpec("all-repos", help: "also show tracked repositories that have no todos to show"),
            OptionSpec("removed", help: "the removed todos that can be restored here, whichever machine removed them"),
        ] + DetailsInput.filterOptions,
        discussion: """
            Each section has a header with the repository's full name (flagged [archived] or [gone] \
            when GitHub says so) and its description, then one line per todo: a marker (○ open, \
            ● done; [ ] and [x] where the locale is not UTF-8 or with --ascii), the ID and the text. \
            Open todos come first: overdue and due ones first, earliest first, then by priority (H, \
            M, L, none), then as they arrived, the same order every day; a todo shows its priority as \
            (H), and after two spaces (dimmed in colour) its due date relative to today (overdue in \
            red; only open todos are ever overdue, a done one shows the date), its +tags and a linked \
            todo's labels, and ✎ ([note] in ASCII) when it has a note; a todo that is someone \
            else's shows @LOGIN, its assignee's (or, assigned to nobody, its author's) GitHub login. \
            --mine shows only yours: assigned to you, or added by you (or before authors were kept) \
            and assigned to nobody. --tag (a tag or a label, \
            without case), --priority and --due pick todos (all kinds must hold; a repeated --tag \
            means all of them, a repeated --priority or --due any); --due takes overdue, today (due \
            by today), week (by 6 days from today) or a date. REPO (or -R REPO) is OWNER/NAME, NAME when one tracked repository \
            has it, a name the repository had before, id:ID (GitHub's numeric id), or '.' for the \
            repository of the current directory's git checkout; several show several sections. \
            --grep matches are highlighted when colour is on. --long adds each todo's age (3d: \
            created three days ago) before its text, and its note under it. --removed lists removed todos instead, most \
            recently removed first, each with the ID that 'doogit todo restore' takes.
            """,
        examples: ["doogit todo list", "doogit ls . --open", "doogit ls Hello-World Spoon-Knife --grep release -l",
                   "doogit todo list --removed", "doogit todo list --json"],
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
        name: "edit", abstract: "Change a todo's text, due date, priority, tags or note",
        arguments: ArgumentSpec(display: "ID [TEXT...]", minimum: 1, maximum: nil),
        options: DetailsInput.editOptions,
        discussion: """
            The words of TEXT are joined with spaces, as in 'doogit todo add', and replace the text; \
            without TEXT the text stays. --note-file reads the note from FILE ('-': standard input); a \
            blank note clears it. \(DetailsInput.shorthandHelp) Tags compare without case, and \
            merge tag by tag with other machines' changes. --untag also takes a label off a linked \
            todo's issue: with pushing on ('doogit repo set REPO --push-issues on'), the next sync \
            adds the tags added to the issue's labels and removes those taken off, each change once.
            """,
        examples: ["doogit todo edit 3 write the release notes for 1.2", "doogit todo edit 3 --due tomorrow --tag release",
                   "doogit edit 3 pri:H +ci", "doogit todo edit 3 --no-due --untag ci"],
        run: runEdit)

    static let assign = CommandSpec(
        name: "assign", abstract: "Assign todos to a GitHub user",
        arguments: ArgumentSpec(display: "ID LOGIN", minimum: 2, maximum: nil),
        discussion: """
            The last word is LOGIN; the words before it are IDs, as everywhere (3 4, 3,4, 1-3). \
            LOGIN is a GitHub login (octocat or @octocat), or @me for yours (the login of your \
            token, as 'doogit auth status' or a sync last saw it). A todo assigned to someone else \
            shows @LOGIN in the list, and 'doogit next' ranks it after yours. The assignee goes to \
            your other machines with the rest of the todo. All IDs are checked first; nothing \
            changes unless every one exists.
            """,
        examples: ["doogit todo assign 3 octocat", "doogit todo assign 3,4 @me"],
        run: runAssign)

    static let unassign = CommandSpec(
        name: "unassign", abstract: "Assign todos to nobody",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        discussion: "All IDs are checked first; nothing changes unless every one exists.",
        examples: ["doogit todo unassign 3"],
        run: runUnassign)

    static let remove = CommandSpec(
        name: "rm", aliases: ["remove"], abstract: "Delete todos",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        discussion: "All IDs are checked first; nothing is deleted unless every one exists. 'doogit todo restore ID...' brings deleted todos back.",
        examples: ["doogit todo rm 3", "doogit todo rm 3,4 7-9"],
        run: runRemove)

    // MARK: Handlers

    /// `-R`, else GH_REPO, else the checkout's GitHub remote; it must be tracked. In a fork's
    /// checkout the first tracked remote counts (origin, then upstream, then the others); when
    /// none is tracked, the advice names origin's repository.
    static func targetRepository(_ invocation: Invocation, _ runtime: Runtime,
                                 notACheckout: String = "no repository given, and this directory is not a git checkout with a GitHub remote; use -R OWNER/NAME")
        throws -> RepositoryRecord {
        let text: String
        if let option = invocation.value("repo") {
            text = option
        } else if let variable = runtime.context.variable("GH_REPO") {
            text = variable
        } else {
            return try checkoutRepository(runtime, store: runtime.store(), topic: invocation.path, notACheckout: notACheckout)
        }
        if text == "." { return try checkoutRepository(runtime, store: runtime.store(), topic: invocation.path) }
        if Runtime.repositoryID(text) != nil { return try runtime.trackedRepository(text, topic: invocation.path) }
        let reference = try runtime.parseReference(text, topic: invocation.path)
        do {
            return try runtime.store().findRepository(owner: reference.owner, name: reference.name)
        } catch StoreError.unknownRepository(let name) {
            throw notTracked(name, reference: reference)
        }
    }

    /// A REPO argument of a local command: `.` is the current checkout's repository; anything
    /// else names a tracked repository (OWNER/NAME, NAME, a former name, id:ID).
    static func namedRepository(_ text: String, _ invocation: Invocation, _ runtime: Runtime,
                                reading: Bool) throws -> RepositoryRecord {
        guard text == "." else { return try runtime.trackedRepository(text, topic: invocation.path, reading: reading) }
        return try checkoutRepository(runtime, store: reading ? runtime.readingStore() : runtime.store(),
                                      topic: invocation.path)
    }

    /// The tracked repository the current directory's git checkout points at: the first tracked
    /// one of its GitHub remotes, origin first, then upstream, then the others.
    static func checkoutRepository(
        _ runtime: Runtime, store: Store, topic: [String],
        notACheckout: String = "'.' stands for the current checkout's repository, but this directory is not a git checkout with a GitHub remote"
    ) throws -> RepositoryRecord {
        let checkout = GitCheckout(environment: runtime.context.environment, hosts: runtime.webHosts)
        let candidates = checkout.repositories(from: runtime.context.currentDirectory)
        guard let first = candidates.first else { throw UsageError(message: notACheckout, topic: topic) }
        for candidate in candidates {
            do {
                return try store.findRepository(owner: candidate.owner, name: candidate.name)
            } catch StoreError.unknownRepository {
                continue
            }
        }
        throw notTracked(first.description, reference: first)
    }

    private static func notTracked(_ name: String, reference: RepositoryReference) -> CommandFailure {
        CommandFailure(message: "repository '\(TerminalText.sanitize(name))' is not tracked",
                       hint: "run 'doogit repo add \(TerminalText.sanitize(reference.description))' first")
    }

    static func runSetDone(_ invocation: Invocation, _ runtime: Runtime, done: Bool) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let todos = try TodoActions(runtime).setDone(ids, done: done)
        printAffected(todos, runtime)
    }

    static func runEdit(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs([invocation.positionals[0]], topic: invocation.path)
        guard ids.count == 1 else {
            throw UsageError(message: "'doogit todo edit' changes one todo; give one ID", topic: invocation.path)
        }
        let actions = try TodoActions(runtime)
        var (words, details) = try actions.read(Array(invocation.positionals.dropFirst()), raw: invocation.flag("raw"),
                                                topic: invocation.path) {
            try DetailsInput.options(invocation, over: $0, today: actions.today, me: actions.login)
        }
        if let note = try NoteInput.option(invocation, runtime) { details.note = note }
        let todo = try actions.edit(ids[0], text: words.isEmpty ? nil : words, details: details, topic: invocation.path)
        printAffected([todo], runtime)
    }

    static func runAssign(_ invocation: Invocation, _ runtime: Runtime) throws {
        let actions = try TodoActions(runtime)
        let last = invocation.positionals.last ?? ""
        // `todo assign 3 4` forgot the login: 4 is an ID, not a user (a login of digits is @4).
        if !last.hasPrefix("@"), (try? InputValidation.todoIDs([last], topic: invocation.path)) != nil {
            throw UsageError(message: "'\(TerminalText.sanitize(last))' reads as a todo ID; the last word is the LOGIN to assign "
                             + "(a login of digits: @\(TerminalText.sanitize(last)))", topic: invocation.path)
        }
        let login = try DetailsInput.login(last, me: actions.login, topic: invocation.path)
        let ids = try InputValidation.todoIDs(Array(invocation.positionals.dropLast()), topic: invocation.path)
        printAffected(try actions.assign(ids, to: login), runtime)
    }

    static func runUnassign(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        printAffected(try TodoActions(runtime).assign(ids, to: nil), runtime)
    }

    static func runRemove(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let removed = try TodoActions(runtime).remove(ids)
        if runtime.global.json {
            runtime.printJSONArray(removed, JSONOutput.todo)
        } else {
            for todo in removed { runtime.say("Removed \(todo.id)  \(TerminalText.sanitize(todo.text))") }
            runtime.say(takeBackHint(removed))
        }
    }

    /// The todos a command changed: JSON, or one list line each.
    static func printAffected(_ todos: [TodoRecord], _ runtime: Runtime) {
        if runtime.global.json {
            runtime.printJSONArray(todos, JSONOutput.todo)
            return
        }
        let renderer = ListRenderer.todos(runtime)
        let idWidth = todos.map { String($0.id).count }.max() ?? 1
        for todo in todos {
            for line in renderer.todoLines(todo, idWidth: idWidth) { runtime.say(line) }
        }
    }
}
