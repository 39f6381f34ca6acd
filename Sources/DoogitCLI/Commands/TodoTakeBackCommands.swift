import DoogitStore
import DoogitSupport

/// Removing todos so that they can be taken back: `todo restore` and `todo clear`.
extension TodoCommands {
    static let restore = CommandSpec(
        name: "restore", abstract: "Bring back removed todos",
        arguments: ArgumentSpec(display: "ID...", minimum: 1, maximum: nil, values: [.todo(.removed)]),
        discussion: """
            Brings back todos removed by 'doogit todo rm' or 'doogit todo clear', here or on another \
            machine ('doogit todo list --removed' shows them with their IDs here), with their text and \
            state, at the end of their repository's list. All IDs are checked first: each must be a \
            removed todo whose repository is still tracked; nothing changes otherwise. A linked todo \
            comes back linked, and the next 'doogit sync' brings what its issue did meanwhile.
            """,
        examples: ["doogit todo restore 3", "doogit todo restore 3-7"],
        run: runRestore)

    static let clear = CommandSpec(
        name: "clear", abstract: "Remove the done todos of a repository",
        arguments: ArgumentSpec(display: "[REPO]", minimum: 0, maximum: 1),
        options: [OptionSpec("all", help: "of every tracked repository")],
        discussion: """
            Removes every done todo of REPO, else of the repository $GH_REPO or the current \
            directory's git checkout names (as for 'doogit todo add'), or of all repositories with \
            --all. They can be brought back with 'doogit todo restore ID...'.
            """,
        examples: ["doogit todo clear", "doogit todo clear octocat/Hello-World", "doogit todo clear --all"],
        run: runClear)

    static func runRestore(_ invocation: Invocation, _ runtime: Runtime) throws {
        let ids = try InputValidation.todoIDs(invocation.positionals, topic: invocation.path)
        let restored = try TodoActions(runtime).restore(ids)
        if runtime.global.json {
            runtime.printJSONArray(restored, JSONOutput.todo)
            return
        }
        for todo in restored {
            runtime.say("Restored \(todo.id) to \(TerminalText.sanitize(todo.repositoryFullName))  \(TerminalText.sanitize(todo.text))")
        }
    }

    static func runClear(_ invocation: Invocation, _ runtime: Runtime) throws {
        let repository: RepositoryRecord?
        if invocation.flag("all") {
            guard invocation.positionals.isEmpty else {
                throw UsageError(message: "give a REPO or --all, not both", topic: invocation.path)
            }
            repository = nil
        } else if let text = invocation.positionals.first {
            repository = try namedRepository(text, invocation, runtime, reading: false)
        } else {
            repository = try targetRepository(invocation, runtime, notACheckout: "no repository given, and this directory is not a git checkout with a GitHub remote; name one (doogit todo clear OWNER/NAME) or clear every repository's with --all")
        }
        let cleared = try runtime.store().clearDone(repositoryID: repository?.id, at: runtime.now())
        if runtime.global.json {
            runtime.printJSONArray(cleared, JSONOutput.todo)
            return
        }
        let place = repository.map { " of " + TerminalText.sanitize($0.fullName) } ?? ""
        guard !cleared.isEmpty else {
            runtime.say("No done todos\(place) to clear")
            return
        }
        runtime.say("Cleared \(cleared.count) done todo\(cleared.count == 1 ? "" : "s")\(place)")
        runtime.say(takeBackHint(cleared))
    }

    /// The line that says how to bring removed todos back.
    static func takeBackHint(_ removed: [TodoRecord]) -> String {
        "To take \(removed.count == 1 ? "it" : "them") back: doogit todo restore \(IDList.compact(removed.map(\.id)))"
    }
}

/// IDs written as briefly as the commands read them: `3 5-9 12`, ascending.
enum IDList {
    static func compact(_ ids: [Int64]) -> String {
        var parts: [String] = []
        var sorted = Array(Set(ids)).sorted()[...]
        while let low = sorted.first {
            var high = low
            sorted = sorted.dropFirst()
            while let next = sorted.first, next == high + 1 {
                high = next
                sorted = sorted.dropFirst()
            }
            switch high - low {
            case 0: parts.append(String(low))
            case 1: parts += [String(low), String(high)]
            default: parts.append("\(low)-\(high)")
            }
        }
        return parts.joined(separator: " ")
    }
}
