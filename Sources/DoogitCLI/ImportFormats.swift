import DoogitMerge
import DoogitStore
import DoogitSupport

/// A todo read from another program's file, before it is given a repository.
struct ForeignTodo {
    var uuid: String
    var text: String
    var doneAt: Timestamp?
    var done: Bool
    var createdAt: Timestamp?
    /// The project (Taskwarrior) or `+project` (todo.txt) that names its repository.
    var project: String?
    /// Where it is in the file, for messages: `line 3`.
    var place: String
    /// The issue it is linked to (todo.txt's `issue:OWNER/NAME#N`, taken out of the text), as
    /// OWNER/NAME and number, and the word as written (back into the text where it is not a link
    /// of the todo's repository).
    var issue: (repository: String, number: Int64, word: String)? = nil
}

/// A file that is not what its format allows: where, and why.
struct ImportFormatError: Error, Equatable {
    var place: String
    var reason: String
}

/// The formats `doogit import` reads.
enum ImportFormat: String, CaseIterable {
    case doogit, taskwarrior, todotxt

    /// doogit's own file by its header; Taskwarrior's `task export` by its JSON; anything else
    /// is read as todo.txt.
    static func detect(_ bytes: [UInt8]) -> ImportFormat {
        if TodoFile.looksLikeDoogit(bytes) { return .doogit }
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .taskwarrior : .todotxt
    }
}

/// A todo's text as `todo add` keeps it: control characters removed, trimmed, not empty, at
/// most 10,000 characters.
private func cleanText(_ raw: String, place: String) throws(ImportFormatError) -> String {
    let text = TerminalText.sanitize(raw).trimmingSpaces
    guard !text.isEmpty else { throw ImportFormatError(place: place, reason: "the todo text is empty") }
    guard text.count <= InputValidation.maximumTextLength else {
        throw ImportFormatError(place: place, reason: "the todo text is longer than \(InputValidation.maximumTextLength) characters")
    }
    return text
}

/// Taskwarrior's `task export`: a JSON array of tasks, one per line (or one task object per
/// line, as older versions write). `description` is the text, `status` completed is done and
/// deleted is skipped (as are recurring templates), `entry` and `end` are the times, `project`
/// names the repository, and the task's UUID is kept.
enum TaskwarriorImport {
    static func read(_ bytes: [UInt8]) throws(ImportFormatError) -> [ForeignTodo] {
        var tasks: [(JSONValue, String)] = []
        var lineNumber = 0
        var firstBadLine: Int?
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var text = String(decoding: line, as: UTF8.self).trimmingSpaces
            if text.hasSuffix(",") { text.removeLast() }
            if text.isEmpty || text == "[" || text == "]" || text == "[]" { continue }
            guard let task = try? JSONParser.parse(text), case .object = task else {
                firstBadLine = firstBadLine ?? lineNumber
                continue
            }
            tasks.append((task, "line \(lineNumber)"))
        }
        if let firstBadLine {
            // Not one task a line: read the whole document as one array.
            guard case .array(let elements)? = try? JSONParser.parse(bytes) else {
                throw ImportFormatError(place: "line \(firstBadLine)", reason: "not a Taskwarrior task (a JSON object)")
            }
            tasks = elements.enumerated().map { ($0.element, "task \($0.offset + 1)") }
        }
        var todos: [ForeignTodo] = []
        for (task, place) in tasks {
            if let todo = try readTask(task, place: place) { todos.append(todo) }
        }
        return todos
    }

    private static func readTask(_ task: JSONValue, place: String) throws(ImportFormatError) -> ForeignTodo? {
        func field(_ name: String) throws(ImportFormatError) -> String? {
            do { return try task.optionalString(name) } catch {
                throw ImportFormatError(place: place, reason: "\"\(name)\" is not text")
            }
        }
        let status = try field("status") ?? "pending"
        guard ["pending", "completed", "waiting", "deleted", "recurring"].contains(status) else {
            throw ImportFormatError(place: place, reason: "unknown status \"\(status)\"")
        }
        if status == "deleted" || status == "recurring" { return nil }
        guard let uuid = try field("uuid")?.lowercased(), UUIDv4.isValid(uuid) else {
            throw ImportFormatError(place: place, reason: "no valid \"uuid\"")
        }
        guard let description = try field("description") else {
            throw ImportFormatError(place: place, reason: "no \"description\"")
        }
        func time(_ name: String) throws(ImportFormatError) -> Timestamp? {
            guard let text = try field(name) else { return nil }
            guard let time = date(text) else { throw ImportFormatError(place: place, reason: "\"\(name)\" is not a date: \(text)") }
            return time
        }
        let done = status == "completed"
        return ForeignTodo(uuid: uuid, text: try cleanText(description, place: place), doneAt: done ? try time("end") : nil,
                           done: done, createdAt: try time("entry"), project: try field("project"), place: place)
    }

    /// Taskwarrior's dates: `20231114T221320Z` (or RFC 3339).
    static func date(_ text: String) -> Timestamp? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else {
            return Timestamp(rfc3339: text)
        }
        func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        return Timestamp(rfc3339: "\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(9..<11)):\(part(11..<13)):\(part(13..<15))Z")
    }
}

/// todo.txt: one todo a line. A line starting `x ` is done (a completion date right after it
/// is when); a creation date (first, or after the completion date) is when it was made. The
/// repository is the last `+project` that names a tracked one (`namesRepository`), else the
/// first; `issue:OWNER/NAME#N` links it to an issue of that repository; priorities, contexts,
/// other dates and other `key:value` words stay in the text. A todo has no UUID in todo.txt: it
/// gets one made from its line, so importing the same file twice adds nothing the second time.
enum TodoTxtImport {
    static func read(_ bytes: [UInt8], namesRepository: (String) -> Bool = { _ in false }) throws(ImportFormatError)
        -> [ForeignTodo] {
        var todos: [ForeignTodo] = []
        var seen: [String: Int] = [:]
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let place = "line \(index + 1)"
            var rest = Substring(String(decoding: line, as: UTF8.self).trimmingSpaces)
            guard !rest.isEmpty else { continue }
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
            // A creation date: first, or after a priority.
            let dateIndex = words.first.map { isPriority($0) } == true ? 1 : 0
            var createdAt: Timestamp?
            if dateIndex < words.count, let date = date(words[dateIndex]) {
                createdAt = date
                words.remove(at: dateIndex)
            }
            let projects = words.indices.filter { words[$0].hasPrefix("+") && words[$0].count > 1 }
            var project: String?
            if let projectIndex = projects.last(where: { namesRepository(String(words[$0].dropFirst())) }) ?? projects.first {
                project = String(words[projectIndex].dropFirst())
                words.remove(at: projectIndex)
            }
            // The last one: the export writes it after the text, which may hold such a word too.
            var issue: (repository: String, number: Int64, word: String)?
            if project != nil, let linkIndex = words.lastIndex(where: { link($0) != nil }), let found = link(words[linkIndex]) {
                _ = try cleanText(words.joined(separator: " "), place: place)  // fits with the word put back
                issue = (found.repository, found.number, TerminalText.sanitize(String(words[linkIndex])))
                words.remove(at: linkIndex)
            }
            let text = try cleanText(words.joined(separator: " "), place: place)
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            todos.append(ForeignTodo(uuid: nameBasedUUID("todo.txt\u{0}\(key)\u{0}\(occurrence)"), text: text, doneAt: doneAt,
                                     done: done, createdAt: createdAt, project: project, place: place, issue: issue))
        }
        return todos
    }

    /// `issue:OWNER/NAME#N`: its OWNER/NAME and number.
    private static func link(_ word: Substring) -> (repository: String, number: Int64)? {
        guard word.hasPrefix("issue:"), let hash = word.lastIndex(of: "#"),
              let number = Int64(word[word.index(after: hash)...]), number > 0 else { return nil }
        let repository = String(word[word.index(word.startIndex, offsetBy: 6)..<hash])
        guard repository.contains("/") else { return nil }
        return (repository, number)
    }

    private static func isPriority(_ word: Substring) -> Bool {
        let scalars = Array(word.unicodeScalars)
        return scalars.count == 3 && scalars[0] == "(" && scalars[2] == ")" && ("A"..."Z").contains(scalars[1])
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
/// order: `x DONE-DATE` for a done one, its creation date (so that a text starting with `x `, a
/// priority or a date reads back as text), the text without control characters, its issue as
/// `issue:OWNER/NAME#N`, and its repository as `+OWNER/NAME`. Importing it gives the same todos.
enum TodoTxtExport {
    static func write(_ sections: [TodoSection]) -> String {
        var out = ""
        for section in sections {
            for todo in section.todos {
                if let doneAt = todo.doneAt { out += "x " + String(doneAt.rfc3339.prefix(10)) + " " }
                out += String(todo.createdAt.rfc3339.prefix(10)) + " "
                out += TerminalText.sanitize(todo.text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if let issue = todo.issue { out += " issue:\(section.repository.fullName)#\(issue.number)" }
                out += " +" + section.repository.fullName + "\n"
            }
        }
        return out
    }
}
