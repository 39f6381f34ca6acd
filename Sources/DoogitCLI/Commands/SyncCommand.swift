import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit sync`: made to run from cron. Silent unless something changed.
enum SyncCommand {
    static let spec = CommandSpec(
        name: "sync", abstract: "Bring tracked repositories up to date with GitHub",
        options: [
            OptionSpec("wait", help: "wait for a sync already running instead of exiting"),
            OptionSpec("dry-run", short: "n", help: "show what would change without changing anything"),
        ],
        discussion: """
            Renames and transfers are followed (todos stay with the repository), descriptions and \
            flags are refreshed, and a repository GitHub no longer returns is flagged [gone] with its \
            todos kept. Linked issues and their todos are kept in step, and commits on the default \
            branch with a 'Doogit-Done:' trailer finish their todos (see 'doogit help repo set'); a \
            change seen on GitHub is dated by GitHub's time of it, so a change you made later wins. \
            Prints nothing unless something changed, so cron mails only news. Only one \
            sync runs at a time per database: a second one exits 0 at once (or waits with --wait). \
            Exit 75 means try again later (network, GitHub down, rate limit); what was done is kept. \
            When every repository and GitHub's /user answer 404, nothing is flagged gone and the exit \
            is 1: check DOOGIT_API_URL or GH_HOST. With a remote set ('doogit remote init'), sync also \
            merges the todos with the files there, at its start and, when it changed something \
            itself, at its end: every field keeps its latest change, a removal wins over an edit made \
            meanwhile, and what other machines added, finished, edited, removed, linked to issues or \
            set with 'repo set' arrives here. Only the files that changed are read and written, in one \
            commit; an unchanged remote costs one conditional request. A write that loses a race with \
            another machine is merged and tried again (5 times at most, then exit 75 with nothing \
            lost). Removals leave the remote once every machine has merged them (see 'doogit help \
            remote forget'). Each repository shared with 'doogit repo share' is exchanged the same way \
            with its doogit-todos branch, and says what it received and sent. When the exchange fails (a file, the repository or GitHub), the rest of \
            the sync goes on and the changes wait; the exit code and message say what failed and what \
            to do.
            """,
        examples: ["doogit sync", "*/15 * * * * doogit sync --quiet   # crontab"],
        run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        let databasePath = try runtime.paths.database(option: runtime.global.databasePath)
        let store = try runtime.store()
        guard let lock = try FileLock(path: databasePath + ".sync-lock", wait: invocation.flag("wait")) else {
            runtime.note("another sync is running on this database; skipping (use --wait to wait for it)")
            return
        }
        let github = try runtime.github()
        let progress = ProgressLine(console: runtime.console, environment: runtime.context.environment,
                                    enabled: !runtime.global.quiet && !runtime.global.json)
        let syncer = Syncer(store: store, github: github, lock: lock, clock: runtime.context.clock)
        let dryRun = invocation.flag("dry-run")
        let outcome = Result {
            try syncer.run(dryRun: dryRun) { step in
                if step.done < step.total { progress.show(Self.progressText(step)) }
            }
        }
        // However the sync ended, the progress line goes before anything else is printed.
        progress.finish()
        if !dryRun, case .success = outcome { learnLogin(github, store, runtime) }
        switch outcome {
        case .success(let summary):
            report(summary, runtime, dryRun: dryRun)
            if runtime.global.verbose, let remote = summary.remote { reportTimes(remote, runtime) }
        case .failure(let error as SyncError):
            report(error.summary, runtime, dryRun: dryRun)
            if runtime.global.verbose {
                for failure in error.summary.failures {
                    runtime.note("\(TerminalText.sanitize(failure.fullName)): \(TerminalText.sanitize(failure.error))")
                }
            }
            throw error
        case .failure(let error):
            throw error
        }
    }

    /// The first sync with a token on an API that ends well learns its user's login (one
    /// `GET /user`): who adds and finishes todos here, and whose `--mine` are; so does the first
    /// with another token (`GH_TOKEN` switched to another account). Not knowing it costs nothing
    /// else; a failed sync does not ask (GitHub may be down or limiting).
    static func learnLogin(_ github: GitHubClient, _ store: Store, _ runtime: Runtime) {
        guard let origin = try? runtime.endpoint().canonicalOrigin, let fingerprint = runtime.tokenFingerprint,
              !((try? store.loginIsCurrent(origin: origin, tokenFingerprint: fingerprint)) ?? true),
              let user = try? github.currentUser() else { return }
        try? store.recordLogin(user.login, origin: origin, tokenFingerprint: fingerprint, at: runtime.now())
    }

    static func report(_ summary: SyncSummary, _ runtime: Runtime, dryRun: Bool) {
        if let remote = summary.remote { warnAboutClocks(remote, runtime) }
        if runtime.global.json {
            runtime.printJSON { JSONOutput.sync(summary, dryRun: dryRun, into: &$0) }
            return
        }
        guard !runtime.global.quiet else { return }
        let prefix = dryRun ? "would be " : ""
        if let remote = summary.remote, let line = renamedLine(for: remote) { runtime.console.print(line) }
        if let remote = summary.remote, let line = line(for: remote, dryRun: dryRun) { runtime.console.print(line) }
        if let remote = summary.remote, let line = droppedLine(for: remote, dryRun: dryRun) { runtime.console.print(line) }
        if let remote = summary.remote { for line in untrackedLines(for: remote, dryRun: dryRun) { runtime.console.print(line) } }
        if let board = summary.board { for line in boardLines(for: board) { runtime.console.print(line) } }
        for share in summary.shares { for line in shareLines(for: share, dryRun: dryRun) { runtime.console.print(line) } }
        for offered in summary.sharesOffered { runtime.console.print(ShareCommands.offerLine(offered)) }
        for change in sorted(summary.changes) {
            runtime.console.print(line(for: change, prefix: prefix))
        }
    }

    /// The progress line of a sync on a terminal: "syncing 3/80" while repositories are read,
    /// then "reading commits 10/40" and "reading issues 2/12".
    static func progressText(_ step: SyncProgress) -> String {
        switch step.step {
        case .repositories: return "syncing \(step.done + 1)/\(step.total)"
        case .commits, .issues: return "reading \(step.step.rawValue) \(step.done)/\(step.total)"
        }
    }

    /// `sync -v`: the size of the exchange and how long its steps took here.
    static func reportTimes(_ remote: RemoteSummary, _ runtime: Runtime) {
        guard !remote.milliseconds.isEmpty else { return }
        let steps = remote.milliseconds.map { "\($0.step) \(Int($0.milliseconds.rounded())) ms" }.joined(separator: ", ")
        runtime.note("\(TerminalText.sanitize(remote.repository)): \(Counted.text(remote.todos, "todo")), \(Counted.text(remote.fileBytes, "byte")); " + steps)
    }

    /// What the exchange with the file on GitHub did, when it did anything.
    static func line(for remote: RemoteSummary, dryRun: Bool) -> String? {
        guard remote.pulled > 0 || remote.pushed > 0 else { return nil }
        func changes(_ count: Int) -> String { Counted.text(count, "change") }
        var parts: [String] = []
        if remote.pulled > 0 { parts.append((dryRun ? "would receive " : "received ") + changes(remote.pulled)) }
        if remote.pushed > 0 { parts.append((dryRun ? "would send " : "sent ") + changes(remote.pushed)) }
        return "\(TerminalText.sanitize(remote.repository)): " + parts.joined(separator: ", ")
    }

    /// What the exchange of a repository's shared todos did, and what waits there, said once per
    /// change in the number waiting.
    static func shareLines(for share: ShareSummary, dryRun: Bool) -> [String] {
        var lines: [String] = []
        let name = TerminalText.sanitize(share.repository)
        if share.pulled > 0 || share.pushed > 0 {
            var parts: [String] = []
            if share.pulled > 0 { parts.append((dryRun ? "would receive " : "received ") + Counted.text(share.pulled, "change")) }
            if share.pushed > 0 { parts.append((dryRun ? "would send " : "sent ") + Counted.text(share.pushed, "change")) }
            lines.append("\(name) (shared): " + parts.joined(separator: ", "))
        }
        if share.droppedEdits > 0 {
            lines.append("\(name) (shared): \(Counted.text(share.droppedEdits, "edit")) made here dropped: "
                + "the todo had been removed meanwhile ('doogit todo list --removed' shows it)")
        }
        if share.waiting > 0 && share.waiting != share.waitingNoted { lines.append(waitingLine(share)) }
        return lines
    }

    /// Changes that wait for push access to a shared repository.
    static func waitingLine(_ share: ShareSummary) -> String {
        let name = TerminalText.sanitize(share.repository)
        let count = Counted.text(share.waiting, "change")
        return "\(name) (shared): \(count) made here \(share.waiting == 1 ? "waits" : "wait"): you cannot push to \(name); "
            + "ask its owner for write access (the next sync then sends \(share.waiting == 1 ? "it" : "them")), or use a token that "
            + "may write and run 'doogit repo share \(name)' again"
    }

    /// The remote repository renamed or transferred on GitHub, found by this sync (and kept by
    /// its new name from now on, even by a dry run: it is GitHub's change, not this sync's).
    static func renamedLine(for remote: RemoteSummary) -> String? {
        remote.formerName.map { "the remote \(TerminalText.sanitize($0)) is now \(TerminalText.sanitize(remote.repository))" }
    }

    /// The edits made here that the exchange dropped: their todos' removal had left the remote
    /// (the removal wins, as it would have had this machine synced before).
    static func droppedLine(for remote: RemoteSummary, dryRun: Bool) -> String? {
        guard !remote.droppedEdits.isEmpty else { return nil }
        let count = remote.droppedEdits.count
        let texts = remote.droppedEdits.values.map { quoted(TerminalText.sanitize($0.text)) }.sorted().joined(separator: ", ")
        let restorable = remote.droppedEdits.values.contains(where: \.restorable) ? " (restorable: 'doogit todo list --removed')" : ""
        return "\(TerminalText.sanitize(remote.repository)): \(dryRun ? "would drop" : "dropped") this machine's edits of \(count) "
            + "todo\(count == 1 ? "" : "s") removed on another machine meanwhile: \(texts)\(restorable)"
    }

    /// Repositories another machine stopped tracking, with their todos: said, with how to get
    /// them back, as the user here did not ask for it.
    static func untrackedLines(for remote: RemoteSummary, dryRun: Bool) -> [String] {
        remote.untrackedElsewhere.values.sorted { $0.fullName < $1.fullName }.map { untracked in
            let name = TerminalText.sanitize(untracked.fullName)
            let todos = untracked.todos == 0 ? "" : " with its " + Counted.text(untracked.todos, "todo")
                + (untracked.changedHere == 0 ? "" : " (\(untracked.changedHere) changed here since the last sync)")
            return "\(name): \(dryRun ? "would no longer be" : "no longer") tracked, stopped on another machine\(todos); "
                + "'doogit todo list --removed' shows what can come back, after 'doogit repo add \(name)'"
        }
    }

    /// What the board brought (said, as a person's changes on GitHub), and a board made.
    static func boardLines(for board: BoardSummary) -> [String] {
        var lines: [String] = []
        if var words = board.words {
            if !board.removedTexts.isEmpty {
                let texts = board.removedTexts.map { quoted(TerminalText.sanitize($0)) }.joined(separator: ", ")
                words += " (removed: \(texts); restorable: 'doogit todo list --removed')"
            }
            lines.append("board: " + words)
        }
        for line in board.unplaced {
            lines.append("board: a line doogit cannot place stays as written: " + TerminalText.sanitize(line))
        }
        if board.created > 0 { lines.append("board: made \(Counted.text(board.created, "issue")) ('doogit board' shows where)") }
        return lines
    }

    /// A clock far ahead of GitHub's had its stamps clamped: worth saying, even from cron.
    static func warnAboutClocks(_ remote: RemoteSummary, _ runtime: Runtime) {
        if let ahead = remote.thisClockAheadBy {
            runtime.note("warning: this machine's clock is \(duration(ahead)) ahead of GitHub's; its changes were dated by GitHub's time instead. Set the clock right (for example, turn on NTP)")
        }
        if let ahead = remote.otherClockAheadBy {
            runtime.note("warning: another machine's clock was \(duration(ahead)) ahead of GitHub's; its changes were dated by GitHub's time instead")
        }
    }

    static func duration(_ milliseconds: Int64) -> String {
        let minutes = milliseconds / 60_000
        if minutes < 120 { return Counted.text(minutes, "minute") }
        if minutes < 2 * 1440 { return Counted.text(minutes / 60, "hour") }
        if minutes < 2 * 525_600 { return Counted.text(minutes / 1440, "day") }
        return Counted.text(minutes / 525_600, "year")
    }

    /// The changes grouped by repository, each group's in the order found, and the groups sorted
    /// by the name their first line starts with: the lines read the same however the parallel
    /// answers arrived, and a renamed repository's lines stay together.
    static func sorted(_ changes: [SyncChange]) -> [SyncChange] {
        var groups: [(repository: String, changes: [SyncChange])] = []
        for change in changes {
            let repository = names(change).after
            if let index = groups.firstIndex(where: { $0.repository == repository }) {
                groups[index].changes.append(change)
            } else {
                groups.append((repository, [change]))
            }
        }
        return groups.sorted { lhs, rhs in
            let left = names(lhs.changes[0]).shown.lowercased(), right = names(rhs.changes[0]).shown.lowercased()
            return left != right ? left < right : lhs.repository < rhs.repository
        }.flatMap(\.changes)
    }

    /// The name a change's line starts with, and the repository's name after the sync.
    private static func names(_ change: SyncChange) -> (shown: String, after: String) {
        switch change {
        case .renamed(let from, let to): (from, to)
        case .descriptionChanged(let name, _), .archived(let name), .unarchived(let name),
             .visibilityChanged(let name, _), .gone(let name), .back(let name): (name, name)
        case .issuePulled(let name, _, _, _), .issuePushed(let name, _, _, _), .issueImported(let name, _, _, _),
             .issueConflict(let name, _, _, _, _), .issueLinked(let name, _, _, _), .doneByCommit(let name, _, _),
             .ambiguousTrailer(let name, _, _), .trailerOutranked(let name, _, _), .duplicateIssue(let name, _, _, _, _, _):
            (name, name)
        }
    }

    static func line(for change: SyncChange, prefix: String) -> String {
        let clean = TerminalText.sanitize
        switch change {
        case .renamed(let from, let to):
            // A new owner is a transfer, whatever happened to the name.
            let owner = { (name: String) in name.prefix(while: { $0 != "/" }).lowercased() }
            let verb = owner(from) == owner(to) ? "renamed" : "transferred"
            return "\(clean(from)): \(prefix)\(verb) to \(clean(to))"
        case .descriptionChanged(let name, let description):
            return "\(clean(name)): description \(prefix)\(description.map { "changed to \(quoted(clean($0)))" } ?? "removed")"
        case .archived(let name): return "\(clean(name)): \(prefix)archived"
        case .unarchived(let name): return "\(clean(name)): \(prefix)unarchived"
        case .visibilityChanged(let name, let isPrivate): return "\(clean(name)): \(prefix)made \(isPrivate ? "private" : "public")"
        case .gone(let name): return "\(clean(name)): \(prefix)flagged gone (GitHub no longer returns it; its todos are kept)"
        case .back(let name): return "\(clean(name)): \(prefix)back on GitHub"
        default: return issueLine(for: change, prefix: prefix)
        }
    }

    /// Text in double quotes, with quotes and backslashes inside escaped so the line reads unambiguously.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
