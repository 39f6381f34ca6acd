import DoogitMerge
import DoogitStore
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `doogit export` and `doogit import`: the whole list in doogit's file format (that of
/// todos.jsonl), todo.txt or Taskwarrior's JSON, and Taskwarrior's and todo.txt's files brought in.
enum TransferCommands {
    /// The largest file import reads.
    static let inputLimit = 64 << 20

    static let export = CommandSpec(
        name: "export", abstract: "Write everything: repositories, todos, links, settings",
        options: [
            OptionSpec("format", value: "FORMAT", help: "doogit (default: the lines of the remote's files), todotxt or taskwarrior"),
            OptionSpec("output", short: "o", value: "FILE", help: "write to FILE (mode 0600) instead of standard output"),
        ],
        discussion: """
            Writes to standard output, or to FILE with -o. The doogit format has a header line, then one \
            JSON object per line for each repository (with its settings) and todo (with its issue; \
            removed ones included, restorable), with every field's stamp, this machine's local IDs and \
            what it knows of each repository from GitHub: 'doogit import' of it into an empty database \
            gives the same list, IDs, links and settings included. todotxt writes the todos not removed, one a \
            line: 'x DATE' for done ones, (A), (B) or (C) for priority H, M or L (pri:A when done), \
            due:YYYY-MM-DD, @tag, '+OWNER/NAME' for the repository and uuid:UUID; todo.txt has no place \
            for the note, and reads a word '@word' of a text as a tag. taskwarrior writes what 'task \
            import' reads: the todos not removed, the project OWNER/NAME, the due date as its local \
            midnight, each line of the note as an annotation. Imported back, either gives the same todos \
            (todotxt: but for those), and where it came from adds nothing. Neither carries a control \
            character: the programs that read them show text as it is, so text from GitHub or another \
            machine is written without them (the doogit format keeps text as it was received).
            """,
        examples: ["doogit export > todos.jsonl", "doogit export --format todotxt -o todo.txt",
                   "doogit export --format taskwarrior | task import"],
        run: runExport)

    static let importCommand = CommandSpec(
        name: "import", abstract: "Add todos from a doogit, Taskwarrior or todo.txt file",
        arguments: ArgumentSpec(display: "FILE|-", minimum: 1, maximum: 1),
        options: [
            OptionSpec("from", value: "FORMAT", help: "doogit, taskwarrior or todotxt (default: told from the content)"),
            OptionSpec("repo", short: "R", value: "REPO", help: "the repository for todos whose project names no tracked one"),
        ],
        discussion: """
            FILE - reads standard input; a byte-order mark at its start is not part of its first line \
            (UTF-16 with one is read as such). All or nothing: a bad file is refused naming its first bad \
            line, and nothing is imported. Todos are recognised by UUID, so importing a file twice adds \
            nothing the second time; a doogit file is merged field by field, as sync does, links to \
            issues and repository settings included. Taskwarrior: \
            the output of 'task export'; 'project' names a tracked repository (NAME or OWNER/NAME), \
            completed tasks are done, deleted ones are skipped, UUIDs are kept, and so are priority, \
            tags, due (the local date of its moment) and annotations (the note, one a line). A task \
            that is a todo here already brings each field that differs (status, description, \
            priority, tags, due, note) when it was modified no earlier than that field last changed \
            here, to the second; a field changed here later stays. todo.txt: \
            'x ' marks a done todo, the creation date is kept, the last +project that names a tracked \
            repository (else the first) names it, issue:OWNER/NAME#N of that repository links its \
            issue, (A), (B) and (C) are priority H, M and L (later letters L, with a warning), and so \
            is pri:A on a line without (A); due:YYYY-MM-DD is the due date, @context a tag and \
            uuid:UUID the todo's UUID; other dates and key:value words stay in the text. A line whose \
            uuid: is a todo here updates each field it says otherwise than 'export --format todotxt' \
            would now (done, text, priority, due date, @context tags), as a change made now: todo.txt \
            keeps no time of a change, so the file is the newer; a done line without a priority keeps \
            the todo's (todo.sh's 'do' drops it), and the repository and note stay. A line without \
            uuid: that has the repository, text and creation date of a todo here is that todo, and \
            skipped (a note names such lines). \
            A project that names no tracked repository, or several, is an error naming it, unless \
            --repo takes every such todo. Prints how many todos were added, updated and already here.
            """,
        examples: ["doogit import todos.jsonl", "task export | doogit import -", "doogit import todo.txt --repo octocat/notes"],
        run: runImport)

    // MARK: Export

    static func runExport(_ invocation: Invocation, _ runtime: Runtime) throws {
        let format = invocation.value("format") ?? "doogit"
        guard let known = ImportFormat(rawValue: format) else {
            throw UsageError(message: "unknown format '\(TerminalText.sanitize(format))'; use doogit, todotxt or taskwarrior",
                             topic: invocation.path)
        }
        let store = try runtime.readingStore()
        let bytes: [UInt8]
        var warning: String?
        switch known {
        case .doogit:
            let local = try store.replica.read()
            bytes = TodoFile.encode(local.replica, annotations: local.annotations)
        case .todotxt, .taskwarrior:
            let sections = try store.sections()
            bytes = Array((known == .todotxt ? TodoTxtExport.write(sections) : TaskwarriorExport.write(sections)).utf8)
            warning = ExportedDueDate.warning(sections, format: known)
        }
        if let output = invocation.value("output") {
            let path = absolute(output, runtime)
            if let reason = Files.writeAtomically(String(decoding: bytes, as: UTF8.self), to: path, mode: 0o600) {
                throw CommandFailure(message: "cannot write \(TerminalText.sanitize(output)): \(reason)",
                                     hint: "check the folder and its permissions, or write to standard output")
            }
        } else {
            runtime.console.output.write(bytes: bytes)
        }
        if let warning { runtime.note(warning) }
    }

    // MARK: Import

    static func runImport(_ invocation: Invocation, _ runtime: Runtime) throws {
        let argument = invocation.positionals[0]
        var format: ImportFormat?
        if let named = invocation.value("from") {
            guard let known = ImportFormat(rawValue: named) else {
                throw UsageError(message: "unknown format '\(TerminalText.sanitize(named))'; use doogit, taskwarrior or todotxt",
                                 topic: invocation.path)
            }
            format = known
        }
        let bytes = try readInput(argument, runtime)
        let name = argument == "-" ? "standard input" : TerminalText.sanitize(argument)
        let store = try runtime.store()
        let now = runtime.now()
        let (added, updated, unchanged): (Int, Int, Int)
        switch format ?? ImportFormat.detect(bytes) {
        case .doogit:
            guard invocation.value("repo") == nil else {
                throw UsageError(message: "--repo is for Taskwarrior and todo.txt files; a doogit file names its repositories",
                                 topic: invocation.path)
            }
            let file: TodoFile.Contents
            do { file = try TodoFile.decode(bytes) } catch {
                throw CommandFailure(message: ErrorReporter.describe(error, in: name) + "; nothing was imported", hint: nil)
            }
            let applied = try store.transaction {
                let local = try store.replica.read()
                let changes = ReplicaChanges(from: local.replica, to: merge(local.replica, file.replica),
                                             annotations: file.annotations)
                return try store.replica.apply(changes, at: now, asLocalChange: true)
            }
            // Removed todos come along (restorable) without being counted as imported.
            (added, updated) = (applied.inserted, applied.updated)
            unchanged = file.replica.todos.count - added - updated - applied.removed
        case let foreign:
            let todos: [ForeignTodo]
            do {
                todos = foreign == .taskwarrior ? try TaskwarriorImport.read(bytes)
                    : try TodoTxtImport.read(bytes) { project in (try? ForeignImport.lookUp(project, store).get()) != nil }
            } catch {
                throw CommandFailure(message: "\(name), \(error.place): \(error.reason); nothing was imported", hint: nil)
            }
            let plan = try ForeignImport(todos, from: foreign, name: name, invocation, runtime, at: now)
            (added, updated) = try store.transaction {
                (try store.addTodos(plan.added, at: now), try store.updateTodos(plan.updates, at: now))
            }
            unchanged = todos.count - added - updated
            let new = Set(plan.added.map(\.uuid))
            if let warning = TodoTxtImport.warning(todos.filter { new.contains($0.uuid) }, in: name) { runtime.note(warning) }
            if let note = ForeignImport.recognisedNote(plan.recognised, in: name) { runtime.note(note) }
        }
        if runtime.global.json {
            runtime.printJSON(.object([JSONMember("added", .int(added)), JSONMember("updated", .int(updated)),
                                       JSONMember("unchanged", .int(unchanged))]))
            return
        }
        runtime.say("Imported \(added) todo\(added == 1 ? "" : "s") from \(name)"
                    + (updated > 0 ? ", updated \(updated)" : "") + (unchanged > 0 ? " (\(unchanged) already here)" : ""))
    }

    // MARK: Files

    static func absolute(_ path: String, _ runtime: Runtime) -> String {
        path.hasPrefix("/") ? path : runtime.context.currentDirectory + "/" + path
    }

    /// The bytes of FILE, or of standard input for `-`, at most `limit` of them, without a
    /// byte-order mark (UTF-16 read as such): an editor's mark is not part of the first line.
    /// They are UTF-8 text without NUL, or the command fails naming the line that is not
    /// (`InputText`). `instead` is the advice when standard input cannot be used.
    static func readInput(_ argument: String, _ runtime: Runtime, limit: Int = inputLimit,
                          instead: String = "import a file instead") throws -> [UInt8] {
        let tooLarge = limit >= 1 << 20 ? "larger than \(limit >> 20) MB" : "larger than \(limit >> 10) KB"
        if argument == "-" {
            guard let bytes = runtime.context.readStandardInputBytes(limit) else {
                throw CommandFailure(message: "standard input is \(tooLarge) or cannot be read", hint: instead)
            }
            return try InputText.fileBytes(bytes, of: argument)
        }
        let descriptor = open(absolute(argument, runtime), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot read \(TerminalText.sanitize(argument)): \(Files.reason())", hint: "check the path")
        }
        defer { close(descriptor) }
        guard !Files.isDirectory(absolute(argument, runtime)),
              let bytes = Files.readAll(descriptor: descriptor, limit: limit + 1), bytes.count <= limit else {
            throw CommandFailure(message: "cannot read \(TerminalText.sanitize(argument)): it is a folder, \(tooLarge), or unreadable",
                                 hint: "check the path")
        }
        return try InputText.fileBytes(bytes, of: argument)
    }

    /// What `readInput` reads, as text.
    static func readText(_ argument: String, _ runtime: Runtime, limit: Int, instead: String) throws -> String {
        String(decoding: try readInput(argument, runtime, limit: limit, instead: instead), as: UTF8.self)
    }
}
