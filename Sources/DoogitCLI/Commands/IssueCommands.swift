import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit todo promote|link|unlink`: a todo and its GitHub issue.
enum IssueCommands {
    static let bodyOptions = [
        OptionSpec("body", value: "TEXT", help: "the issue's body (default: the todo's note)"),
        OptionSpec("body-file", value: "FILE", help: "read the issue's body from FILE ('-': standard input)"),
        OptionSpec("label", value: "NAME", help: "add a label (repeat it, or separate names with commas)"),
    ]

    static let promote = CommandSpec(
        name: "promote", abstract: "Create a GitHub issue for a todo and link the two",
        arguments: ArgumentSpec(display: "ID", minimum: 1, maximum: 1),
        options: bodyOptions,
        discussion: """
            The issue is created in the todo's repository, titled with the todo's text; its body is \
            --body (or --body-file), else the todo's note, and ends with an invisible marker naming the \
            todo. After that the note and the body are apart. If GitHub's answer is lost, nothing is \
            created twice: running promote again (or 'doogit sync') looks for the issue first and \
            links it if GitHub made it. Prints 'Created OWNER/NAME#N for todo ID' and the issue's URL.
            """,
        examples: ["doogit todo promote 3", "doogit todo promote 3 --label bug --body-file notes.md"],
        run: runPromote)

    static let link = CommandSpec(
        name: "link", abstract: "Link a todo to an existing GitHub issue",
        arguments: ArgumentSpec(display: "ID ISSUE", minimum: 2, maximum: 2),
        discussion: """
            ISSUE is N, #N, OWNER/NAME#N or the issue's URL; it must belong to the todo's repository. \
            Neither text changes. From then on 'doogit sync' keeps the two in step (see 'doogit help repo set').
            """,
        examples: ["doogit todo link 3 12", "doogit todo link 3 https://github.com/octocat/Hello-World/issues/12"],
        run: runLink)

    static let unlink = CommandSpec(
        name: "unlink", abstract: "Forget a todo's issue (the issue is untouched)",
        arguments: ArgumentSpec(display: "ID", minimum: 1, maximum: 1),
        examples: ["doogit todo unlink 3"],
        run: runUnlink)

    // MARK: Handlers

    static func runPromote(_ invocation: Invocation, _ runtime: Runtime) throws {
        let id = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)[0]
        let (body, labels) = try issueContent(invocation, runtime)
        let linked = try linker(runtime).promote(todoID: id, body: body, labels: labels)
        try report(linked, runtime)
    }

    /// `todo add TEXT --issue`: the todo and its issue, as one step.
    /// Its tags go as labels, its note is the issue's body unless --body says otherwise; the
    /// details (the tags too) are written once the todo is there, and what is printed is the
    /// todo with them.
    static func runAddWithIssue(_ invocation: Invocation, _ runtime: Runtime, text: String,
                                repository: RepositoryRecord, details: DetailsEdit) throws {
        let (body, labels) = try issueContent(invocation, runtime)
        var linked = try linker(runtime).addTodoWithIssue(repositoryID: repository.id, text: text,
                                                          body: body ?? details.note.flatMap { $0 } ?? "",
                                                          labels: Array(Set(labels + details.addTags)).sorted(),
                                                          author: runtime.login(reading: false))
        let rest = DetailsEdit(due: details.due, priority: details.priority, addTags: details.addTags, note: details.note,
                               assignee: details.assignee)
        if !rest.isEmpty { linked.todo = try runtime.store().editTodo(id: linked.todo.id, text: nil, details: rest, at: runtime.now()) }
        runtime.say("Added \(linked.todo.id) to \(TerminalText.sanitize(repository.fullName))")
        try report(linked, runtime)
    }

    static func runLink(_ invocation: Invocation, _ runtime: Runtime) throws {
        let id = try InputValidation.todoIDs([invocation.positionals[0]], topic: invocation.path)[0]
        let text = invocation.positionals[1]
        guard let reference = IssueReference.parse(text, hosts: runtime.webHosts) else {
            throw UsageError(message: "'\(TerminalText.sanitize(text))' is not an issue; use N, #N, OWNER/NAME#N or the issue's URL",
                             topic: invocation.path)
        }
        if reference.isPullRequest {
            throw CommandFailure(message: "\(TerminalText.sanitize(text)) is a pull request; only issues can be linked",
                                 hint: nil)
        }
        let linked = try linker(runtime).link(todoID: id, owner: reference.owner, name: reference.name,
                                              number: reference.number)
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todo(linked.todo, into: &$0) }
            return
        }
        runtime.say("Linked todo \(linked.todo.id) to \(issueName(linked))")
        runtime.say(TerminalText.sanitize(linked.url))
        if linked.closed && !linked.todo.done {
            runtime.note("\(issueName(linked)) is closed; todo \(linked.todo.id) stays open (finish it with 'doogit todo done \(linked.todo.id)')")
        }
        try warnIfPushIsRefused(linked, runtime)
    }

    static func runUnlink(_ invocation: Invocation, _ runtime: Runtime) throws {
        let id = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)[0]
        let store = try runtime.store()
        let before = try store.todo(id: id)
        let todo = try store.unlinkIssue(todoID: id, at: runtime.now())
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todo(todo, into: &$0) }
            return
        }
        let number = before.issue.map { " from \(TerminalText.sanitize(todo.repositoryFullName))#\($0.number)" } ?? ""
        runtime.say("Unlinked todo \(todo.id)\(number)")
    }

    // MARK: Helpers

    static func linker(_ runtime: Runtime) throws -> IssueLinker {
        let store = try runtime.store()
        return IssueLinker(store: store, github: try runtime.github(), clock: runtime.context.clock)
    }

    static func issueName(_ linked: IssueLinker.Linked) -> String {
        "\(TerminalText.sanitize(linked.repository))#\(linked.number)"
    }

    /// What `promote` and `add --issue` print.
    static func report(_ linked: IssueLinker.Linked, _ runtime: Runtime) throws {
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todo(linked.todo, into: &$0) }
            return
        }
        if linked.foundEarlier {
            runtime.say("Linked \(issueName(linked)) to todo \(linked.todo.id) (it was made for it earlier, here or on another machine)")
        } else {
            runtime.say("Created \(issueName(linked)) for todo \(linked.todo.id)")
        }
        runtime.say(TerminalText.sanitize(linked.url))
        try warnIfPushIsRefused(linked, runtime)
    }

    /// With pushing on, an archived repository's issues cannot follow their todos: said now.
    static func warnIfPushIsRefused(_ linked: IssueLinker.Linked, _ runtime: Runtime) throws {
        guard let repository = try runtime.store().repository(id: linked.todo.repositoryID),
              repository.archived, repository.settings.pushIssues else { return }
        runtime.note("\(TerminalText.sanitize(repository.fullName)) is archived, so GitHub refuses changes to its issues: sync cannot push to \(issueName(linked)) (turn pushing off with 'doogit repo set \(TerminalText.sanitize(repository.fullName)) --push-issues off')")
    }

    /// The body (`--body`, or `--body-file FILE|-`; nil when neither is given) and labels of an
    /// issue to create.
    static func issueContent(_ invocation: Invocation, _ runtime: Runtime) throws -> (body: String?, labels: [String]) {
        if invocation.value("body") != nil && invocation.value("body-file") != nil {
            throw UsageError(message: "--body and --body-file cannot be used together", topic: invocation.path)
        }
        var body = invocation.value("body")
        if let file = invocation.value("body-file") {
            body = try TransferCommands.readText(file, runtime, limit: 1 << 20, instead: "give the body with --body")
        }
        var labels: [String] = []
        for value in invocation.options["label"] ?? [] {
            for name in value.split(separator: ",").map({ $0.trimmingSpaces }) where !name.isEmpty {
                if !labels.contains(name) { labels.append(name) }
            }
        }
        return (body, labels)
    }
}
