import DoogitStore
import DoogitSupport

/// `doogit todo move ID... -R REPO`: todos to another tracked repository.
extension TodoCommands {
    static let move = CommandSpec(
        name: "move", aliases: ["mv"], abstract: "Move todos to another repository",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil),
        options: [OptionSpec("repo", short: "R", value: "REPO",
                             help: "where to (default: $GH_REPO, else the current checkout's GitHub remote)")],
        discussion: """
            The todos keep their IDs, UUIDs, text and state, and go to the end of the other \
            repository's list, in the order given. REPO is found as for 'doogit todo add'; it must be \
            tracked. All IDs are checked first; nothing moves unless every one exists.
            """,
        examples: ["doogit todo move 3 4 -R octocat/Spoon-Knife", "doogit move 7 -R ."],
        run: runMove)

    static func runMove(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let repository = try targetRepository(invocation, runtime)
        let moved = try runtime.store().moveTodos(ids, toRepository: repository.id, at: runtime.now())
        if runtime.global.json {
            runtime.printJSONArray(moved, JSONOutput.todo)
            return
        }
        runtime.say("Moved \(IDList.compact(moved.map(\.id))) to \(TerminalText.sanitize(repository.fullName))")
    }
}
