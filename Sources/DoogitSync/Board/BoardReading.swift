import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a person changed on a board's body, as changes to the todos here, each the user's
/// intent stamped with the board's edit time (GitHub's `updated_at` of the body read), the same
/// on every machine that reads that body: a tick is done, an untick open again, an edited line
/// the text and details it says, a line deleted a removal (restorable), a line added under a
/// repository's heading a todo added there (its UUID made from the body's edit and the line,
/// so that every machine that reads it makes the same one). A line that cannot be read stays
/// as written, and is reported.
struct BoardReading {
    /// What a read brought.
    struct Report: Equatable {
        var finished = 0, reopened = 0, edited = 0, added = 0, removed = 0
        /// The texts of the todos removed by deleting their lines (restorable).
        var removedTexts: [String] = []
        /// Lines that stay as written: they cannot be read, or name no todo here.
        var unplaced: [String] = []

        var changed: Int { finished + reopened + edited + added + removed }
    }

    /// The todos here that the body's lines may name.
    struct Todos {
        /// The todo (live or removed) whose UUID starts with these 8 digits, of this repository
        /// when several do; nil when none, or several.
        var byPrefix: (_ prefix: String, _ repository: Int64?) -> TodoEntry?
        var byUUID: (String) -> TodoEntry?
        /// A live todo of the repository with this text that no line of the board shows.
        var unshown: (_ repository: Int64, _ text: String) -> TodoEntry?
    }

    let remoteID: Int64
    let today: CalendarDate
    let repositories: [String: Int64]
    let todos: Todos

    /// The changes the body of board issue `issue`, edited at `updatedAt`, brings; and the lines
    /// of todos whose edit cannot be read, to write back as they are (by the todo's digits).
    func read(_ document: BoardDocument, issue: Int64, updatedAt: Timestamp)
        -> (changes: [TodoChange], report: Report, verbatim: [String: String]) {
        let stamp = HybridTimestamp.event(at: updatedAt)
        var report = Report()
        var verbatim: [String: String] = [:]
        var changed: [String: TodoChange] = [:]
        var order: [String] = []
        func update(_ entry: TodoEntry, held: TodoEntry?, _ change: (inout TodoEntry) -> Void) {
            var next = changed[entry.uuid]?.entry ?? entry
            change(&next)
            if changed[entry.uuid] == nil { order.append(entry.uuid) }
            changed[entry.uuid] = TodoChange(entry: next, held: changed[entry.uuid]?.held ?? held)
        }

        for line in document.lines {
            guard let todo = todos.byPrefix(line.prefix, line.section.flatMap { repositories[$0] }), !todo.isRemoved else {
                if todos.byPrefix(line.prefix, nil) == nil { report.unplaced.append(line.raw) }
                continue
            }
            if line.done != line.writtenDone && line.done != todo.done.value.done {
                update(todo, held: todo) { $0.done = $0.done.merged(with: Register(DoneState(doneAt: line.done ? updatedAt : nil), at: stamp)) }
                if line.done { report.finished += 1 } else { report.reopened += 1 }
            }
            guard BoardMarkdown.fingerprint(line.content) != line.writtenFingerprint else { continue }
            do {
                let fields = try BoardLine.fields(of: line.content, today: today)
                update(todo, held: todo) { Self.set(fields, on: &$0, at: stamp) }
                report.edited += 1
            } catch {
                verbatim[line.prefix] = line.raw
                report.unplaced.append(line.raw)
            }
        }

        let present = Set(document.lines.map(\.prefix))
        for prefix in document.listed where !present.contains(prefix) {
            guard let todo = todos.byPrefix(prefix, nil), !todo.isRemoved else { continue }
            update(todo, held: todo) { $0.removed = $0.removed.merged(with: Register(true, at: stamp)) }
            report.removed += 1
            report.removedTexts.append(todo.text.value)
        }

        var occurrences: [String: Int] = [:]
        for line in document.added {
            guard let repository = repositories[line.section], let fields = try? BoardLine.fields(of: line.content, today: today) else {
                report.unplaced.append(line.raw)
                continue
            }
            let key = line.section + " " + line.content
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            // Already a todo here that the board does not show yet (added elsewhere, or from this
            // line by another machine whose write of the board did not land): that todo.
            if let existing = todos.unshown(repository, fields.text) {
                if line.done != existing.done.value.done {
                    update(existing, held: existing) {
                        $0.done = $0.done.merged(with: Register(DoneState(doneAt: line.done ? updatedAt : nil), at: stamp))
                    }
                }
                continue
            }
            let uuid = UUIDv4.named("doogit board \(remoteID)#\(issue) \(updatedAt.rfc3339) \(key) \(occurrence)")
            guard todos.byUUID(uuid) == nil, changed[uuid] == nil else { continue }
            var entry = TodoEntry(uuid: uuid, repository: repository, text: fields.text, doneAt: line.done ? updatedAt : nil,
                                  createdAt: updatedAt, stamp: stamp)
            Self.set(fields, on: &entry, at: stamp)
            order.append(uuid)
            changed[uuid] = TodoChange(entry: entry, held: nil)
            report.added += 1
        }
        return (order.compactMap { changed[$0] }, report, verbatim)
    }

    /// A line's fields on a todo, each at the board's stamp unless changed here later.
    static func set(_ fields: BoardFields, on entry: inout TodoEntry, at stamp: HybridTimestamp) {
        entry.text = entry.text.merged(with: Register(fields.text, at: stamp))
        entry.details.due = entry.details.due.merged(with: Register(fields.due, at: stamp))
        entry.details.priority = entry.details.priority.merged(with: Register(fields.priority, at: stamp))
        let wanted = Set(fields.tags.map(TagSet.key))
        var said = TagSet()
        said.add(fields.tags, at: stamp)
        said.remove(entry.details.tags.tags.filter { !wanted.contains(TagSet.key($0)) }, at: stamp)
        entry.details.tags = entry.details.tags.merged(with: said)
    }
}
