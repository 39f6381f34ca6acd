import DoogitStore
import DoogitSupport

/// `doogit todo move ID... -R REPO`: todos to another tracked repository.
extension TodoCommands {
    static let move = CommandSpec(
        name: "move", aliases: ["mv"], abstract: "Move todos to another repository",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        options: [OptionSpec("repo", short: "R", value: "REPO",
                             help: "where to (default: $GH_REPO, else the current checkout's GitHub remote)"),
                  OptionSpec("unlink", help: "move todos linked to issues too, forgetting their issues")],
        discussion: """
            The todos keep their IDs, UUIDs, text and state, and go to the end of the other \
            repository's list, in the order given. REPO is found as for 'doogit todo add'; it must be \
            tracked. All IDs are checked first; nothing moves unless every one exists. A todo linked \
            to an issue is refused, since its issue stays in its repository, unless --unlink: then \
            the link is forgotten (the issue is left as it is).
            """,
        examples: ["doogit todo move 3 4 -R octocat/Spoon-Knife", "doogit move 7 -R ."],
        run: runMove)

    static func runMove(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let repository = try targetRepository(invocation, runtime)
        let store = try runtime.store()
        let before = try store.requireTodos(ids).filter { $0.repositoryID != repository.id && $0.issue != nil }
        let moved = try store.moveTodos(ids, toRepository: repository.id, unlinking: invocation.flag("unlink"), at: runtime.now())
        if runtime.global.json {
            runtime.printJSONArray(moved, JSONOutput.todo)
            return
        }
        runtime.say("Moved \(IDList.compact(moved.map(\.id))) to \(TerminalText.sanitize(repository.fullName))")
        for todo in before {
            guard let issue = todo.issue else { continue }
            runtime.say("Todo \(todo.id) is no longer linked to \(TerminalText.sanitize(todo.repositoryFullName))#\(issue.number) (the issue is left as it is)")
        }
    }
}
