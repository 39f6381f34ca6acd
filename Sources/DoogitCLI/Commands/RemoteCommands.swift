import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit remote ...`: the same todos on every machine, kept in files of a private repository.
enum RemoteCommands {
    static let group = CommandSpec(
        name: "remote", abstract: "Keep the same todos on every machine, in a private repository",
        discussion: """
            Once a remote is set, 'doogit sync' merges this machine's todos with the files in that \
            private repository (one per repository's todos), so every machine that syncs with it has the \
            same todos. See 'doogit help sync'.
            """,
        subcommands: [initialize, RemoteStatus.status, RemoteStatus.forget, RemoteStatus.set, remove])

    static let defaultName = "doogit-data"
    /// The description of a repository that `--create` makes: its README is doogit's too.
    static let createdDescription = "doogit's todos, kept in sync by doogit"

    static let initialize = CommandSpec(
        name: "init", abstract: "Keep the todos in a private repository of yours",
        arguments: ArgumentSpec(display: "[REPO]", minimum: 0, maximum: 1),
        options: [OptionSpec("create", help: "create the repository (private) when it does not exist"),
                  OptionSpec("shared", help: "write beside the files the repository already holds")],
        discussion: """
            The todos go in files on the default branch of REPO (OWNER/NAME, or NAME for one of yours; \
            default LOGIN/\(defaultName)): todos/<bucket>/<repository id>.jsonl, repositories.jsonl, \
            remote.jsonl and todos.jsonl. It must be private: a public one is refused. With --create, a \
            missing repository is created, private. A repository that already holds other files (notes, \
            scripts) is refused unless --shared: doogit then writes its files beside them and never \
            changes the others. Run 'doogit remote init' with the same repository on each machine (a \
            machine that joins needs no --shared), then 'doogit sync' exchanges the todos, their links \
            to issues and the repositories' settings. The files stay on the branch they were first \
            written to, which remote.jsonl names: a machine that joins after the repository's default \
            branch moved finds them there. A remote written by an older doogit (the single file \
            todos.jsonl) is taken over at the first sync.
            """,
        examples: ["doogit remote init --create", "doogit remote init octocat/todos", "doogit remote init octocat/notes --shared"],
        run: runInit)


    static let remove = CommandSpec(
        name: "remove", aliases: ["rm"], abstract: "Stop exchanging the todos (the files on GitHub stay)",
        discussion: "This machine keeps its todos; the files on GitHub are left as they are, for the other machines.",
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
        var created = false
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
                                                            description: createdDescription)
                runtime.say("Created \(TerminalText.sanitize(access.fullName)) (private)")
                created = true
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
        let found = try RemoteBranch.find(repository: access.fullName, defaultBranch: access.defaultBranch,
                                          madeByDoogit: created || access.description == createdDescription, github: github)
        let name = TerminalText.sanitize(access.fullName)
        if !found.holdsDoogitFiles && !found.otherFiles.isEmpty && !invocation.flag("shared") {
            let named = found.otherFiles.prefix(4).map(TerminalText.sanitize).joined(separator: ", ")
                + (found.otherFiles.count > 4 ? " and \(found.otherFiles.count - 4) more" : "")
            throw CommandFailure(message: "\(name) already holds files of its own (\(named)), and doogit would write its files beside them; nothing was changed",
                                 hint: "to keep the todos there anyway (doogit never changes the other files), run 'doogit remote init \(name) --shared'; or give them a repository of their own with 'doogit remote init OWNER/NAME --create'")
        }
        try store.setRemote(repositoryID: access.id, fullName: access.fullName, branch: found.branch, at: runtime.now())
        if runtime.global.json {
            try RemoteStatus.print(runtime)
            return
        }
        let beside = found.holdsDoogitFiles || found.otherFiles.isEmpty ? "" : ", beside its other files"
        runtime.say("Todos will be kept in \(name) (on \(TerminalText.sanitize(found.branch))\(beside)); run 'doogit sync' to exchange them")
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

    static func runRemove(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard let removed = try runtime.store().removeRemote() else {
            throw CommandFailure(message: "no remote is set; nothing was changed", hint: nil)
        }
        if runtime.global.json {
            let machine = try runtime.store().replica.machineID()
            runtime.printJSON { json in JSONOutput.remoteStatus(removed, pending: nil, meta: nil, machine: machine, into: &json) }
            return
        }
        runtime.say("Stopped exchanging todos with \(TerminalText.sanitize(removed.fullName)); the files on GitHub are left as they are")
    }
}
