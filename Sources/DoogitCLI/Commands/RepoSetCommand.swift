import DoogitStore
import DoogitSupport

/// `doogit repo set`: what sync does with a repository's issues and commits.
enum RepoSetCommand {
    static let spec = CommandSpec(
        name: "set", abstract: "Choose what sync does with issues and commits",
        arguments: ArgumentSpec(display: "REPO...", minimum: 1, maximum: nil),
        options: [
            OptionSpec("push-issues", value: "on|off",
                       help: "push todo changes to linked issues: done closes, undo reopens, edit retitles (default off)"),
            OptionSpec("import-issues", value: "off|assigned|all",
                       help: "turn open issues (assigned to you, or all) into todos, each once (default off)"),
            OptionSpec("commits", value: "on|off",
                       help: "mark todos done from 'Doogit-Done:' trailers on the default branch (default on)"),
        ],
        discussion: """
            'doogit sync' always pulls the state of linked issues: an issue closed on GitHub marks its \
            todo done, reopened makes it open, a new title becomes its text (when both sides changed, \
            the later change wins). Nothing is written to GitHub unless --push-issues is on. Imported \
            issues never come back once their todo is removed or done; pull requests are never \
            imported. A commit that reaches the default branch with a trailer 'Doogit-Done: <first \
            8 or more hex digits of the todo's UUID>' (see 'doogit todo show') marks that todo done. \
            'doogit repo list' shows the settings that are not the default. With a remote set \
            ('doogit remote init'), the settings reach your other machines; each pushes its own changes, \
            and two machines importing one issue make one todo.
            """,
        examples: ["doogit repo set octocat/Hello-World --push-issues on",
                   "doogit repo set Hello-World --import-issues assigned --commits off"],
        run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        let push = try onOff(invocation, "push-issues")
        let scan = try onOff(invocation, "commits")
        var importIssues: IssueImport?
        if let value = invocation.value("import-issues") {
            guard let parsed = IssueImport(rawValue: value) else {
                throw UsageError(message: "--import-issues takes off, assigned or all, not '\(TerminalText.sanitize(value))'",
                                 topic: invocation.path)
            }
            importIssues = parsed
        }
        guard push != nil || scan != nil || importIssues != nil else {
            throw UsageError(message: "nothing to set; give --push-issues, --import-issues or --commits", topic: invocation.path)
        }
        var repositories: [RepositoryRecord] = []
        for argument in invocation.positionals {
            let repository = try runtime.trackedRepository(argument, topic: invocation.path)
            if !repositories.contains(where: { $0.id == repository.id }) { repositories.append(repository) }
        }
        let store = try runtime.store()
        try store.setSettings(repositoryIDs: repositories.map(\.id), pushIssues: push, importIssues: importIssues,
                              scanCommits: scan, at: runtime.now())
        let ids = Set(repositories.map(\.id))
        let changed = try store.repositorySummaries().filter { ids.contains($0.repository.id) }
        if runtime.global.json {
            runtime.printJSONArray(changed, JSONOutput.repository)
            return
        }
        for summary in changed {
            let settings = summary.repository.settings
            runtime.say("\(TerminalText.sanitize(summary.repository.fullName)): push issues \(settings.pushIssues ? "on" : "off"), import issues \(settings.importIssues.rawValue), commits \(settings.scanCommits ? "on" : "off")")
        }
    }

    private static func onOff(_ invocation: Invocation, _ option: String) throws(UsageError) -> Bool? {
        guard let value = invocation.value(option) else { return nil }
        switch value {
        case "on": return true
        case "off": return false
        default: throw UsageError(message: "--\(option) takes on or off, not '\(TerminalText.sanitize(value))'", topic: invocation.path)
        }
    }
}
