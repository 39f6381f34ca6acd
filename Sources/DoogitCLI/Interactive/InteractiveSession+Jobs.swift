#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The view's work in the background: commands run as this program in a child process (a
/// sync, a promote, the listing of your repositories, a track), and the repository screen.
extension InteractiveSession {
    // MARK: Work in the background

    enum Job: Equatable {
        case sync
        case listing
        case track(RepositoryView.Entry)
        case promote(Int64)
    }

    func start(_ kind: Job, _ arguments: [String]) throws {
        let database = try runtime.paths.database(option: runtime.global.databasePath)
        let command = try BackgroundCommand(arguments: ["--db", database, "--color", "never"] + arguments,
                                            environment: runtime.context.environment)
        jobs.append((kind, command))
    }

    func isRunning(_ kind: Job) -> Bool {
        jobs.contains { $0.kind == kind }
    }

    func startSync() {
        guard !isRunning(.sync) else {
            view.message = "A sync is running"
            return
        }
        do {
            try start(.sync, ["sync", "--json"])
            view.syncing = true
            view.message = nil
        } catch {
            view.message = Self.describe(error, runtime)
        }
    }

    func finish(_ kind: Job, _ finished: BackgroundCommand) {
        let lines = finished.lines
        let error = lines.last { $0.hasPrefix("doogit: error: ") }.map { String($0.dropFirst("doogit: error: ".count)) }
            ?? lines.last ?? "exit \(finished.status ?? -1)"
        switch kind {
        case .sync:
            view.syncing = false
            if finished.status == 0 {
                view.lastSync = "synced: " + (BackgroundOutcome.json(in: finished.output).map(BackgroundOutcome.sync) ?? "done")
            } else {
                view.lastSync = "sync failed: " + error
            }
            view.message = nil
        case .promote(let id):
            if finished.status == 0 {
                changes.promoted(id)
                view.message = "Promoted \(id)" + (BackgroundOutcome.json(in: finished.output).flatMap(BackgroundOutcome.promoted)
                    .map { ": " + $0 } ?? "")
            } else {
                view.message = "Cannot promote \(id): " + error
            }
        case .listing:
            repositories?.loading = false
            if finished.status == 0, let (json, entries) = RepositoryListing.entries(fromOutput: finished.output) {
                RepositoryListing.save(json, runtime)
                repositories?.show(markTracked(entries))
            } else {
                repositories?.message = "Cannot read your repositories: " + error
            }
            return
        case .track(let entry):
            if finished.status == 0 {
                repositories?.message = "Tracking " + TerminalText.sanitize(entry.fullName)
                // Shown, though it has no todo yet, to add to.
                view.pin(entry.id)
            } else {
                repositories?.message = "Cannot track \(TerminalText.sanitize(entry.fullName)): " + error
            }
            if let entries = repositories?.entries { repositories?.show(markTracked(entries)) }
        }
        do { try reload() } catch { view.message = Self.describe(error, runtime) }
    }

    // MARK: The repository screen

    func openRepositories() {
        var screen = RepositoryView(width: view.width, height: view.height)
        screen.show(markTracked(RepositoryListing.cached(runtime) ?? []))
        repositories = screen
        guard !isRunning(.listing) else { return }
        do {
            try start(.listing, ["repo", "search", "--json"])
            repositories?.loading = true
        } catch {
            repositories?.message = Self.describe(error, runtime)
        }
    }

    /// The listing with the tracked repositories marked, less the remote's own repository (it
    /// holds doogit's files, not work to track), unless it is tracked already.
    private func markTracked(_ entries: [RepositoryView.Entry]) -> [RepositoryView.Entry] {
        let tracked = Set((try? store.repositories().map(\.id)) ?? [])
        let remote = (try? store.remoteSettings())?.repositoryID
        return entries.compactMap { entry in
            var entry = entry
            entry.tracked = tracked.contains(entry.id)
            return entry.id == remote && !entry.tracked ? nil : entry
        }
    }

    func perform(_ request: RepositoryView.Request) {
        do {
            switch request {
            case .back:
                repositories = nil
                screen.invalidate()
            case .quit:
                running = false
            case .track(let entry):
                guard !isRunning(.track(entry)) else { return }
                try start(.track(entry), ["repo", "add", entry.fullName])
                repositories?.message = "Tracking \(TerminalText.sanitize(entry.fullName))…"
            case .untrack(let entry, let confirmed):
                let todos = try store.repositorySummaries().first { $0.repository.id == entry.id }.map { $0.open + $0.done } ?? 0
                if todos > 0 && !confirmed {
                    repositories?.confirming = (entry, todos)
                    return
                }
                // `repo remove`'s change: todos go with it only when the user said yes.
                try store.removeRepositories(ids: [entry.id], force: confirmed, at: runtime.now())
                repositories?.setTracked(entry.id, false)
                repositories?.message = "Stopped tracking \(TerminalText.sanitize(entry.fullName))"
                try reload()
            }
        } catch {
            repositories?.message = Self.describe(error, runtime)
        }
    }
}
