import DoogitStore
import DoogitSupport

/// `doogit todo add -R REPO -`: many todos from standard input, added all at once or not at all.
/// Each line is a todo's text as it is (its `+word`s are text: lines of code are common input),
/// and the options (`--due`, `--priority`, `--tag`, `--note`, `--note-file FILE`) apply to every
/// line, as to one todo.
extension TodoCommands {
    static func runAddFromInput(_ invocation: Invocation, _ runtime: Runtime) throws {
        let repository = try targetRepository(invocation, runtime)
        let actions = try TodoActions(runtime)
        var details = try DetailsInput.options(invocation, over: DetailsInput.Shorthand(), today: actions.today,
                                                 me: actions.login)
        if let note = try NoteInput.option(invocation, runtime) { details.note = note }
        if runtime.context.standardInputIsTerminal {
            runtime.note("reading todos from standard input, one a line; end with Ctrl-D")
        }
        // Adding is linear in the lines: as much as an import takes.
        let input = try TransferCommands.readText("-", runtime, limit: TransferCommands.inputLimit, instead: "add the todos in parts")
        let texts = try todoTexts(fromInput: input, topic: invocation.path)
        let store = try runtime.store()
        let author = actions.login()
        let added = try store.transaction {
            try texts.map { try store.addTodo(repositoryID: repository.id, text: $0, details: details, author: author, at: actions.now) }
        }
        if runtime.global.json {
            runtime.printJSONArray(added, JSONOutput.todo)
            return
        }
        let name = TerminalText.sanitize(repository.fullName)
        runtime.say(added.count == 1 ? "Added \(added[0].id) to \(name)"
                                     : "Added \(added.count) todos to \(name): \(IDList.compact(added.map(\.id)))")
    }

    /// The todos of the input, one per line that is not blank; each checked as a todo given on the
    /// command line is, and a bad one named by its line number.
    static func todoTexts(fromInput input: String, topic: [String]) throws(UsageError) -> [String] {
        var texts: [String] = []
        // Lines end in \n or \r\n (one Character, so split by what is a newline, not by "\n").
        for (index, line) in input.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        where !line.trimmingSpaces.isEmpty {
            do {
                texts.append(try InputValidation.todoText([String(line)], topic: topic))
            } catch {
                throw UsageError(message: "line \(index + 1) of standard input: \(error.message)", topic: topic)
            }
        }
        guard !texts.isEmpty else {
            throw UsageError(message: "no todos on standard input (every line is blank); give one todo a line", topic: topic)
        }
        return texts
    }
}
