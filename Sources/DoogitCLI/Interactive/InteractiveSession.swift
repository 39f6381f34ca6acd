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
    let runtime: Runtime
    let store: Store
    private let repositoryIDs: [Int64]?
    let terminal: TerminalSession
    var view: ListView
    private var decoder = InputDecoder()
    /// What the terminal shows, to write only what changes.
    var screen: Screen
    var changes = ViewChanges()
    private var dataVersion: Int64?
    /// The repository screen, while it is shown.
    var repositories: RepositoryView?
    /// Commands running in the background: a sync, the listing of your repositories, a track.
    var jobs: [(kind: Job, command: BackgroundCommand)] = []
    private var spinnerStep = 0
    var running = true
    var signals: SignalPipe?
    /// The signal that ends the view, once one came.
    var ending: Int32?
    /// Openers (`o`) that have not been waited for yet: reaped as they end, so none is left a zombie.
    var openers: [pid_t] = []

    /// How long the loop waits for anything before it looks at the database again.
    private static let idleMilliseconds: Int32 = 400
    /// How long a lone Esc waits for the rest of a sequence.
    private static let escapeMilliseconds: Int32 = 40

    init(runtime: Runtime, store: Store, repositoryIDs: [Int64]?) {
        self.runtime = runtime
        self.store = store
        self.repositoryIDs = repositoryIDs
        // A stop from outside (kill -TSTP), SIGQUIT and a crash give the terminal back at once.
        self.terminal = TerminalSession(input: STDIN_FILENO, output: STDOUT_FILENO, givesBackOnSignals: true)
        var renderer = ListRenderer(style: runtime.style, width: nil)
        renderer.today = CalendarDate.local(at: runtime.now())
        renderer.me = runtime.login(reading: false)
        let size = Self.size()
        view = ListView(store: store, repositoryIDs: repositoryIDs, renderer: renderer, width: size.columns, height: size.rows)
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
                    // Stopped from outside: by SIGTSTP, whose handler gave the terminal back, or
                    // by SIGSTOP, after which a shell may have set it back. Taken again, at the
                    // size it has now (a resize meanwhile was not ours to hear), and redrawn.
                    terminal.leave()
                    try enterTerminal()
                    resize()
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
                do {
                    for request in try view.handle(event) { perform(request) }
                } catch {
                    view.message = Self.describe(error, runtime)
                }
            }
        }
    }

    func resize() {
        let size = Self.size()
        do { try view.resize(width: size.columns, height: size.rows) } catch { view.message = Self.describe(error, runtime) }
        repositories?.resize(width: size.columns, height: size.rows)
        screen.resize(width: size.columns, height: size.rows)
    }

    func actions() throws -> TodoActions {
        try TodoActions(runtime)
    }

    private func perform(_ request: ListView.Request) {
        do {
            switch request {
            case .quit:
                running = false
            case .toggle(let id, let done):
                try show(try changes.toggle(id, done: done, actions()))
            case .add(let repositoryID, let line):
                try show(try changes.add(line, to: repositoryID, actions()))
            case .edit(let id, let line, let raw):
                guard let before = view.todo(id) else { return }
                try show(try changes.edit(id, line: line, raw: raw, before: before, actions()))
            case .remove(let id):
                try show(try changes.remove(id, actions()))
            case .undo:
                guard let done = try changes.takeBack(actions()) else {
                    view.message = "Nothing to take back"
                    return
                }
                try show(done)
            case .editNote(let id):
                try editNote(id)
            case .promote(let id):
                guard !isRunning(.promote(id)) else { return }
                try start(.promote(id), ["todo", "promote", String(id), "--json"])
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
            // What was typed for a change that failed comes back, to be put right.
            switch request {
            case .add, .edit: view.reopenPrompt()
            default: break
            }
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
    func show(_ done: ViewChanges.Done) throws {
        view.message = done.message
        try view.apply(changed: done.changed, removed: done.removed, cursorOn: done.todoID.map { .todo(id: $0) })
    }

    /// The list read again where the screen is (the view reads only what it shows).
    func reload() throws {
        view.renderer.today = CalendarDate.local(at: runtime.now())
        try view.reload()
        dataVersion = try? store.database.scalarInt("PRAGMA data_version")
    }

    /// Another process (a cron sync, another terminal) changed the database: show it.
    private func followOtherProcesses() {
        // A new day changes every "due in 2 days" and what is overdue.
        let dayChanged = CalendarDate.local(at: runtime.now()) != view.renderer.today
        guard let version = try? store.database.scalarInt("PRAGMA data_version"), version != dataVersion || dayChanged else { return }
        do { try reload() } catch { view.message = Self.describe(error, runtime) }
    }

}
