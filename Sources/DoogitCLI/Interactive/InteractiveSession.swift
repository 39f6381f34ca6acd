#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitStore
import DoogitSupport
import DoogitTerminal

/// `doogit ui` as it runs: the terminal in raw mode on the alternate screen, one loop that waits
/// (poll) for keys, signals and a running sync, lets the view answer, makes the changes it asks
/// for through `TodoActions`, and writes the frame's difference from the last one in one write.
/// Changes that other processes make to the database show within half a second
/// (`PRAGMA data_version`), the cursor kept on its todo.
final class InteractiveSession {
    private let runtime: Runtime
    private let store: Store
    private let repositoryIDs: [Int64]?
    private let terminal: TerminalSession
    private var view: ListView
    private var decoder = InputDecoder()
    /// What the terminal shows, to write only what changes.
    private var screen: Screen
    private var changes = ViewChanges()
    private var dataVersion: Int64?
    /// The repository screen, while it is shown.
    private var repositories: RepositoryView?
    /// Commands running in the background: a sync, the listing of your repositories, a track.
    private var jobs: [(kind: Job, command: BackgroundCommand)] = []
    private var spinnerStep = 0
    private var running = true
    private var signals: SignalPipe?
    /// The signal that ends the view, once one came.
    private var ending: Int32?

    /// How long the loop waits for anything before it looks at the database again.
    private static let idleMilliseconds: Int32 = 400
    /// How long a lone Esc waits for the rest of a sequence.
    private static let escapeMilliseconds: Int32 = 40

    init(runtime: Runtime, store: Store, repositoryIDs: [Int64]?) {
        self.runtime = runtime
        self.store = store
        self.repositoryIDs = repositoryIDs
        self.terminal = TerminalSession(input: STDIN_FILENO, output: STDOUT_FILENO)
        var renderer = ListRenderer(style: runtime.style, width: nil)
        renderer.today = CalendarDate.local(at: runtime.now())
        let size = Self.size()
        view = ListView(renderer: renderer, width: size.columns, height: size.rows)
        screen = Screen(width: size.columns, height: size.rows)
    }

    /// The terminal's size; 80x24 when it does not say (some report 0x0).
    private static func size() -> (columns: Int, rows: Int) {
        guard let size = TerminalSession.size(of: STDOUT_FILENO), size.columns > 0, size.rows > 0 else { return (80, 24) }
        return size
    }

    /// Runs until `q`; a signal that ends it ends it after the terminal is given back.
    func run() throws {
        let signals = try SignalPipe([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT])
        self.signals = signals
        try reload()
        try enterTerminal()
        defer {
            terminal.leave()
            signals.restore()
        }
        while running && ending == nil {
            draw()
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            for job in jobs { descriptors.append(pollfd(fd: job.command.outputEnd, events: Int16(POLLIN), revents: 0)) }
            let timeout = decoder.isWaiting ? Self.escapeMilliseconds : jobs.isEmpty ? Self.idleMilliseconds : 120
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { break }
            for number in signals.drain() {
                switch number {
                case SIGWINCH:
                    resize()
                case SIGCONT:
                    // Stopped from outside (kill -TSTP), a shell may have set the terminal back:
                    // take it again.
                    terminal.leave()
                    try enterTerminal()
                    screen.invalidate()
                default:
                    ending = number
                }
            }
            if descriptors[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
                if count > 0 { handle(decoder.feed(bytes[0..<count])) }
            } else if ready == 0 && decoder.isWaiting {
                handle(decoder.flush())
            }
            let finished = zip(jobs, descriptors.dropFirst(2)).filter { $0.1.revents != 0 && $0.0.command.readAvailable() }
            for (job, _) in finished {
                jobs.removeAll { $0.command === job.command }
                finish(job.kind, job.command)
            }
            if !jobs.isEmpty { spinnerStep += 1 }
            reapOpeners()
            followOtherProcesses()
        }
        if let ending {
            terminal.leave()
            signals.restore()
            // Ends as the signal would have ended it, so the shell sees why.
            signal(ending, SIG_DFL)
            raise(ending)
        }
    }

    // MARK: Drawing

    private static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private func draw() {
        let spin = runtime.style.unicode ? Self.spinner[spinnerStep % Self.spinner.count] : ["|", "/", "-", "\\"][spinnerStep % 4]
        let frame = repositories.map { RepositoryScreen.frame($0, style: runtime.style, spinner: spin) }
            ?? ListScreen.frame(view, spinner: spin)
        let output = screen.render(frame)
        if !output.isEmpty { _ = TerminalOutput.writeAll(STDOUT_FILENO, output) }
    }

    // MARK: What the view asks for

    private func handle(_ events: [InputEvent]) {
        // Keys typed after q (in the same read) are not carried out.
        for event in events where running {
            if var screen = repositories {
                let requests = screen.handle(event)
                repositories = screen
                for request in requests { perform(request) }
            } else {
                for request in view.handle(event) { perform(request) }
            }
        }
    }

    private func resize() {
        let size = Self.size()
        view.resize(width: size.columns, height: size.rows)
        repositories?.resize(width: size.columns, height: size.rows)
        screen.resize(width: size.columns, height: size.rows)
    }

    private func actions() throws -> TodoActions {
        try TodoActions(runtime)
    }

    private func perform(_ request: ListView.Request) {
        do {
            switch request {
            case .quit:
                running = false
            case .toggle(let id, let done):
                show(try changes.toggle(id, done: done, actions()))
            case .add(let repositoryID, let line):
                show(try changes.add(line, to: repositoryID, actions()))
            case .edit(let id, let line, let raw):
                guard let before = view.todo(id) else { return }
                show(try changes.edit(id, line: line, raw: raw, before: before, actions()))
            case .remove(let id):
                show(try changes.remove(id, actions()))
            case .undo:
                guard let done = try changes.takeBack(actions()) else {
                    view.message = "Nothing to take back"
                    return
                }
                show(done)
            case .editNote(let id):
                try editNote(id)
            case .promote(let id):
                guard !isRunning({ if case .promote(let other) = $0 { return other == id } else { return false } }) else { return }
                try start(.promote(id), ["todo", "promote", String(id)])
                view.message = "Making the issue of \(id) on GitHub…"
            case .open(let url):
                openInBrowser(url)
            case .sync:
                startSync()
            case .repositories:
                openRepositories()
            case .suspend:
                try suspend()
            case .redraw:
                screen.invalidate()
            }
        } catch {
            view.message = Self.describe(error, runtime)
        }
    }

    /// A failure in one line: a mistake in what was typed says what the command would say.
    static func describe(_ error: Error, _ runtime: Runtime) -> String {
        if let usage = error as? UsageError { return usage.message }
        let path = try? runtime.paths.database(option: runtime.global.databasePath)
        return ErrorReporter.report(error, databasePath: path).message
    }

    /// What a change made here did: its line, and its todos in the list (only their sections
    /// are laid out again).
    private func show(_ done: ViewChanges.Done) {
        view.message = done.message
        view.apply(changed: done.changed, removed: done.removed, cursorOn: done.todoID.map { .todo(id: $0) })
    }

    /// Every section from the store (the view filters them itself).
    private func reload() throws {
        let today = CalendarDate.local(at: runtime.now())
        view.renderer.today = today
        let sections = try store.sections(repositoryIDs: repositoryIDs, filter: .all,
                                          details: DetailsFilter(today: today), includeEmpty: true)
        view.show(sections)
        dataVersion = try? store.database.scalarInt("PRAGMA data_version")
    }

    /// Another process (a cron sync, another terminal) changed the database: show it.
    private func followOtherProcesses() {
        // A new day changes every "due in 2 days" and what is overdue.
        let dayChanged = CalendarDate.local(at: runtime.now()) != view.renderer.today
        guard let version = try? store.database.scalarInt("PRAGMA data_version"), version != dataVersion || dayChanged else { return }
        do { try reload() } catch { view.message = Self.describe(error, runtime) }
    }

    // MARK: Work in the background

    enum Job {
        case sync
        case listing
        case track(RepositoryView.Entry)
        case promote(Int64)
    }

    private func start(_ kind: Job, _ arguments: [String]) throws {
        let database = try runtime.paths.database(option: runtime.global.databasePath)
        let command = try BackgroundCommand(arguments: ["--db", database, "--color", "never"] + arguments,
                                            environment: runtime.context.environment)
        jobs.append((kind, command))
    }

    private func isRunning(_ match: (Job) -> Bool) -> Bool {
        jobs.contains { match($0.kind) }
    }

    private func startSync() {
        guard !isRunning({ if case .sync = $0 { return true } else { return false } }) else {
            view.message = "A sync is running"
            return
        }
        do {
            try start(.sync, ["sync"])
            view.syncing = true
            view.message = nil
        } catch {
            view.message = Self.describe(error, runtime)
        }
    }

    private func finish(_ kind: Job, _ finished: BackgroundCommand) {
        let lines = finished.lines
        let error = lines.last { $0.hasPrefix("doogit: error: ") }.map { String($0.dropFirst("doogit: error: ".count)) }
            ?? lines.last ?? "exit \(finished.status ?? -1)"
        switch kind {
        case .sync:
            view.syncing = false
            if finished.status == 0 {
                let changes = lines.filter { !$0.hasPrefix("doogit: ") }
                view.lastSync = "synced: " + (changes.isEmpty ? "nothing changed" : changes.count == 1 ? changes[0] : "\(changes.count) changes")
            } else {
                view.lastSync = "sync failed: " + error
            }
            view.message = nil
        case .promote(let id):
            if finished.status == 0 {
                changes.promoted(id)
                view.message = "Promoted \(id)" + (lines.last.map { ": " + $0 } ?? "")
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
            } else {
                repositories?.message = "Cannot track \(TerminalText.sanitize(entry.fullName)): " + error
            }
            if let entries = repositories?.entries { repositories?.show(markTracked(entries)) }
        }
        do { try reload() } catch { view.message = Self.describe(error, runtime) }
    }

    // MARK: The repository screen

    private func openRepositories() {
        var screen = RepositoryView(width: view.width, height: view.height)
        screen.show(markTracked(RepositoryListing.cached(runtime) ?? []))
        repositories = screen
        guard !isRunning({ if case .listing = $0 { return true } else { return false } }) else { return }
        do {
            try start(.listing, ["repo", "search", "--json"])
            repositories?.loading = true
        } catch {
            repositories?.message = Self.describe(error, runtime)
        }
    }

    /// The entries with the store's word on which are tracked.
    private func markTracked(_ entries: [RepositoryView.Entry]) -> [RepositoryView.Entry] {
        let tracked = Set((try? store.repositories().map(\.id)) ?? [])
        return entries.map { entry in
            var entry = entry
            entry.tracked = tracked.contains(entry.id)
            return entry
        }
    }

    private func perform(_ request: RepositoryView.Request) {
        do {
            switch request {
            case .back:
                repositories = nil
                screen.invalidate()
            case .quit:
                running = false
            case .track(let entry):
                guard !isRunning({ if case .track(let other) = $0 { return other.id == entry.id } else { return false } }) else { return }
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

    /// `o`: the page in $BROWSER, else the system's opener, out of the view's way (its output
    /// goes nowhere, and the view does not wait for it).
    private func openInBrowser(_ url: String) {
        #if os(macOS)
        let opener = runtime.context.variable("BROWSER") ?? "open"
        #else
        let opener = runtime.context.variable("BROWSER") ?? "xdg-open"
        #endif
        do {
            let pid = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", opener + " \"$1\"", "sh", url],
                                           environment: runtime.context.environment,
                                           stdin: .nullDevice, stdout: .nullDevice, stderr: .nullDevice, newProcessGroup: true)
            openers.append(pid)
            view.message = "Opening " + TerminalText.sanitize(url)
        } catch {
            view.message = "Cannot start \(TerminalText.sanitize(opener)) to open \(TerminalText.sanitize(url)); set BROWSER"
        }
    }

    /// Openers that have not been waited for yet: reaped as they end, so none is left a zombie.
    private var openers: [pid_t] = []

    private func reapOpeners() {
        openers.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    // MARK: Leaving the screen for a while

    private func suspend() throws {
        terminal.leave()
        signal(SIGTSTP, SIG_DFL)
        // The whole process group, as a shell's Ctrl-Z would: a script that started doogit
        // stops too, and the shell gets its terminal back.
        kill(0, SIGTSTP)
        // Here again after `fg`.
        try enterTerminal()
        resize()
    }

    private func enterTerminal() throws {
        do {
            try terminal.enter()
        } catch {
            terminal.leave()
            throw CommandFailure(message: "cannot set up the terminal (\(Files.reason(error.code)))",
                                 hint: "run 'doogit ui' in a terminal, or use 'doogit todo list'")
        }
    }

    /// `n`: the note in $VISUAL or $EDITOR (else vi), on the terminal as it was.
    private func editNote(_ id: Int64) throws {
        guard let before = view.todo(id) else { return }
        let directory = runtime.context.variable("TMPDIR") ?? "/tmp"
        var template = Array("\(directory)/doogit-note-XXXXXX.txt".utf8CString)
        let descriptor = mkstemps(&template, 4)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot make a file for the note in \(directory) (\(Files.reason(errno)))", hint: "set TMPDIR to a folder you can write")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        _ = TerminalOutput.writeAll(descriptor, before.note.map { $0 + "\n" } ?? "")
        close(descriptor)
        let editor = runtime.context.variable("VISUAL") ?? runtime.context.variable("EDITOR") ?? "vi"
        terminal.leave()
        let status = Result { try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", editor + " \"$1\"", "sh", path],
                                                   environment: runtime.context.environment,
                                                   stdin: .descriptor(STDIN_FILENO), stdout: .descriptor(STDOUT_FILENO),
                                                   stderr: .descriptor(STDERR_FILENO)) }
            .map(Subprocess.waitForExit)
        // A Ctrl-C typed in the editor was the editor's: it does not end the view; a SIGTERM or
        // SIGHUP meanwhile does.
        for number in signals?.drain() ?? [] {
            if number == SIGWINCH { resize() }
            if number == SIGTERM || number == SIGHUP { ending = number }
        }
        try enterTerminal()
        screen.invalidate()
        guard case .success(0) = status else {
            view.message = "The editor (\(TerminalText.sanitize(editor))) failed; the note is as it was"
            return
        }
        guard let text = Files.read(path) else {
            view.message = "Cannot read the note back; it is as it was"
            return
        }
        let note = NoteInput.clean(text)
        guard note != before.note else {
            view.message = "The note is as it was"
            return
        }
        if let note, !NoteInput.fits(note) {
            view.message = "The note is \(NoteInput.tooLong); it is as it was"
            return
        }
        show(try changes.editNote(id, note: note, before: before, actions()))
    }
}
