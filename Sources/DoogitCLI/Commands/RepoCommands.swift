import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit repo ...`: the repositories that are the sections of the list.
enum RepoCommands {
    static let group = CommandSpec(
        name: "repo", abstract: "Track, list, search and remove GitHub repositories",
        discussion: "Tracked repositories are the sections of the todo list. They are identified by GitHub's numeric id, so a renamed or transferred repository keeps its todos.",
        subcommands: [add, list, remove, search, RepoSetCommand.spec, ShareCommands.share, ShareCommands.unshare])

    static let add = CommandSpec(
        name: "add", abstract: "Fetch repositories from GitHub and track them",
        // Names on GitHub, not tracked ones: nothing to offer from the database.
        arguments: ArgumentSpec(display: "REPO...", minimum: 1, maximum: nil, values: [.text]),
        discussion: """
            REPO is OWNER/NAME, github.com/OWNER/NAME, https://github.com/OWNER/NAME[.git], git@github.com:OWNER/NAME.git, \
            ssh://git@github.com/OWNER/NAME.git, a bare NAME (a repository of the signed-in user), or id:ID \
            (GitHub's numeric id of the repository). \
            Adding a tracked repository again refreshes it. All are fetched at once, in parallel, \
            before any is saved: if any fails, none is added, and the error names each one that \
            failed and why. Ten or more of one owner are read from that owner's listing of public \
            repositories, 100 a page, as sync reads it; the others (private, renamed) one by one. \
            Adding up to 10, each is looked at for shared todos ('doogit repo share'), and one that \
            has them is said, with how to see them.
            """,
        examples: ["doogit repo add octocat/Hello-World", "doogit repo add https://github.com/octocat/Spoon-Knife"],
        run: runAdd)

    static let list = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "List tracked repositories with their todo counts",
        discussion: "Each line shows the full name, the open and done counts, flags ([private], [gone], [archived]), the settings of 'doogit repo set' that are not the default ([push issues], [import assigned], [import all], [commits off]), [shared] for a repository whose todos are shared from here ('doogit repo share'; [shared, unreadable since DATE] once GitHub no longer shows it) and the description.",
        examples: ["doogit repo list", "doogit repo list --json"],
        run: runList)

    static let remove = CommandSpec(
        name: "remove", aliases: ["rm"], abstract: "Stop tracking repositories",
        arguments: ArgumentSpec(display: "REPO...", minimum: 1, maximum: nil),
        options: [OptionSpec("force", short: "f", help: "also remove the repository's todos, open and done")],
        discussion: """
            Refuses while a repository has any todos, open or done, unless --force, which removes the \
            repository and all its todos. Every REPO is checked first; nothing changes unless all can \
            go. REPO may be id:ID (GitHub's numeric id, shown by 'doogit repo list --json'), which tells \
            apart two tracked repositories with one name. With a remote set, the repository and its \
            todos leave every machine at its next sync; the todos stay restorable ('doogit todo list \
            --removed') once the repository is tracked again.
            """,
        examples: ["doogit repo remove octocat/Hello-World", "doogit repo remove Hello-World --force"],
        run: runRemove)

    static let search = CommandSpec(
        name: "search", abstract: "Search your repositories on GitHub",
        arguments: ArgumentSpec(display: "[QUERY...]", minimum: 0, maximum: nil),
        discussion: """
            Lists every repository you own, collaborate on or reach through an organization (all \
            pages), keeping those in which every word of QUERY is found (ignoring case) in the \
            owner, the name or the description. Tracked repositories are marked.
            """,
        examples: ["doogit repo search", "doogit repo search cli", "doogit repo search octocat hello"],
        run: runSearch)

    // MARK: Handlers

    static func runAdd(_ invocation: Invocation, _ runtime: Runtime) throws {
        var wanted: [RepositoryTracker.Wanted] = []
        for argument in invocation.positionals {
            let item: RepositoryTracker.Wanted
            if let id = Runtime.repositoryID(argument) {
                item = .id(id)
            } else {
                item = .reference(try runtime.parseReference(argument, topic: invocation.path))
            }
            if !wanted.contains(item) { wanted.append(item) }
        }
        let github = try runtime.github()
        let store = try runtime.store()
        let added = try RepositoryTracker(store: store, github: github).add(wanted, at: runtime.now()).map(\.record)
        let offered = try ShareCommands.lookForSharedBranches(of: added, store, github)
        if runtime.global.json {
            let ids = Set(added.map(\.id))
            runtime.printJSONArray(try store.repositorySummaries().filter { ids.contains($0.repository.id) },
                                   JSONOutput.repository)
            return
        }
        for repository in added {
            runtime.say("Tracking \(TerminalText.sanitize(repository.fullName))")
        }
        for repository in offered { runtime.say(ShareCommands.offerLine(repository.fullName)) }
    }

    static func runList(_ invocation: Invocation, _ runtime: Runtime) throws {
        let summaries = try runtime.readingStore().repositorySummaries()
        if runtime.global.json {
            runtime.printJSONArray(summaries, JSONOutput.repository)
            return
        }
        if summaries.isEmpty && runtime.console.outputIsTerminal {
            runtime.note("no repositories are tracked; add one with 'doogit repo add OWNER/NAME'")
        }
        runtime.console.output.write(ListRenderer(style: runtime.style, width: runtime.console.width)
            .repositoryList(summaries))
    }

    static func runRemove(_ invocation: Invocation, _ runtime: Runtime) throws {
        var repositories: [RepositoryRecord] = []
        for argument in invocation.positionals {
            let repository = try runtime.trackedRepository(argument, topic: invocation.path)
            if !repositories.contains(where: { $0.id == repository.id }) { repositories.append(repository) }
        }
        let store = try runtime.store()
        let before = try store.repositorySummaries()
        let names = try repositories.map { try store.nameTellingApart($0.id, $0.fullName) }
        try store.removeRepositories(ids: repositories.map(\.id), force: invocation.flag("force"), at: runtime.now())
        let removed = before.filter { summary in repositories.contains { $0.id == summary.repository.id } }
        if runtime.global.json {
            runtime.printJSONArray(removed, JSONOutput.repository)
            return
        }
        // With a remote, the others follow: said, as it is not this machine's alone.
        let everywhere = try store.remoteSettings().map {
            ", here and on every machine of the remote \(TerminalText.sanitize($0.fullName)) at its next sync"
        } ?? ""
        for summary in removed {
            let count = summary.open + summary.done
            let todos = count == 0 ? "" : " and its \(count) todo\(count == 1 ? "" : "s")"
            let name = TerminalText.sanitize(names[repositories.firstIndex { $0.id == summary.repository.id } ?? 0])
            let back = count == 0 ? "" : " ('doogit repo add \(name)' and 'doogit todo restore' bring them back)"
            runtime.say("Stopped tracking \(name)\(todos)\(everywhere)\(everywhere.isEmpty ? "" : back)")
        }
    }

    static func runSearch(_ invocation: Invocation, _ runtime: Runtime) throws {
        let words = invocation.positionals.flatMap { $0.lowercased().split(whereSeparator: \.isWhitespace) }
        let found = try runtime.github().userRepositories().filter { repository in
            let fields = [repository.owner, repository.name, repository.description ?? ""].map { $0.lowercased() }
            return words.allSatisfy { word in fields.contains { $0.contains(word) } }
        }
        let store = try runtime.store()
        let tracked = Set(try store.repositories().map(\.id))
        if runtime.global.json {
            runtime.printJSONArray(found) { repository, json in
                JSONOutput.searchResult(repository, tracked: tracked.contains(repository.id), into: &json)
            }
            return
        }
        let style = runtime.style
        let renderer = ListRenderer(style: style, width: runtime.console.width)
        let nameWidth = ListRenderer.nameWidth(found.map(\.fullName))
        for repository in found {
            let mark = tracked.contains(repository.id) ? style.green(style.unicode ? "✓" : "*") : " "
            runtime.console.print(renderer.repositoryLine(
                lead: mark + " ", leadWidth: 2, fullName: repository.fullName, nameWidth: nameWidth,
                columns: [renderer.flags(isPrivate: repository.isPrivate, archived: repository.archived)],
                description: repository.description))
        }
        if found.isEmpty && runtime.console.outputIsTerminal {
            runtime.note(words.isEmpty ? "no repositories found"
                : "no repository matches '\(TerminalText.sanitize(words.joined(separator: " ")))'")
        }
    }
}
