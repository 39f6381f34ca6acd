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
            branch with a 'Doogit-Done:' trailer finish their todos (see 'doogit help repo set'). Prints nothing unless something changed, so cron mails only news. Only one \
            sync runs at a time per database: a second one exits 0 at once (or waits with --wait). \
            Exit 75 means try again later (network, GitHub down, rate limit); what was done is kept. \
            When every repository and GitHub's /user answer 404, nothing is flagged gone and the exit \
            is 1: check DOOGIT_API_URL or GH_HOST.
            """,
        examples: ["doogit sync", "*/15 * * * * doogit sync --quiet   # crontab"],
        run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        let databasePath = try runtime.paths.database(option: runtime.global.databasePath)
        let store = try runtime.store()
        guard let lock = try SyncLock(path: databasePath + ".sync-lock", wait: invocation.flag("wait")) else {
            runtime.note("another sync is running on this database; skipping (use --wait to wait for it)")
            return
        }
        let github = try runtime.github()
        let showProgress = runtime.console.errorsIsTerminal && !runtime.global.quiet && !runtime.global.json
        // However the sync ends, the progress line goes before anything else is printed.
        func clearProgress() {
            guard showProgress else { return }
            runtime.console.errors.write("\r\u{1B}[K")
            runtime.console.errors.flush()
        }
        let syncer = Syncer(store: store, github: github, lock: lock, clock: runtime.context.clock)
        let dryRun = invocation.flag("dry-run")
        do {
            let summary = try syncer.run(dryRun: dryRun) { done, total in
                guard showProgress, done < total else { return }
                runtime.console.errors.write("\rsyncing \(done + 1)/\(total)\u{1B}[K")
                runtime.console.errors.flush()
            }
            clearProgress()
            report(summary, runtime, dryRun: dryRun)
        } catch let error as SyncError {
            clearProgress()
            report(error.summary, runtime, dryRun: dryRun)
            if runtime.global.verbose {
                for failure in error.summary.failures {
                    runtime.note("\(TerminalText.sanitize(failure.fullName)): \(TerminalText.sanitize(failure.error))")
                }
            }
            throw error
        } catch {
            clearProgress()
            throw error
        }
    }

    static func report(_ summary: SyncSummary, _ runtime: Runtime, dryRun: Bool) {
        if runtime.global.json {
            runtime.printJSON { JSONOutput.sync(summary, dryRun: dryRun, into: &$0) }
            return
        }
        guard !runtime.global.quiet else { return }
        let prefix = dryRun ? "would be " : ""
        for change in summary.changes {
            runtime.console.print(line(for: change, prefix: prefix))
        }
    }

    static func line(for change: SyncChange, prefix: String) -> String {
        let clean = TerminalText.sanitize
        switch change {
        case .renamed(let from, let to): return "\(clean(from)): \(prefix)renamed to \(clean(to))"
        case .descriptionChanged(let name, let description):
            return "\(clean(name)): description \(prefix)\(description == nil ? "removed" : "changed to \"\(clean(description ?? ""))\"")"
        case .archived(let name): return "\(clean(name)): \(prefix)archived"
        case .unarchived(let name): return "\(clean(name)): \(prefix)unarchived"
        case .visibilityChanged(let name, let isPrivate): return "\(clean(name)): \(prefix)made \(isPrivate ? "private" : "public")"
        case .gone(let name): return "\(clean(name)): \(prefix)flagged gone (GitHub no longer returns it; its todos are kept)"
        case .back(let name): return "\(clean(name)): \(prefix)back on GitHub"
        default: return issueLine(for: change, prefix: prefix)
        }
    }
}
