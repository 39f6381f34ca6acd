import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit remote ...`: the same todos on every machine, kept in a file of a private repository.
enum RemoteCommands {
    static let group = CommandSpec(
        name: "remote", abstract: "Keep the same todos on every machine, in a private repository",
        discussion: """
            Once a remote is set, 'doogit sync' merges this machine's todos with the file todos.jsonl \
            in that private repository, so every machine that syncs with it has the same todos. See \
            'doogit help sync'.
            """,
        subcommands: [initialize, status, remove])

    static let defaultName = "doogit-data"

    static let initialize = CommandSpec(
        name: "init", abstract: "Keep the todos in a private repository of yours",
        arguments: ArgumentSpec(display: "[REPO]", minimum: 0, maximum: 1),
        options: [OptionSpec("create", help: "create the repository (private) when it does not exist")],
        discussion: """
            The todos go in the file todos.jsonl on the default branch of REPO (OWNER/NAME, or NAME \
            for one of yours; default LOGIN/\(defaultName)). It must be private: a public one is \
            refused. With --create, a missing repository is created, private. Run 'doogit remote init' \
            with the same repository on each machine, then 'doogit sync' exchanges the todos, their \
            links to issues and the repositories' settings.
            """,
        examples: ["doogit remote init --create", "doogit remote init octocat/todos"],
        run: runInit)

    static let status = CommandSpec(
        name: "status", abstract: "Show the remote, its last exchange, changes waiting",
        discussion: "Reads only this machine's database; 'doogit sync' talks to GitHub.",
        examples: ["doogit remote status", "doogit remote status --json"],
        run: runStatus)

    static let remove = CommandSpec(
        name: "remove", aliases: ["rm"], abstract: "Stop exchanging the todos (the file on GitHub stays)",
        discussion: "This machine keeps its todos; the file on GitHub is left as it is, for the other machines.",
        examples: ["doogit remote remove"],
        run: runRemove)

    static func runInit(_ invocation: Invocation, _ runtime: Runtime) throws {
        let reference = try invocation.positionals.first.map { try runtime.parseReference($0, topic: invocation.path) }
        let github = try runtime.github()
        let store = try runtime.store()
        // The signed-in user's, unless named.
        var login: String?
        if reference?.owner == nil { login = try github.currentUser().login }
        let owner = reference?.owner ?? login ?? ""
        let fullName = "\(owner)/\(reference?.name ?? defaultName)"
        var access: RepositoryAccess
        if let found = try existingRepository(fullName, github) {
            access = found
        } else {
            guard invocation.flag("create") else {
                throw CommandFailure(message: "repository \(TerminalText.sanitize(fullName)) not found on GitHub (or the token cannot see it)",
                                     hint: "create it, private, with 'doogit remote init \(TerminalText.sanitize(fullName)) --create'")
            }
            let user = try login ?? github.currentUser().login
            do {
                access = try github.createPrivateRepository(owner: owner.lowercased() == user.lowercased() ? nil : owner,
                                                            name: reference?.name ?? defaultName,
                                                            description: "doogit's todos (todos.jsonl), kept in sync by doogit")
                runtime.say("Created \(TerminalText.sanitize(access.fullName)) (private)")
            } catch GitHubError.validationFailed(let message) {
                // Another machine created it meanwhile (GitHub: "name already exists"): that one is used.
                guard let found = try existingRepository(fullName, github) else { throw GitHubError.validationFailed(message: message) }
                access = found
            } catch {
                throw error  // spelled out: Swift 6.3 crashes compiling this do-catch without it
            }
        }
        guard access.isPrivate else {
            throw CommandFailure(message: "\(TerminalText.sanitize(access.fullName)) is public, and anyone could read your todos there; nothing was changed",
                                 hint: "make it private on GitHub, or choose another with 'doogit remote init OWNER/NAME --create'")
        }
        try store.setRemote(repositoryID: access.id, fullName: access.fullName, branch: access.defaultBranch,
                            path: TodoFile.fileName, at: runtime.now())
        if runtime.global.json {
            try printStatus(runtime)
            return
        }
        runtime.say("Todos will be kept in \(TerminalText.sanitize(access.fullName)) (\(TodoFile.fileName) on \(TerminalText.sanitize(access.defaultBranch))); run 'doogit sync' to exchange them")
    }

    /// The repository, or nil when GitHub says there is none (or the token cannot see it).
    static func existingRepository(_ fullName: String, _ github: GitHubClient) throws -> RepositoryAccess? {
        do {
            return try github.repositoryAccess(fullName)
        } catch {
            if case .notFound = error { return nil }
            throw error
        }
    }

    static func runStatus(_ invocation: Invocation, _ runtime: Runtime) throws {
        if runtime.global.json {
            try printStatus(runtime)
            return
        }
        let store = try runtime.readingStore()
        guard let remote = try store.remoteSettings() else {
            runtime.console.print("No remote: this machine's todos are kept only here. Set one with 'doogit remote init --create'.")
            return
        }
        let pending = try RemoteWaiting.count(store: store, settings: remote)
        runtime.console.print("Remote: \(TerminalText.sanitize(remote.fullName)) (\(remote.path) on \(TerminalText.sanitize(remote.branch)))")
        runtime.console.print("Last exchange: " + (remote.exchangedAt.map(\.rfc3339) ?? "never"))
        runtime.console.print(pending > 0 ? "Waiting: \(pending) local change\(pending == 1 ? "" : "s"); run 'doogit sync'"
                                          : "Waiting: nothing")
        runtime.console.print("This machine: \(try store.replica.machineID())")
    }

    static func printStatus(_ runtime: Runtime) throws {
        let store = try runtime.readingStore()
        let remote = try store.remoteSettings()
        let pending = Int64(try remote.map { try RemoteWaiting.count(store: store, settings: $0) } ?? 0)
        let machine = try store.replica.machineID()
        runtime.printJSON { json in JSONOutput.remoteStatus(remote, pending: pending, machine: machine, into: &json) }
    }

    static func runRemove(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard let removed = try runtime.store().removeRemote() else {
            throw CommandFailure(message: "no remote is set; nothing was changed", hint: nil)
        }
        if runtime.global.json {
            let machine = try runtime.store().replica.machineID()
            runtime.printJSON { json in JSONOutput.remoteStatus(removed, pending: nil, machine: machine, into: &json) }
            return
        }
        runtime.say("Stopped exchanging todos with \(TerminalText.sanitize(removed.fullName)); the file on GitHub is left as it is")
    }
}
