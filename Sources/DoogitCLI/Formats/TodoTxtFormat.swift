import DoogitMerge
import DoogitStore
import DoogitSupport

/// todo.txt: one todo a line. A line starting `x ` is done (a completion date right after it
/// is when); `(A)` first (or after the completion date) is the priority, `(A)` H, `(B)` M, `(C)`
/// L and later letters L too; a creation date (first, or after the priority) is when it was
/// made. A line without `(A)` may say its priority as `pri:A`, as todo.txt keeps it on
/// completion. The repository is the last `+project` that names a tracked one
/// (`namesRepository`), else the first; `issue:OWNER/NAME#N` links it to an issue of that
/// repository; `due:YYYY-MM-DD` is the due date and each `@context` a tag; `uuid:UUID` (as
/// doogit's export writes it) is the todo's UUID. Those words leave the text; other dates and
/// `key:value` words stay. A line without a UUID gets one made from the line, so importing the
/// same file twice adds nothing the second time, and is also recognised by its repository, text
/// and creation date (`madeUUID`).
enum TodoTxtImport {
    static func read(_ bytes: [UInt8], namesRepository: (String) -> Bool = { _ in false }) throws(ImportFormatError)
        -> [ForeignTodo] {
        var todos: [ForeignTodo] = []
        var seen: [String: Int] = [:]
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let place = "line \(index + 1)"
            guard let (read, key) = try self.line(try lineText(line, place: place), place: place, namesRepository: namesRepository)
            else { continue }
            var todo = read
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            if todo.madeUUID { todo.uuid = nameBasedUUID("todo.txt\u{0}\(key)\u{0}\(occurrence)") }
            todos.append(todo)
        }
        return todos
    }

    /// The todo of one line (nil for a blank one), and the name a UUID is made from when the line
    /// gives none (as earlier versions made it: a file imported then is here already).
    static func line(_ line: String, place: String, namesRepository: (String) -> Bool) throws(ImportFormatError)
        -> (todo: ForeignTodo, key: String)? {
        var rest = Substring(line.trimmingSpaces)
        guard !rest.isEmpty else { return nil }
        var doneAt: Timestamp?
        let done = rest.hasPrefix("x ")
        if done {
            rest = rest.dropFirst(2).drop(while: { $0 == " " })
            if let date = date(rest.prefix(while: { $0 != " " })) {
                doneAt = date
                rest = rest.drop(while: { $0 != " " }).drop(while: { $0 == " " })
            }
        }
        let key = String(rest)
        var words = rest.split(separator: " ", omittingEmptySubsequences: true)
        var letter = words.first.flatMap(priorityLetter)
        if letter != nil {
            words.removeFirst()
            // `x (A) DONE CREATED`, as todo.txt's quick reference draws a done task.
            if done, doneAt == nil, let first = words.first, let date = date(first) {
                doneAt = date
                words.removeFirst()
            }
        }
        var createdAt: Timestamp?
        if let first = words.first, let date = date(first) {
            createdAt = date
            words.removeFirst()
        }
        let projects = words.indices.filter { words[$0].hasPrefix("+") && words[$0].count > 1 }
        var project: String?
        if let projectIndex = projects.last(where: { namesRepository(String(words[$0].dropFirst())) }) ?? projects.first {
            project = String(words[projectIndex].dropFirst())
            words.remove(at: projectIndex)
        }
        var details = DetailsEdit()
        // The last of each: the export writes them after the text, which may hold such a word too.
        // `pri:A` as todo.txt keeps a done line's; where `x ` was taken off by hand it stays so.
        if letter == nil, let index = words.lastIndex(where: { keptPriority($0) != nil }) {
            letter = keptPriority(words[index])
            words.remove(at: index)
        }
        if let index = words.lastIndex(where: { due($0) != nil }) {
            details.due = .some(due(words[index]))
            words.remove(at: index)
        }
        details.addTags = words.compactMap(context)
        words.removeAll { context($0) != nil }
        var given: String?
        if let index = words.lastIndex(where: { uuid($0) != nil }) {
            given = uuid(words[index])
            words.remove(at: index)
        }
        var issue: (repository: String, number: Int64, word: String)?
        if project != nil, let linkIndex = words.lastIndex(where: { link($0) != nil }), let found = link(words[linkIndex]) {
            _ = try cleanText(words.joined(separator: " "), place: place)  // fits with the word put back
            issue = (found.repository, found.number, TerminalText.sanitize(String(words[linkIndex])))
            words.remove(at: linkIndex)
        }
        let text = try cleanText(words.joined(separator: " "), place: place)
        var otherPriority: Character?
        if let letter {
            details.priority = .some(priority(letter))
            if !"ABC".contains(letter) { otherPriority = letter }
        }
        let todo = ForeignTodo(uuid: given ?? "", text: text, doneAt: doneAt, done: done, createdAt: createdAt, project: project,
                               place: place, issue: issue, details: details, otherPriority: otherPriority, madeUUID: given == nil)
        return (todo, key)
    }

    /// `(A)` is high, `(B)` medium, `(C)` and every later letter low (doogit has three).
    static func priority(_ letter: Character) -> Priority {
        switch letter {
        case "A": return .high
        case "B": return .medium
        default: return .low
        }
    }

    /// The warning for todos of the file `name` whose priority was a letter past `(C)`, naming
    /// each letter and its lines (the first few); nil when there are none.
    static func warning(_ todos: [ForeignTodo], in name: String) -> String? {
        var letters: [Character] = []
        var places: [Character: [String]] = [:]
        for todo in todos {
            guard let letter = todo.otherPriority else { continue }
            if places[letter] == nil { letters.append(letter) }
            places[letter, default: []].append(todo.place)
        }
        guard !letters.isEmpty else { return nil }
        let named = letters.map { letter in
            let lines = places[letter] ?? []
            return "(\(letter)) on \(lines.prefix(3).joined(separator: ", "))" + (lines.count > 3 ? " and \(lines.count - 3) more" : "")
        }
        return "warning: \(name): priorities past (C) imported as L, the lowest doogit has: " + named.joined(separator: "; ")
    }

    /// The letter of `(A)` to `(Z)`.
    private static func priorityLetter(_ word: Substring) -> Character? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count == 3, scalars[0] == "(", scalars[2] == ")", ("A"..."Z").contains(scalars[1]) else { return nil }
        return Character(scalars[1])
    }

    /// The letter of `pri:A` to `pri:Z`.
    private static func keptPriority(_ word: Substring) -> Character? {
        guard word.hasPrefix("pri:") else { return nil }
        return priorityLetter(Substring("(\(word.dropFirst(4)))"))
    }

    /// The date of `due:YYYY-MM-DD` (years 1970 to 9999: another stays in the text).
    private static func due(_ word: Substring) -> CalendarDate? {
        guard word.hasPrefix("due:"), let date = CalendarDate(text: String(word.dropFirst(4))) else { return nil }
        return date.isDueDate ? date : nil
    }

    /// The UUID of `uuid:UUID`, lowercased.
    private static func uuid(_ word: Substring) -> String? {
        guard word.hasPrefix("uuid:") else { return nil }
        let uuid = word.dropFirst(5).lowercased()
        return UUIDv4.isValid(uuid) ? uuid : nil
    }

    /// The tag of `@context`, when it can be one.
    private static func context(_ word: Substring) -> String? {
        guard word.hasPrefix("@") else { return nil }
        let tag = String(word.dropFirst())
        return TagSet.isValid(tag) ? tag : nil
    }

    /// `issue:OWNER/NAME#N`: its OWNER/NAME and number.
    private static func link(_ word: Substring) -> (repository: String, number: Int64)? {
        guard word.hasPrefix("issue:"), let hash = word.lastIndex(of: "#"),
              let number = Int64(word[word.index(after: hash)...]), number > 0 else { return nil }
        let repository = String(word[word.index(word.startIndex, offsetBy: 6)..<hash])
        guard repository.contains("/") else { return nil }
        return (repository, number)
    }

    private static func date(_ word: Substring) -> Timestamp? {
        guard word.utf8.count == 10 else { return nil }
        return Timestamp(rfc3339: word + "T00:00:00Z")
    }

    /// A UUID made from a name: the same name, the same UUID (version 8, two 64-bit FNV-1a hashes).
    static func nameBasedUUID(_ name: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in name.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 0x9E37_79B9
        }
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: first >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: second >> (56 - 8 * $0)) }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUIDv4.text(bytes)
    }
}

/// todo.txt as `export --format todotxt` writes it: one line per todo not removed, in list
/// order: `x DONE-DATE` for a done one, `(A)`, `(B)` or `(C)` for an open one's priority H, M or
/// L, its creation date (so that a text starting with `x `, a priority or a date reads back as
/// text), the text without control characters (todo.txt shows a line as it is), its issue as
/// `issue:OWNER/NAME#N`, its due date as `due:YYYY-MM-DD`, each tag as `@tag`, a done one's
/// priority as `pri:A` (todo.txt's way to keep it on completion), its repository as
/// `+OWNER/NAME`, and its UUID as `uuid:UUID`, so that the file imported back where it came
/// from adds nothing. The note has no place in todo.txt and is left out. Importing it gives the
/// same todos, unless a word of a text reads as one of those fields (an `@word`, or `due:DATE`
/// in the text of a todo without a due date).
enum TodoTxtExport {
    static func write(_ sections: [TodoSection]) -> String {
        var out = ""
        for section in sections {
            for todo in section.todos { out += line(todo, repository: section.repository.fullName) + "\n" }
        }
        return out
    }

    /// The line of one todo of the repository named `repository`.
    static func line(_ todo: TodoRecord, repository fullName: String) -> String {
        var out = ""
        let letter = todo.priority.map(letter)
        if let doneAt = todo.doneAt {
            out += "x " + String(doneAt.rfc3339.prefix(10)) + " "
        } else if let letter {
            out += "(\(letter)) "
        }
        out += String(todo.createdAt.rfc3339.prefix(10)) + " "
        out += text(todo.text)
        let repository = words(fullName)
        if let issue = todo.issue { out += " issue:\(repository)#\(issue.number)" }
        if let due = ExportedDueDate.todoTxt(todo.due) { out += " due:" + due }
        for tag in Set(todo.tags.map(words)).sorted() where !tag.isEmpty { out += " @" + tag }
        if todo.doneAt != nil, let letter { out += " pri:\(letter)" }
        return out + " +" + repository + " uuid:" + todo.uuid
    }

    static func letter(_ priority: Priority) -> Character {
        switch priority {
        case .high: return "A"
        case .medium: return "B"
        case .low: return "C"
        }
    }

    /// Text on one line: no control characters, single spaces.
    static func words(_ text: String) -> String {
        TerminalText.sanitize(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A todo's text as its line says it: never empty, which the import refuses.
    static func text(_ text: String) -> String {
        let line = words(text)
        return line.isEmpty ? "(no text)" : line
    }
}
