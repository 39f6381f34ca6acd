import DoogitSupport

/// A todo's note as `--note TEXT` and `--note-file FILE|-` give it, and as an import brings it.
enum NoteInput {
    /// The note as kept: each line without control characters (lines end at LF, CRLF or CR, and
    /// are kept as LF), without blank lines before or after; nil when nothing is left.
    static func clean(_ raw: String) -> String? {
        let lines = TerminalText.lines(raw)
        guard let first = lines.firstIndex(where: { !$0.trimmingSpaces.isEmpty }),
              let last = lines.lastIndex(where: { !$0.trimmingSpaces.isEmpty }) else { return nil }
        return lines[first...last].joined(separator: "\n")
    }

    /// Whether a note fits: a note has the text's limit.
    static func fits(_ note: String) -> Bool {
        note.count <= InputValidation.maximumTextLength
    }

    static var tooLong: String { "longer than \(InputValidation.maximumTextLength) characters" }

    /// `--note TEXT` (blank: no note) or `--note-file FILE|-` (`-`: standard input), or nil when
    /// neither is given. A file that cannot be read is a failure (exit 1); a note too long is a
    /// usage error when typed, a failure when read.
    static func option(_ invocation: Invocation, _ runtime: Runtime) throws -> String?? {
        let topic = invocation.path
        if invocation.value("note") != nil && invocation.value("note-file") != nil {
            throw UsageError(message: "--note and --note-file cannot be used together", topic: topic)
        }
        if let text = invocation.value("note") {
            let note = clean(text)
            if let note, !fits(note) { throw UsageError(message: "the note is \(tooLong)", topic: topic) }
            return .some(note)
        }
        guard let file = invocation.value("note-file") else { return nil }
        if invocation.flag("no-note") {
            throw UsageError(message: "--note-file and --no-note cannot be used together", topic: topic)
        }
        let name = file == "-" ? "standard input" : TerminalText.sanitize(file)
        let note = clean(try TransferCommands.readText(file, runtime, limit: noteFileLimit, instead: "give the note with --note TEXT"))
        if let note, !fits(note) {
            throw CommandFailure(message: "the note in \(name) is \(tooLong)", hint: "shorten it; a note has a todo text's limit")
        }
        return .some(note)
    }

    /// The most a note file may hold: far more than a note's limit, which is checked on the text.
    static let noteFileLimit = 1 << 20
}
