import DoogitSupport

/// `doogit todo add`: one todo from TEXT (with `--issue`, its GitHub issue too), or many from
/// standard input (`TodoInput`).
extension TodoCommands {
    static let add = CommandSpec(
        name: "add", abstract: "Add a todo",
        arguments: ArgumentSpec(display: "TEXT...", minimum: 1, maximum: nil),
        options: [repoOption, OptionSpec("issue", help: "also create its GitHub issue (no todo is added if GitHub refuses)")]
            + IssueCommands.bodyOptions + DetailsInput.addOptions,
        discussion: """
            The words of TEXT are joined with spaces, so quotes are optional; TEXT '-' reads todos \
            from standard input instead, one per non-empty line, all added or none, each line as it is \
            (no fields), with --due, --priority, --tag, --note and --note-file FILE for every line. \
            The repository is \
            -R/--repo, else GH_REPO, else the one the current directory's git checkout points at, \
            read as git reads it (url.<base>.insteadOf, SSH host aliases from ~/.ssh/config): the \
            first tracked one of its GitHub remotes, 'origin' first, then 'upstream' (so a fork's \
            checkout finds the tracked original), then the others. It must be tracked: see 'doogit repo add'. \
            With --issue the todo's GitHub issue is created too, as with 'doogit todo promote': its \
            body is the note, unless --body or --body-file gives one. --note-file reads the note from \
            FILE ('-': standard input); a note keeps its lines, without control characters, and has \
            the text's limit of 10,000 characters. \(DetailsInput.shorthandHelp)
            """,
        examples: ["doogit todo add write the release notes", "doogit todo add -R octocat/Hello-World \"fix CI\"",
                   "doogit add fix the build +ci due:fri pri:H", "doogit add --raw email +someone about the launch",
                   "grep -h TODO *.swift | doogit todo add -R octocat/Hello-World -",
                   "doogit todo add --issue --label bug crash on empty config"],
        run: runAdd)

    // MARK: Handler

    static func runAdd(_ invocation: Invocation, _ runtime: Runtime) throws {
        let issueOptions = ["issue", "body", "body-file", "label"].filter { invocation.options[$0] != nil }
        if invocation.positionals == ["-"] {
            if let option = issueOptions.first(where: { invocation.options[$0] != nil }) {
                throw UsageError(message: "--\(option) is for one todo, not for todos read from standard input", topic: invocation.path)
            }
            if invocation.value("note-file") == "-" {
                throw UsageError(message: "--note-file - would read the standard input that holds the todos; give the note with --note TEXT or --note-file FILE",
                                 topic: invocation.path)
            }
            return try runAddFromInput(invocation, runtime)
        }
        let actions = try TodoActions(runtime)
        var (words, details) = try actions.read(invocation.positionals, raw: invocation.flag("raw"), topic: invocation.path) {
            try DetailsInput.options(invocation, over: $0, today: actions.today, me: actions.login)
        }
        let text = try InputValidation.todoText(words, topic: invocation.path)
        if !invocation.flag("issue"), let option = issueOptions.first {
            throw UsageError(message: "--\(option) goes with --issue", topic: invocation.path)
        }
        if let note = try NoteInput.option(invocation, runtime) { details.note = note }
        let repository = try targetRepository(invocation, runtime)
        if invocation.flag("issue") {
            return try IssueCommands.runAddWithIssue(invocation, runtime, text: text, repository: repository, details: details)
        }
        let todo = try actions.add(text: text, details: details, to: repository.id)
        if runtime.global.json {
            runtime.printJSON { JSONOutput.todo(todo, into: &$0) }
        } else {
            runtime.say("Added \(todo.id) to \(TerminalText.sanitize(repository.fullName))")
        }
    }
}
