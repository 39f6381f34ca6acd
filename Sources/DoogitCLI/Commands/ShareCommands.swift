import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit repo share` and `repo unshare`: a repository's todos shared with everyone who can
/// read it, on a branch of that repository (see `SharePhase`).
enum ShareCommands {
    static let share = CommandSpec(
        name: "share", abstract: "Share a repository's todos with its readers",
        arguments: ArgumentSpec(display: "REPO", minimum: 1, maximum: 1),
        options: [OptionSpec("public", help: "share the todos of a public repository, which makes them public")],
        discussion: """
            The repository's todos are kept, beside this machine's, on a branch of that repository \
            named \(Store.sharedBranch): a branch with no history in common with the code, holding \
            only doogit's files for this one repository, so no code branch, pull request or workflow \
            sees them. Everyone who tracks the repository and runs 'doogit repo share' on it sees \
            the same todos, with who added, finished and is assigned each one; 'doogit sync' \
            exchanges them (a settled branch costs two free 304s). Sharing is asked of each person \
            (or machine) once; the first with todos makes the branch, and running it again reads the \
            branch whole (and makes it again if it was deleted). Who can see and change \
            what is GitHub's: anyone who can read the repository can read the todos; a change made \
            by someone who cannot push to it waits on their machine, said once, and goes when they \
            can. A public repository's todos would be public: it asks for --public. The first \
            exchange runs at once; the repository must be tracked ('doogit repo add') and have a \
            commit.
            """,
        examples: ["doogit repo share octocat/app", "doogit repo share octocat/Hello-World --public"],
        run: runShare)

    static let unshare = CommandSpec(
        name: "unshare", abstract: "Stop sharing a repository's todos from here",
        arguments: ArgumentSpec(display: "REPO", minimum: 1, maximum: 1),
        discussion: """
            This machine stops exchanging the repository's todos with its \(Store.sharedBranch) \
            branch. Its todos stay here, as they are, and the branch stays too, for the others; \
            'doogit repo share' takes part again.
            """,
        examples: ["doogit repo unshare octocat/app"],
        run: runUnshare)

    static func runShare(_ invocation: Invocation, _ runtime: Runtime) throws {
        let repository = try runtime.trackedRepository(invocation.positionals[0], topic: invocation.path)
        let name = TerminalText.sanitize(repository.fullName)
        let store = try runtime.store()
        let github = try runtime.github()
        let found: GitHubRepository
        do throws(GitHubError) {
            found = try github.repository(id: repository.id)
        } catch .notFound, .unavailable {
            throw CommandFailure(message: "GitHub does not show you \(name), so its todos cannot be shared; nothing was changed",
                                 hint: "check that the token may read it ('doogit auth status' shows which token is used)")
        } catch {
            throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
        }
        let allowPublic = invocation.flag("public")
        if !found.isPrivate && !allowPublic {
            throw CommandFailure(message: "\(name) is public, so its shared todos would be public too; nothing was changed",
                                 hint: "run 'doogit repo share \(name) --public' to share them anyway")
        }
        let before = try store.share(of: repository.id)
        try store.addShare(repositoryID: repository.id, publicAllowed: allowPublic, at: runtime.now())
        let databasePath = try runtime.paths.database(option: runtime.global.databasePath)
        guard let lock = try FileLock(path: databasePath + ".sync-lock", wait: true) else { return }
        let syncer = Syncer(store: store, github: github, lock: lock, clock: runtime.context.clock)
        let summary: SyncSummary
        do {
            summary = try syncer.exchangeShare(of: repository.id)
        } catch let error as SyncError {
            // Stopped before the exchange could say anything (a rate limit, GitHub down): that is the error.
            guard error.summary.shares.contains(where: { $0.repositoryID == repository.id }) else { throw error }
            summary = error.summary
        }
        let outcome = summary.shares.first { $0.repositoryID == repository.id }
        if let failure = outcome?.failure {
            throw try failed(failure, name: name, wasShared: before != nil, repository.id, store)
        }
        if runtime.global.json {
            let share = try store.share(of: repository.id)
            runtime.printJSON(.object([
                JSONMember("repository", .string(repository.fullName)), JSONMember("branch", .string(Store.sharedBranch)),
                JSONMember("public", .bool(!found.isPrivate)), JSONMember("canPush", share?.canPush.map(JSONValue.bool) ?? .null),
                JSONMember("received", .int(Int64(outcome?.pulled ?? 0))), JSONMember("sent", .int(Int64(outcome?.pushed ?? 0))),
                JSONMember("waiting", .int(Int64(outcome?.waiting ?? 0))),
            ]))
            return
        }
        let visibility = found.isPrivate ? "everyone who can read \(name)" : "everyone (\(name) is public)"
        runtime.say("Sharing the todos of \(name) with \(visibility), on its branch \(Store.sharedBranch)")
        if let outcome, outcome.pulled > 0 || outcome.pushed > 0 {
            runtime.say("received \(Counted.text(outcome.pulled, "change")), sent \(Counted.text(outcome.pushed, "change"))")
        }
        if let outcome, outcome.waiting > 0 { runtime.say(SyncCommand.waitingLine(outcome)) }
    }

    /// The first exchange failed. One that found nothing it could read or merge (no such
    /// repository, no commit, a file it cannot read) takes a new share back: nothing changed.
    /// Otherwise the share stays, and what waits goes at the next sync.
    private static func failed(_ failure: ShareFailure, name: String, wasShared: Bool, _ id: Int64, _ store: Store) throws -> CommandFailure {
        let beforeAnyMerge: Bool
        switch failure {
        case .unreadable, .emptyRepository, .unreadableFile: beforeAnyMerge = true
        default: beforeAnyMerge = false
        }
        guard beforeAnyMerge, !wasShared else {
            return CommandFailure(message: "\(name): \(failure.advice); the share stays, and the next sync tries again",
                                  temporary: failure.isTemporary)
        }
        try store.removeShare(repositoryID: id)
        let advice = switch failure {
        case .emptyRepository: "it has no commit yet, so its shared todos have no branch; push a first commit to it, then run 'doogit repo share \(name)' again"
        case .unreadable: "GitHub does not show it to you; check that the token may read it ('doogit auth status' shows which token is used)"
        default: failure.advice
        }
        return CommandFailure(message: "\(name): \(advice); it is not shared", temporary: failure.isTemporary)
    }

    static func runUnshare(_ invocation: Invocation, _ runtime: Runtime) throws {
        let repository = try runtime.trackedRepository(invocation.positionals[0], topic: invocation.path)
        let name = TerminalText.sanitize(repository.fullName)
        guard try runtime.store().removeShare(repositoryID: repository.id) else {
            throw CommandFailure(message: "the todos of \(name) are not shared from here; nothing was changed",
                                 hint: "'doogit repo share \(name)' shares them")
        }
        runtime.say("Stopped sharing the todos of \(name) from here; they stay here, and the branch \(Store.sharedBranch) stays for the others")
    }

    /// "octocat/app has shared todos (...)": what a sync or `repo add` says once of a tracked
    /// repository that someone else shares.
    static func offerLine(_ fullName: String) -> String {
        let name = TerminalText.sanitize(fullName)
        return "\(name) has shared todos (its branch \(Store.sharedBranch)); 'doogit repo share \(name)' shows them here"
    }

    /// `repo add` of a few repositories looks at each for a shared branch at once (one request
    /// each, in one window); a look that fails is left to the next sync. Returns those found.
    static func lookForSharedBranches(of added: [RepositoryRecord], _ store: Store, _ github: GitHubClient) throws -> [RepositoryRecord] {
        guard !added.isEmpty, added.count <= SharePhase.looksPerSync else { return [] }
        let shared = Set(try store.shares().map(\.repositoryID))
        let candidates = added.filter { !shared.contains($0.id) }
            .map { Store.ShareCandidate(id: $0.id, fullName: $0.fullName, pushedAt: $0.pushedAt, etag: nil) }
        let found = Set(try SharePhase.look(at: candidates, store: store, github: github).found.map(\.id))
        return added.filter { found.contains($0.id) }
    }
}
