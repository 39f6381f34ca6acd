import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a person changed on a board's body, as changes to the todos here, each the user's
/// intent stamped with the board's edit time (GitHub's `updated_at` of the body read), the same
/// on every machine that reads that body: a tick is done, an untick open again, an edited line
/// the fields it says otherwise than doogit wrote them (the others stay as they are here), a
/// line deleted a removal (restorable), a line added under a repository's heading a todo added
/// there, its UUID made from the line and the todos the body listed when doogit last wrote it,
/// so that every machine that reads it makes the same one, whatever else changed on the board.
/// A line that cannot be read stays as written, and is reported.
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

    /// What a read gives besides the changes: lines to write back as a person left them.
    struct Kept: Equatable {
        /// A todo's line whose edit cannot be read: its content as the person left it, and
        /// doogit's note's hash of what it wrote there (so it still reads as theirs), by digits.
        var verbatim: [String: (content: String, fingerprint: String)] = [:]
        /// Added lines that cannot be read, by the heading they are under.
        var added: [String: [String]] = [:]

        static func == (lhs: Kept, rhs: Kept) -> Bool {
            lhs.added == rhs.added && lhs.verbatim.mapValues { "\($0.content)\n\($0.fingerprint)" }
                == rhs.verbatim.mapValues { "\($0.content)\n\($0.fingerprint)" }
        }
    }

    /// The todos here that the body's lines may name.
    struct Todos {
        /// The todo (live or removed) whose UUID starts with these 8 digits, of this repository
        /// when several do; nil when none, or several.
        var byPrefix: (_ prefix: String, _ repository: Int64?) -> TodoEntry?
        var byUUID: (String) -> TodoEntry?
        /// A live todo of the repository with this text that no line of the board shows.
        var unshown: (_ repository: Int64, _ text: String) -> TodoEntry?
        /// What doogit wrote on the todo's line (the content whose hash the note holds), when
        /// this machine knows it: the fields an edit is told against.
        var written: (_ prefix: String, _ fingerprint: String) -> String? = { _, _ in nil }
    }

    let remoteID: Int64
    let today: CalendarDate
    /// Tracked repositories by name in lower case.
    let repositories: [String: Int64]
    let todos: Todos

    /// The changes the body of board issue `issue`, edited at `updatedAt`, brings, and the
    /// lines to write back as they are.
    func read(_ document: BoardDocument, issue: Int64, updatedAt: Timestamp) -> (changes: [TodoChange], report: Report, kept: Kept) {
        var work = Work(stamp: HybridTimestamp.event(at: updatedAt), updatedAt: updatedAt)
        for line in document.lines { read(line, &work) }
        let present = Set(document.lines.map(\.prefix))
        for prefix in document.listed where !present.contains(prefix) {
            guard let todo = todos.byPrefix(prefix, nil), !todo.isRemoved else { continue }
            let removal = Register(true, at: work.stamp)
            work.update(todo) { $0.removed = $0.removed.merged(with: removal) }
            work.report.removed += 1
            work.report.removedTexts.append(todo.text.value)
        }
        // What the body listed when doogit wrote it: changed by doogit's writes alone.
        let base = "doogit board \(remoteID)#\(issue) " + document.listed.joined(separator: " ")
        var occurrences: [String: Int] = [:]
        for line in document.added { add(line, base: base, occurrences: &occurrences, &work) }
        return (work.order.compactMap { work.changed[$0] }, work.report, work.kept)
    }

    /// The state of a read: the changes so far, in order, and what it reports and keeps.
    private struct Work {
        let stamp: HybridTimestamp
        let updatedAt: Timestamp
        var changed: [String: TodoChange] = [:]
        var order: [String] = []
        var report = Report()
        var kept = Kept()

        mutating func update(_ entry: TodoEntry, _ change: (inout TodoEntry) -> Void) {
            var next = changed[entry.uuid]?.entry ?? entry
            change(&next)
            if changed[entry.uuid] == nil { order.append(entry.uuid) }
            changed[entry.uuid] = TodoChange(entry: next, held: changed[entry.uuid]?.held ?? entry)
        }

        func done(_ done: Bool) -> Register<DoneState> { Register(DoneState(doneAt: done ? updatedAt : nil), at: stamp) }
    }

    private func read(_ line: BoardDocument.Line, _ work: inout Work) {
        guard let todo = todos.byPrefix(line.prefix, line.section.flatMap { repositories[$0] }), !todo.isRemoved else {
            if todos.byPrefix(line.prefix, nil) == nil { work.report.unplaced.append(line.raw) }
            return
        }
        if line.done != line.writtenDone && line.done != todo.done.value.done {
            work.update(todo) { [register = work.done(line.done)] in $0.done = $0.done.merged(with: register) }
            if line.done { work.report.finished += 1 } else { work.report.reopened += 1 }
        }
        guard BoardMarkdown.fingerprint(line.content) != line.writtenFingerprint else { return }
        guard let fields = try? BoardLine.fields(of: line.content, today: today) else {
            work.kept.verbatim[line.prefix] = (line.content, line.writtenFingerprint)
            work.report.unplaced.append(line.raw)
            return
        }
        // Told against what doogit wrote there (else what the todo says here): only the fields
        // the person changed are theirs.
        let before = todos.written(line.prefix, line.writtenFingerprint).flatMap { try? BoardLine.fields(of: $0, today: today) }
            ?? BoardFields(text: todo.text.value, due: todo.details.due.value, priority: todo.details.priority.value,
                           tags: todo.details.tags.tags)
        guard fields != before else { return }
        work.update(todo) { [stamp = work.stamp] in Self.set(fields, over: before, on: &$0, at: stamp) }
        work.report.edited += 1
    }

    private func add(_ line: BoardDocument.NewLine, base: String, occurrences: inout [String: Int], _ work: inout Work) {
        guard let repository = repositories[line.section], let fields = try? BoardLine.fields(of: line.content, today: today) else {
            work.kept.added[line.section, default: []].append(line.raw)
            work.report.unplaced.append(line.raw)
            return
        }
        let key = line.section + " " + line.content
        let occurrence = occurrences[key, default: 0]
        occurrences[key] = occurrence + 1
        // Already a todo here that the board does not show yet (added elsewhere, or from this
        // line by another machine whose write of the board did not land): that todo.
        if let existing = todos.unshown(repository, fields.text) {
            if line.done != existing.done.value.done {
                work.update(existing) { [register = work.done(line.done)] in $0.done = $0.done.merged(with: register) }
            }
            return
        }
        let uuid = UUIDv4.named("\(base) | \(key) | \(occurrence)")
        guard todos.byUUID(uuid) == nil, work.changed[uuid] == nil else { return }
        var entry = TodoEntry(uuid: uuid, repository: repository, text: fields.text, doneAt: line.done ? work.updatedAt : nil,
                              createdAt: work.updatedAt, stamp: work.stamp)
        Self.set(fields, over: BoardFields(text: fields.text, due: nil, priority: nil, tags: []), on: &entry, at: work.stamp)
        work.order.append(uuid)
        work.changed[uuid] = TodoChange(entry: entry, held: nil)
        work.report.added += 1
    }

    /// The fields a line says otherwise than `before`, on a todo, each at the board's stamp
    /// unless changed here later; tags one by one.
    static func set(_ fields: BoardFields, over before: BoardFields, on entry: inout TodoEntry, at stamp: HybridTimestamp) {
        if fields.text != before.text { entry.text = entry.text.merged(with: Register(fields.text, at: stamp)) }
        if fields.due != before.due { entry.details.due = entry.details.due.merged(with: Register(fields.due, at: stamp)) }
        if fields.priority != before.priority {
            entry.details.priority = entry.details.priority.merged(with: Register(fields.priority, at: stamp))
        }
        let now = Set(fields.tags.map(TagSet.key)), was = Set(before.tags.map(TagSet.key))
        var said = TagSet()
        said.add(fields.tags.filter { !was.contains(TagSet.key($0)) }, at: stamp)
        said.remove(before.tags.filter { !now.contains(TagSet.key($0)) }, at: stamp)
        entry.details.tags = entry.details.tags.merged(with: said)
    }
}
