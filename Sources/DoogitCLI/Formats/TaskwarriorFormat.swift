import DoogitMerge
import DoogitStore
import DoogitSupport

/// Taskwarrior's `task export`: a JSON array of tasks, one per line (or one task object per
/// line, as older versions write). `description` is the text, `status` completed is done and
/// deleted is skipped (as are recurring templates), `entry` and `end` are the times, `project`
/// names the repository, and the task's UUID is kept; `priority`, `tags`, `due` and the
/// annotations (the note) are the details, and `modified` says when the task last changed (for
/// a todo that is here already: `TaskwarriorUpdate`).
enum TaskwarriorImport {
    static func read(_ bytes: [UInt8]) throws(ImportFormatError) -> [ForeignTodo] {
        var tasks: [(JSONValue, String)] = []
        var lineNumber = 0
        var firstBadLine: Int?
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var text = try lineText(line, place: "line \(lineNumber)").trimmingSpaces
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
            if let todo = try TaskFields(task: task, place: place).todo() { todos.append(todo) }
        }
        return todos
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

    /// A moment as Taskwarrior writes it: `20231114T221320Z` (UTC, whole seconds).
    static func text(_ time: Timestamp) -> String {
        String(time.rfc3339.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }
}

/// The fields of one task, each refused with the task's place when it is not what Taskwarrior
/// writes.
private struct TaskFields {
    let task: JSONValue
    let place: String

    func failure(_ reason: String) -> ImportFormatError { ImportFormatError(place: place, reason: reason) }

    func text(_ name: String) throws(ImportFormatError) -> String? {
        do { return try task.optionalString(name) } catch { throw failure("\"\(name)\" is not text") }
    }

    func time(_ name: String) throws(ImportFormatError) -> Timestamp? {
        guard let text = try text(name) else { return nil }
        guard let time = TaskwarriorImport.date(text) else {
            throw failure("\"\(name)\" is not a date: \(TerminalText.sanitize(text))")
        }
        return time
    }

    /// A list; absent or null is none.
    func list(_ name: String) throws(ImportFormatError) -> [JSONValue] {
        switch task[name] {
        case nil, .null?: return []
        case .array(let values)?: return values
        default: throw failure("\"\(name)\" is not a list")
        }
    }

    /// The todo, or nil for a task that is skipped (deleted, or a recurring template).
    func todo() throws(ImportFormatError) -> ForeignTodo? {
        let status = try text("status") ?? "pending"
        guard ["pending", "completed", "waiting", "deleted", "recurring"].contains(status) else {
            throw failure("unknown status \"\(TerminalText.sanitize(status))\"")
        }
        if status == "deleted" || status == "recurring" { return nil }
        guard let uuid = try text("uuid")?.lowercased(), UUIDv4.isValid(uuid) else { throw failure("no valid \"uuid\"") }
        guard let description = try text("description") else { throw failure("no \"description\"") }
        let done = status == "completed"
        return ForeignTodo(uuid: uuid, text: try cleanText(description, place: place), doneAt: done ? try time("end") : nil,
                           done: done, createdAt: try time("entry"), project: try text("project"), place: place,
                           details: try details(), modified: try time("modified"))
    }

    /// `priority`, `tags`, `due` and the annotations' descriptions, one a line, as the note.
    func details() throws(ImportFormatError) -> DetailsEdit {
        var edit = DetailsEdit()
        if let text = try text("priority") {
            guard let priority = Priority(text: text) else {
                throw failure("\"priority\" is not H, M or L: \(TerminalText.sanitize(text))")
            }
            edit.priority = .some(priority)
        }
        for value in try list("tags") {
            guard case .string(let tag) = value else { throw failure("\"tags\" holds something that is not text") }
            guard TagSet.isValid(tag) else {
                throw failure("'\(TerminalText.sanitize(tag))' is not a tag: one word, without spaces or commas, at most 50 characters")
            }
            edit.addTags.append(tag)
        }
        // Taskwarrior keeps a due date as a moment (the local midnight where it was set): the
        // day is the local calendar's at that moment, as `task` shows it.
        if let moment = try time("due") {
            guard let day = CalendarDate.local(at: moment), day.isDueDate else {
                throw failure("\"due\" is not a date of the years 1970 to 9999")
            }
            edit.due = .some(day)
        }
        var lines: [String] = []
        for annotation in try list("annotations") {
            guard case .string(let description)? = annotation["description"] else {
                throw failure("an annotation has no \"description\"")
            }
            lines.append(description)
        }
        if let note = NoteInput.clean(lines.joined(separator: "\n")) {
            guard NoteInput.fits(note) else { throw failure("the annotations, the todo's note, are \(NoteInput.tooLong)") }
            edit.note = .some(note)
        }
        return edit
    }
}

/// What `task import` reads, as `task export` writes it: a JSON array, one task a line, of the
/// todos not removed, in list order. The project is the repository's OWNER/NAME (which names it
/// whatever else is tracked), the due date its local midnight as a UTC moment, the note an
/// annotation a line; a linked issue is not said. `doogit import` of it gives the same todos.
/// `task` shows what it holds as it is, so no text carries a control character (nor a line break:
/// a note's lines are annotations of their own), whatever the todo's text holds as it came from
/// GitHub or another machine.
enum TaskwarriorExport {
    static func write(_ sections: [TodoSection]) -> String {
        var tasks: [String] = []
        for section in sections {
            for todo in section.todos {
                var json = JSONStream(indented: false)
                task(todo, project: section.repository.fullName, into: &json)
                tasks.append(String(decoding: json.bytes, as: UTF8.self))
            }
        }
        return "[\n" + tasks.joined(separator: ",\n") + (tasks.isEmpty ? "" : "\n") + "]\n"
    }

    /// The description `task` shows: the text without control characters, trimmed, never empty
    /// (`task import` fails on an empty description).
    static func description(_ text: String) -> String {
        let clean = TerminalText.sanitize(text).trimmingSpaces
        return clean.isEmpty ? "(no text)" : clean
    }

    /// The annotations of a note: its lines without control characters, blank ones left out
    /// (`task import` drops an empty annotation).
    static func annotations(_ note: String?) -> [String] {
        TerminalText.lines(note ?? "").filter { !$0.trimmingSpaces.isEmpty }
    }

    /// A tag or project as `task` shows it.
    static func word(_ text: String) -> String {
        TerminalText.sanitize(text).filter { !$0.isWhitespace }
    }

    private static func task(_ todo: TodoRecord, project: String, into json: inout JSONStream) {
        let modified = TaskwarriorImport.text(todo.updatedAt)
        json.beginObject()
        json.key("uuid"); json.string(todo.uuid)
        json.key("description"); json.string(description(todo.text))
        json.key("status"); json.string(todo.done ? "completed" : "pending")
        json.key("entry"); json.string(TaskwarriorImport.text(todo.createdAt))
        if todo.done { json.key("end"); json.string(TaskwarriorImport.text(todo.doneAt ?? todo.updatedAt)) }
        json.key("modified"); json.string(modified)
        json.key("project"); json.string(word(project))
        if let start = ExportedDueDate.taskwarrior(todo.due) { json.key("due"); json.string(TaskwarriorImport.text(start)) }
        if let priority = todo.priority { json.key("priority"); json.string(priority.rawValue) }
        if !todo.tags.isEmpty {
            json.key("tags")
            json.beginArray()
            for tag in Set(todo.tags.map(word)).sorted() where !tag.isEmpty { json.string(tag) }
            json.endArray()
        }
        let lines = annotations(todo.note)
        if !lines.isEmpty {
            // Taskwarrior keeps one annotation per moment: a second each, the last at `modified`.
            let last = todo.updatedAt.millisecondsSinceEpoch / 1000
            json.key("annotations")
            json.beginArray()
            for (index, line) in lines.enumerated() {
                json.beginObject()
                let entry = Timestamp(millisecondsSinceEpoch: (last - Int64(lines.count - 1 - index)) * 1000)
                json.key("entry"); json.string(TaskwarriorImport.text(entry))
                json.key("description"); json.string(line)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }
}
